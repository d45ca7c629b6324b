/**
 * Tool search over a live catalog (docs/design.md §7, search): a `@xprotocol/semantic`
 * `ToolIndex` kept in step with a set of documents — the endpoint's contracts for
 * `xp.schema.describe`, the MCP face's tools for `search_tools`. `sync` adds, replaces and removes
 * only what changed, so a refresh of a large catalog stays cheap.
 * @module
 */
import {
  type DescribeMatch,
  describeQuery,
  type SearchHit,
  type ToolDocument,
  ToolIndex,
  type ToolServerInfo,
} from '@xprotocol/semantic/search';

/** The parts of an MCP tool (`tools/list` entry) that search reads. */
export interface SearchableTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: unknown;
  annotations?: { title?: string | undefined } | undefined;
}

/**
 * The search document of an MCP tool: name, title (the tool's own or its annotations'),
 * description, input schema (parameter names, descriptions and enum values are indexed), the
 * source it belongs to, and what its server said about itself in `initialize` (`serverInfo` name,
 * title, description and `instructions`), which tells one server's tools from another's.
 */
export function toolSearchDocument(
  id: string,
  tool: SearchableTool,
  namespace: string | undefined,
  server?: ToolServerInfo,
): ToolDocument {
  return {
    id,
    name: tool.name,
    title: tool.title ?? tool.annotations?.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    namespace,
    server,
  };
}

/** A document and the fingerprint that tells when it changed (e.g. `kind@version`). */
export interface SearchEntry {
  document: ToolDocument;
  fingerprint: string;
}

/** A search index that follows a changing set of documents. */
export class SchemaSearch {
  #index = new ToolIndex();
  readonly #fingerprints = new Map<string, string>();

  /** Makes the index hold exactly `entries` (by `document.id`). */
  sync(entries: readonly SearchEntry[]): void {
    const wanted = new Map(entries.map((entry) => [entry.document.id, entry]));
    const stale = [...this.#fingerprints.keys()].filter(
      (id) => wanted.get(id)?.fingerprint !== this.#fingerprints.get(id),
    );
    if (stale.length > 0) this.#index.remove(stale);
    for (const id of stale) this.#fingerprints.delete(id);
    const fresh = [...wanted.values()].filter((entry) => !this.#fingerprints.has(entry.document.id));
    if (fresh.length > 0) this.#index.add(fresh.map((entry) => entry.document));
    for (const entry of fresh) this.#fingerprints.set(entry.document.id, entry.fingerprint);
  }

  /** Answers an `xp.schema.describe` query; throws a `SemanticError` on a malformed one. */
  describe(query: unknown): DescribeMatch[] {
    return describeQuery(this.#index, (query ?? {}) as Parameters<typeof describeQuery>[1]);
  }

  /** Free-text search, best first. */
  search(text: string, limit: number): SearchHit[] {
    return this.#index.search(text, { limit });
  }

  get size(): number {
    return this.#fingerprints.size;
  }
}
