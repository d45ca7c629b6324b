/**
 * The console's Catalog page data, read from the running adapter's own catalog (the pages it
 * answers `xp.schema.catalog` with) and its `xp.schema.describe` search: each wrapped tool with
 * its kind, version, capability, annotations, input schema and GBNF grammar, and its description
 * quality score with the findings that explain it (each with its fix), plus the tools a source
 * refused to publish and why.
 * @module
 */
import type { RunningAdapter } from '@xprotocol/mcp-adapter';
import { descriptionQualityScore, type QualityFinding } from '@xprotocol/semantic';

/** A contract as the adapter's catalog pages carry it (the fields the console reads). */
interface _Contract {
  kind: string;
  version: string;
  description: string;
  title?: string;
  semantic?: Record<string, unknown>;
  source: {
    mcp_server: string;
    mcp_tool?: string;
    mcp_prompt?: string;
    namespace: string;
    title?: string;
    annotations?: Record<string, unknown>;
  };
  payload: Record<string, unknown>;
  response: { kind: string };
  auth: { required_capability: string };
  gbnf_grammar: string | null;
  gbnf_status: { state: string; reason?: string; warnings?: string[] };
}

/** One row of the catalog list. */
export interface CatalogSummary {
  kind: string;
  version: string;
  title: string | undefined;
  description: string;
  /** The `mcp_sources[].name` the tool comes from. */
  server: string;
  namespace: string;
  /** The MCP tool (or prompt) name. */
  tool: string;
  capability: string;
  /** The description quality score (0 to 1 in fifths). */
  score: number;
  /** The failed quality indicators, each with what is wrong and how to fix it. */
  findings: readonly QualityFinding[];
}

/** A tool's full card. */
export interface CatalogDetail extends CatalogSummary {
  annotations: Record<string, unknown>;
  semantic: Record<string, unknown> | undefined;
  inputSchema: Record<string, unknown>;
  responseKind: string;
  grammar: string | null;
  grammarStatus: { state: string; reason?: string; warnings?: string[] };
}

/** The whole catalog list. */
export interface CatalogList {
  tools: CatalogSummary[];
  sources: {
    name: string;
    namespace: string;
    connected: boolean;
    toolCount: number;
    error: string | undefined;
    /** Tools the source did not publish, with the reason (e.g. a description below the floor). */
    refused: { tool: string; reason: string }[];
  }[];
}

/** The adapter's catalog and search, shaped for the console. Cached per kind and version. */
export class ConsoleCatalog {
  readonly #adapter: () => RunningAdapter;
  readonly #cache = new Map<string, CatalogDetail>();

  constructor(adapter: () => RunningAdapter) {
    this.#adapter = adapter;
  }

  /** Every published tool (sorted by kind) and each source's state. */
  list(): CatalogList {
    const adapter = this.#adapter();
    const tools = this.#contracts(adapter).map((contract) => _summary(this.#detail(contract)));
    const sources = adapter.sources.status().map((s) => ({
      name: s.name,
      namespace: s.namespace,
      connected: s.connected,
      toolCount: s.toolCount,
      error: s.error,
      refused: s.refused,
    }));
    return { tools, sources };
  }

  /** One tool's card, or `undefined` when no published tool has this kind. */
  detail(kind: string): CatalogDetail | undefined {
    const page = this.#adapter().sources.page({ kinds: [kind], limit: 1 }) as { contracts: _Contract[] };
    const contract = page.contracts.find((c) => c.kind === kind);
    return contract && this.#detail(contract);
  }

  /**
   * Ranked kinds for a free-text intent: the adapter's `xp.schema.describe` answer (its semantic
   * index), best first.
   */
  search(intent: string, limit = 50): { kind: string; relevance: number; use_when: string }[] {
    return this.#adapter().sources.describe({ intent, limit }) as {
      kind: string;
      relevance: number;
      use_when: string;
    }[];
  }

  #contracts(adapter: RunningAdapter): _Contract[] {
    const all: _Contract[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = adapter.sources.page(cursor === undefined ? { limit: 500 } : { limit: 500, cursor }) as {
        contracts: _Contract[];
        next_cursor?: string;
      };
      all.push(...page.contracts);
      if (page.next_cursor === undefined || page.contracts.length === 0) return all;
      cursor = page.next_cursor;
    }
  }

  #detail(contract: _Contract): CatalogDetail {
    const key = `${contract.kind}@${contract.version}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const tool = contract.source.mcp_tool ?? contract.source.mcp_prompt ?? contract.kind;
    // The same scoring the announce publishes (name context included), with the findings kept.
    const quality = descriptionQualityScore(contract.description, { name: tool });
    const detail: CatalogDetail = {
      kind: contract.kind,
      version: contract.version,
      title: contract.title ?? contract.source.title,
      description: contract.description,
      server: contract.source.mcp_server,
      namespace: contract.source.namespace,
      tool,
      capability: contract.auth.required_capability,
      score: quality.score,
      findings: quality.findings,
      annotations: contract.source.annotations ?? {},
      semantic: contract.semantic,
      inputSchema: contract.payload,
      responseKind: contract.response.kind,
      grammar: contract.gbnf_grammar,
      grammarStatus: contract.gbnf_status,
    };
    this.#cache.set(key, detail);
    return detail;
  }
}

function _summary(detail: CatalogDetail): CatalogSummary {
  return {
    kind: detail.kind,
    version: detail.version,
    title: detail.title,
    description: detail.description,
    server: detail.server,
    namespace: detail.namespace,
    tool: detail.tool,
    capability: detail.capability,
    score: detail.score,
    findings: detail.findings,
  };
}
