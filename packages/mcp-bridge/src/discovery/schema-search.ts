/**
 * Tool search over a live catalog (docs/design.md §7, search): a `@xprotocol/semantic`
 * `ToolIndex` kept in step with a set of documents — the endpoint's contracts for
 * `xp.schema.describe`, the MCP face's tools for `search_tools`. `sync` adds, replaces and removes
 * only what changed, so a refresh of a large catalog stays cheap.
 * @module
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type {
  DescribeMatch,
  SearchHit,
  ToolDocument,
  ToolIndex,
  ToolServerInfo,
} from '@xprotocol/semantic/search';

type _SearchModule = typeof import('@xprotocol/semantic/search');
let _module: _SearchModule | undefined;

/**
 * `@xprotocol/semantic/search`, loaded on the first search: the module carries its word vectors
 * (about 5 MB of JavaScript, 150 ms to load and tens of MB of heap), which a process that never
 * searches should not pay for at startup. Loaded synchronously (require of its CommonJS entry),
 * so searching stays synchronous.
 */
function _searchModule(): _SearchModule {
  _module ??= createRequire(import.meta.url)('@xprotocol/semantic/search') as _SearchModule;
  return _module;
}

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

/** A document and the fingerprint that tells when it changed (e.g. `kind@version`; kept as a digest). */
export interface SearchEntry {
  document: ToolDocument;
  fingerprint: string;
}

/**
 * A search index that follows a changing set of documents. The index is built on the first
 * `describe` or `search` (until then `sync` only notes the documents), then kept in step.
 */
export class SchemaSearch {
  #index: ToolIndex | undefined;
  #entries = new Map<string, SearchEntry>();
  /** Fingerprints of what the index holds, by document id. */
  readonly #fingerprints = new Map<string, string>();

  /** Makes the index hold exactly `entries` (by `document.id`). */
  sync(entries: readonly SearchEntry[]): void {
    this.#entries = new Map(
      entries.map((entry) => [
        entry.document.id,
        { document: entry.document, fingerprint: _compact(entry.fingerprint) },
      ]),
    );
    if (this.#index) this.#apply(this.#index);
  }

  /** Answers an `xp.schema.describe` query; throws a `SemanticError` on a malformed one. */
  describe(query: unknown): DescribeMatch[] {
    return _searchModule().describeQuery(
      this.#ready(),
      (query ?? {}) as Parameters<_SearchModule['describeQuery']>[1],
    );
  }

  /** Free-text search, best first; only documents `visible` accepts, when given. */
  search(text: string, limit: number, visible?: (id: string) => boolean): SearchHit[] {
    const hits = this.#ready().search(text, { limit });
    if (!visible || hits.every((hit) => visible(hit.id))) return hits;
    // Some of the best are hidden from this caller: rank every document, keep the visible ones.
    return this.#ready()
      .search(text, { limit: this.size })
      .filter((hit) => visible(hit.id))
      .slice(0, limit);
  }

  get size(): number {
    return this.#entries.size;
  }

  #ready(): ToolIndex {
    if (!this.#index) {
      this.#index = new (_searchModule().ToolIndex)();
      this.#apply(this.#index);
    }
    return this.#index;
  }

  /** Adds, replaces and removes only what changed since the index last followed `#entries`. */
  #apply(index: ToolIndex): void {
    const wanted = this.#entries;
    const stale = [...this.#fingerprints.keys()].filter(
      (id) => wanted.get(id)?.fingerprint !== this.#fingerprints.get(id),
    );
    if (stale.length > 0) index.remove(stale);
    for (const id of stale) this.#fingerprints.delete(id);
    const fresh = [...wanted.values()].filter((entry) => !this.#fingerprints.has(entry.document.id));
    if (fresh.length > 0) index.add(fresh.map((entry) => entry.document));
    for (const entry of fresh) this.#fingerprints.set(entry.document.id, entry.fingerprint);
  }
}

/**
 * A fingerprint's digest. Only equality is ever asked of a fingerprint, and the MCP face's are a
 * tool's whole title, description and schema as JSON: kept as they are for every tool, as many
 * bytes as the tools themselves (2.5 MiB with 40 catalogs).
 */
function _compact(fingerprint: string): string {
  return createHash('sha256').update(fingerprint).digest('base64');
}
