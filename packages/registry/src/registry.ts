/**
 * The live catalog (docs/design.md §10): kind → contract, kind → the MCP source and tool (or
 * prompt, or resource template) behind it, and the refresh diff with versions from translate's rule (Appendix B)
 * persisted in a {@link VersionStore}. One registry holds every `mcp_sources` entry of an adapter;
 * each refresh replaces one source's contracts.
 * @module
 */
import {
  bumpVersion,
  compareContracts,
  isContractKind,
  type SchemaContract,
  serializeContract,
  type VersionBump,
} from '@xprotocol/translate';
import { RegistryError } from './errors.js';
import type { VersionRecord, VersionStore } from './version-store.js';
import { MemoryVersionStore } from './version-store.js';

/** Where a wrapped contract comes from. */
export interface ContractOrigin {
  /** `mcp_sources[].name`. */
  readonly source: string;
  /** The MCP tool name, for a tool contract. */
  readonly tool?: string;
  /** The MCP prompt name, for a prompt contract. */
  readonly prompt?: string;
  /** The MCP resource template's name, for a resource-template contract (docs/protocol.md §10.11). */
  readonly resourceTemplate?: string;
  /** Its URI template, which a read expands with the request's payload. */
  readonly uriTemplate?: string;
}

/** A kind whose contract changed, and how its version moved. */
export interface ChangedKind {
  kind: string;
  from: string;
  to: string;
  /** `none` when only derived fields changed (the grammar), so the version stays. */
  bump: VersionBump;
  reasons: string[];
}

/** What one refresh did. Every list is sorted by kind. */
export interface RefreshDiff {
  source: string;
  added: { kind: string; version: string }[];
  removed: { kind: string; version: string }[];
  changed: ChangedKind[];
  /** Kinds this source offered that another source already serves; they were not taken. */
  conflicts: { kind: string; owner: string }[];
  /** True when anything was added, removed or changed (publish a new announce, docs/design.md §10). */
  readonly dirty: boolean;
}

interface _Entry {
  contract: SchemaContract;
  origin: ContractOrigin;
}

/**
 * The registry.
 * @example
 * const registry = new Registry({ versionStore: new MemoryVersionStore() });
 * const { contracts } = translateSource({ name: 'filesystem', namespace: 'com.acme.fs', tools, adapterVersion: '0.1.0' });
 * const diff = await registry.refreshSource('filesystem', contracts);
 * registry.get('com.acme.fs.read_file')?.version; // '1.0.0'
 */
export class Registry {
  readonly #store: VersionStore;
  readonly #entries = new Map<string, _Entry>();
  readonly #bySource = new Map<string, Set<string>>();
  readonly #byTool = new Map<string, string>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: { versionStore?: VersionStore } = {}) {
    this.#store = options.versionStore ?? new MemoryVersionStore();
  }

  /**
   * Replaces the contracts of one source with `contracts` (a `translateSource` result) and returns
   * the diff. Versions: a kind never seen is `1.0.0`; otherwise the stored version moves by
   * `compareContracts` against the stored contract. Refreshes run one at a time.
   */
  refreshSource(source: string, contracts: readonly SchemaContract[]): Promise<RefreshDiff> {
    const run = this.#queue.then(() => this.#refresh(source, contracts));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Drops a source (as a refresh to nothing). */
  removeSource(source: string): Promise<RefreshDiff> {
    return this.refreshSource(source, []);
  }

  async #refresh(source: string, contracts: readonly SchemaContract[]): Promise<RefreshDiff> {
    if (typeof source !== 'string' || source === '') {
      throw new RegistryError(
        'INVALID_SOURCE',
        `source: expected a non-empty name, got ${JSON.stringify(source)}`,
      );
    }
    const incoming = new Map<string, SchemaContract>();
    const conflicts: { kind: string; owner: string }[] = [];
    for (const contract of contracts) {
      if (!isContractKind(contract.kind)) {
        throw new RegistryError(
          'INVALID_CONTRACT',
          `${source}: expected contracts with valid kinds, got ${JSON.stringify(contract.kind)}`,
        );
      }
      if (incoming.has(contract.kind)) {
        throw new RegistryError(
          'INVALID_CONTRACT',
          `${source}: kind ${contract.kind} appears twice in one refresh`,
        );
      }
      const owner = this.#entries.get(contract.kind)?.origin.source;
      if (owner !== undefined && owner !== source) {
        conflicts.push({ kind: contract.kind, owner });
        continue;
      }
      incoming.set(contract.kind, contract);
    }

    const added: { kind: string; version: string }[] = [];
    const removed: { kind: string; version: string }[] = [];
    const changed: ChangedKind[] = [];
    const next = new Map<string, _Entry>();
    for (const kind of [...incoming.keys()].sort()) {
      const fresh = incoming.get(kind) as SchemaContract;
      let record: VersionRecord | undefined;
      try {
        record = await this.#store.get(kind);
      } catch (error) {
        throw new RegistryError('VERSION_STORE', `version store: reading ${kind} failed: ${String(error)}`, {
          cause: error,
        });
      }
      let version = '1.0.0';
      let change: { bump: VersionBump; reasons: string[] } | undefined;
      if (record !== undefined) {
        const previous = _parseStored(record);
        change = compareContracts(previous, fresh);
        version = bumpVersion(record.version, change.bump);
      }
      const contract: SchemaContract = { ...fresh, version };
      const serialized = serializeContract(contract);
      if (record === undefined || record.contract !== serialized) {
        try {
          await this.#store.put({ kind, version, contract: serialized });
        } catch (error) {
          throw new RegistryError(
            'VERSION_STORE',
            `version store: writing ${kind} failed: ${String(error)}`,
            { cause: error },
          );
        }
      }
      const before = this.#entries.get(kind);
      if (before === undefined) added.push({ kind, version });
      // Serialized again rather than kept: a big catalog's canonical texts would cost megabytes.
      else if (serializeContract(before.contract) !== serialized) {
        changed.push({
          kind,
          from: before.contract.version,
          to: version,
          bump: change?.bump ?? 'none',
          reasons: change?.reasons ?? [],
        });
      }
      next.set(kind, { contract, origin: _origin(source, contract) });
    }
    for (const kind of [...(this.#bySource.get(source) ?? [])].sort()) {
      if (!next.has(kind))
        removed.push({ kind, version: (this.#entries.get(kind) as _Entry).contract.version });
    }

    // commit
    for (const kind of this.#bySource.get(source) ?? []) {
      const entry = this.#entries.get(kind);
      if (entry?.origin.tool !== undefined) this.#byTool.delete(_toolKey(source, entry.origin.tool));
      this.#entries.delete(kind);
    }
    const kinds = new Set<string>();
    for (const [kind, entry] of next) {
      this.#entries.set(kind, entry);
      kinds.add(kind);
      if (entry.origin.tool !== undefined) this.#byTool.set(_toolKey(source, entry.origin.tool), kind);
    }
    if (kinds.size > 0) this.#bySource.set(source, kinds);
    else this.#bySource.delete(source);
    conflicts.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    return {
      source,
      added,
      removed,
      changed,
      conflicts,
      dirty: added.length + removed.length + changed.length > 0,
    };
  }

  /** The contract of a kind (with its version), or `undefined` (answered `NOT_FOUND`). */
  get(kind: string): SchemaContract | undefined {
    return this.#entries.get(kind)?.contract;
  }

  /** The canonical JSON of a kind's contract (what is published), or `undefined`. */
  serialized(kind: string): string | undefined {
    const entry = this.#entries.get(kind);
    return entry === undefined ? undefined : serializeContract(entry.contract);
  }

  /** Which source and tool (or prompt, or resource template) serve a kind. */
  origin(kind: string): ContractOrigin | undefined {
    return this.#entries.get(kind)?.origin;
  }

  /** The kind of an MCP tool of a source (reverse lookup, docs/design.md §10). */
  kindOfTool(source: string, tool: string): string | undefined {
    return this.#byTool.get(_toolKey(source, tool));
  }

  /** Every contract, sorted by kind. */
  contracts(): SchemaContract[] {
    return [...this.#entries.keys()].sort().map((kind) => (this.#entries.get(kind) as _Entry).contract);
  }

  /** The contracts of one source, sorted by kind. */
  contractsOf(source: string): SchemaContract[] {
    return [...(this.#bySource.get(source) ?? [])]
      .sort()
      .map((kind) => (this.#entries.get(kind) as _Entry).contract);
  }

  /** The names of the sources with at least one contract, sorted. */
  sources(): string[] {
    return [...this.#bySource.keys()].sort();
  }

  /** Number of contracts. */
  get size(): number {
    return this.#entries.size;
  }
}

function _toolKey(source: string, tool: string): string {
  return `${source}\u0000${tool}`;
}

function _origin(source: string, contract: SchemaContract): ContractOrigin {
  const s = contract.source as {
    mcp_tool?: unknown;
    mcp_prompt?: unknown;
    mcp_resource_template?: unknown;
    uri_template?: unknown;
  };
  if (typeof s.mcp_tool === 'string') return { source, tool: s.mcp_tool };
  if (typeof s.mcp_prompt === 'string') return { source, prompt: s.mcp_prompt };
  if (typeof s.mcp_resource_template === 'string' && typeof s.uri_template === 'string')
    return { source, resourceTemplate: s.mcp_resource_template, uriTemplate: s.uri_template };
  return { source };
}

function _parseStored(record: VersionRecord): SchemaContract {
  try {
    const value = JSON.parse(record.contract) as SchemaContract;
    if (typeof value !== 'object' || value === null || value.kind !== record.kind)
      throw new Error('kind mismatch');
    return value;
  } catch (error) {
    throw new RegistryError(
      'VERSION_STORE',
      `version store: the stored contract of ${record.kind} is not a contract of that kind`,
      { cause: error },
    );
  }
}
