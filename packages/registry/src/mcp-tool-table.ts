/**
 * The MCP face's tool table (docs/design.md §10: MCP tool name → source and tool, and back;
 * names by docs/design.md §3). Each source — an `xprotocol_sources` endpoint (Direction 2), or
 * a wrapped `mcp_sources` entry when the MCP face also aggregates them — lists contracts; the
 * table names them with translate's rule, keeps names already assigned (a {@link NameStore}), and
 * maps every name back to its source and kind. Prompt and resource-template contracts are not
 * tools and are left out.
 * @module
 */
import {
  assignMcpToolNames,
  type ContractLike,
  contractEntryType,
  contractToMcpTool,
  type McpToolDefinition,
  type Sha256,
} from '@xprotocol/translate';
import { RegistryError } from './errors.js';
import { MemoryNameStore, type NameStore } from './name-store.js';

/** One source of the MCP face. */
export interface McpFaceSource {
  /** The configuration entry's `name`. */
  readonly name: string;
  /** `xprotocol` for an `xprotocol_sources` endpoint, `mcp` for a wrapped server. */
  readonly type: 'xprotocol' | 'mcp';
  /** How the endpoint is written in the provenance note: `xp://host` or its `ed25519:` key. */
  readonly endpoint: string;
  /** The endpoint's Ed25519 key (`ed25519:…`), hashed into shortened names. */
  readonly endpointKey: string;
  /** `mcp_tool_prefix`. */
  readonly prefix?: string | undefined;
  /** `schema_filter`: the kinds to expose; absent or empty exposes all. */
  readonly schemaFilter?: readonly string[] | undefined;
}

/** What a name resolves to. */
export interface McpToolTarget {
  readonly source: string;
  readonly type: 'xprotocol' | 'mcp';
  readonly endpointKey: string;
  readonly kind: string;
  readonly contract: ContractLike;
}

/** The outcome of setting a source. */
export interface McpToolUpdate {
  /** The source's tools, sorted by name. */
  tools: McpToolDefinition[];
  /** Contracts that did not become tools, with the reason. */
  refused: { kind: string; reason: string }[];
  /** True when the table's tool list changed (send `notifications/tools/list_changed`). */
  changed: boolean;
}

interface _Tool {
  target: McpToolTarget;
  tool: McpToolDefinition;
}

/**
 * The table.
 * @example
 * const table = new McpToolTable({ sha256 });
 * await table.setSource({ name: 'weather', type: 'xprotocol', endpoint: 'xp://weather.example.com',
 *   endpointKey, prefix: 'weather_' }, catalogContracts);
 * table.resolve('weather_current_get'); // { source: 'weather', kind: 'weather.current.get', ... }
 */
export class McpToolTable {
  readonly #sha256: Sha256;
  readonly #names: NameStore;
  readonly #tools = new Map<string, _Tool>();
  readonly #bySource = new Map<string, Set<string>>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: { sha256: Sha256; nameStore?: NameStore }) {
    this.#sha256 = options.sha256;
    this.#names = options.nameStore ?? new MemoryNameStore();
  }

  /** Replaces a source's tools with those made from `contracts`. Updates run one at a time. */
  setSource(source: McpFaceSource, contracts: readonly ContractLike[]): Promise<McpToolUpdate> {
    const run = this.#queue.then(() => this.#set(source, contracts));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Removes a source's tools. */
  removeSource(name: string): boolean {
    const names = this.#bySource.get(name);
    if (names === undefined) return false;
    for (const n of names) this.#tools.delete(n);
    this.#bySource.delete(name);
    return names.size > 0;
  }

  async #set(source: McpFaceSource, contracts: readonly ContractLike[]): Promise<McpToolUpdate> {
    if (typeof source.name !== 'string' || source.name === '') {
      throw new RegistryError(
        'INVALID_SOURCE',
        `source.name: expected a non-empty string, got ${JSON.stringify(source.name)}`,
      );
    }
    const filter =
      source.schemaFilter !== undefined && source.schemaFilter.length > 0
        ? new Set(source.schemaFilter)
        : undefined;
    // Prompt and resource-template contracts are no tools (docs/protocol.md §10.11).
    const toolContracts = contracts.filter((c) => contractEntryType(c) === 'tool');
    const exposed = filter === undefined ? toolContracts : toolContracts.filter((c) => filter.has(c.kind));
    const taken = new Set<string>();
    for (const [name, t] of this.#tools) if (t.target.source !== source.name) taken.add(name);
    const persisted = await this.#names.load(source.name);
    const assignment = assignMcpToolNames(exposed, {
      prefix: source.prefix,
      endpointKey: source.endpointKey,
      sha256: this.#sha256,
      persisted,
      taken,
    });
    const refused = [...assignment.refused];
    const fresh = new Map<string, _Tool>();
    const byKind = new Map(exposed.map((c) => [c.kind, c]));
    for (const [kind, name] of assignment.names) {
      const contract = byKind.get(kind) as ContractLike;
      const made = contractToMcpTool(contract, { name, endpoint: source.endpoint });
      if (!made.ok) {
        refused.push({ kind, reason: made.reason });
        continue;
      }
      if (persisted.get(kind) !== name) await this.#names.save(source.name, kind, name);
      fresh.set(name, {
        target: { source: source.name, type: source.type, endpointKey: source.endpointKey, kind, contract },
        tool: made.tool,
      });
    }
    const before = this.#bySource.get(source.name) ?? new Set<string>();
    let changed = before.size !== fresh.size;
    // Serialized only here, when a source is set again: the text of every tool kept beside it
    // would double the table's memory (2.2 MiB with 40 catalogs) to save this comparison.
    for (const [name, t] of fresh) {
      if (changed) break;
      const old = this.#tools.get(name);
      if (old === undefined || JSON.stringify(old.tool) !== JSON.stringify(t.tool)) changed = true;
    }
    for (const name of before) this.#tools.delete(name);
    for (const [name, t] of fresh) this.#tools.set(name, t);
    this.#bySource.set(source.name, new Set(fresh.keys()));
    refused.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    const tools = [...fresh.keys()].sort().map((n) => (fresh.get(n) as _Tool).tool);
    return { tools, refused, changed };
  }

  /** The source and kind behind an MCP tool name, or `undefined` (an unknown tool). */
  resolve(name: string): McpToolTarget | undefined {
    return this.#tools.get(name)?.target;
  }

  /** Every tool, sorted by name (what `tools/list` returns). */
  list(): McpToolDefinition[] {
    return [...this.#tools.keys()].sort().map((n) => (this.#tools.get(n) as _Tool).tool);
  }
}
