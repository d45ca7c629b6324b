/**
 * The face's tools (docs/design.md §3): each XProtocol source's catalog, fetched through the
 * relays, becomes MCP tools in one tool table — namespace stripped, sanitized, prefixed, long or
 * taken names hashed, every name persisted in the state database so that a refresh or a restart
 * never renames a tool — beside the contracts of the local sources (gateway mode), with the search
 * index over all of them. A local source whose server offers 2026-07-28 clients other tools than
 * its catalog's has both revisions' tools in the table, each listed and resolved only for the
 * clients of a revision that offers it. A source whose fetch fails keeps its previous tools; a source with trust
 * roots lists only what its endpoint's delegation chain grants, and nothing when no root vouches
 * for it (face-trust.ts); a source configured by key follows a rotation of that key
 * (face-rotation.ts).
 * @module
 */
import type { PublicIdentity } from '@xprotocol/crypto';
import { MAX_CATALOG_INSTRUCTIONS, McpToolTable, type McpToolTarget } from '@xprotocol/registry';
import { type ContractLike, contractToMcpTool, type McpToolDefinition } from '@xprotocol/translate';
import { SchemaSearch, toolSearchDocument } from '../discovery/schema-search.js';
import type { BridgeLogger } from '../logger.js';
import { ListingScreen } from '../policy/listing-screen.js';
import { _callerOf, type LocalToolSource, type McpFaceOptions, type XpToolSource } from './face-options.js';
import { _rotatedKey } from './face-rotation.js';
import { _FaceTrust, type _TrustRefusal } from './face-trust.js';
import { DESCRIBE_TOOL } from './listing-modes.js';
import { _searchToolDefinition, _searchTools, SEARCH_TOOL } from './search-tool.js';

/** What the face knows of one XProtocol source. */
interface _SourceState {
  /** The endpoint key: configured, or found through discovery. */
  key: string | undefined;
  keys: PublicIdentity | undefined;
  /** The namespaces of the endpoint's wrapped servers, from its announce (with `keys`). */
  namespaces: readonly string[];
  tools: number;
  error: string | undefined;
  /** The endpoint's `instructions` from its catalog, once description linting let them through. */
  instructions?: string | undefined;
  /**
   * Set while the face still calls a rotated key within its grace period (face-rotation.ts): after
   * this second its keys are not given out, so nothing is sent to the old key.
   */
  graceUntil?: number | undefined;
  /** The notice of the rotation last reported, so each is logged once. */
  rotationNotice?: string | undefined;
}

/** The tool table of one face, and the catalogs of its sources. */
export class _FaceCatalog {
  readonly #o: McpFaceOptions;
  readonly #logger: BridgeLogger;
  /** Called after a refresh that changed the tool list. */
  readonly #changed: () => Promise<void>;
  readonly #sources = new Map<string, _SourceState>();
  readonly #table: McpToolTable;
  readonly #search = new SchemaSearch();
  readonly #trust: _FaceTrust;
  /**
   * Which kinds of each local source each MCP revision's clients are offered, when its server
   * offers 2026-07-28 clients other tools than the catalog's (`LocalToolSource.modernContracts`).
   */
  readonly #surfaces = new Map<string, { legacy: ReadonlySet<string>; modern: ReadonlySet<string> }>();
  /**
   * The 2026-07-28 contract of each kind of a local source whose server offers that revision's
   * clients another definition of a tool it lists in both (checked and listed for them instead).
   */
  readonly #modernDefinitions = new Map<
    string,
    { endpoint: string; contracts: ReadonlyMap<string, ContractLike> }
  >();
  /** Each local source's offer per revision as last set, to tell a change of it alone. */
  readonly #offers = new Map<string, string>();
  /** Description linting of each XProtocol source's instructions, by source name. */
  readonly #screens = new Map<string, ListingScreen>();
  #firstRefresh: Promise<void> | undefined;

  constructor(options: McpFaceOptions, logger: BridgeLogger, changed: () => Promise<void>) {
    this.#o = options;
    this.#logger = logger;
    this.#changed = changed;
    this.#trust = new _FaceTrust(options.sources, () => _callerOf(options));
    // The state database is the name store: a refresh or a restart never renames a tool.
    this.#table = new McpToolTable({ sha256: options.sha256, nameStore: options.state });
  }

  /** Resolves once every source's catalog was fetched once (or failed); starts the fetch if needed. */
  ready(): Promise<void> {
    this.#firstRefresh ??= this.refresh();
    return this.#firstRefresh;
  }

  /** What the face tool `name` calls; undefined for an unknown tool or `search_tools`. */
  resolve(name: string): McpToolTarget | undefined {
    return this.#table.resolve(name);
  }

  /**
   * What the face tool `name` calls for a client of one MCP revision (`modern`: 2026-07-28);
   * undefined when its server does not offer that revision's clients the tool, as for an unknown one.
   */
  resolveFor(name: string, modern: boolean): McpToolTarget | undefined {
    if (!this.#offered(name, modern)) return undefined;
    const target = this.#table.resolve(name);
    const own = modern && target ? this.#modernContract(target) : undefined;
    return own && target ? { ...target, contract: own } : target;
  }

  /** The 2026-07-28 contract of a source's tool listed in both revisions, when it differs. */
  #modernContract(target: McpToolTarget): ContractLike | undefined {
    return this.#modernDefinitions.get(_surfaceKey(target.type, target.source))?.contracts.get(target.kind);
  }

  /**
   * Whether clients of one MCP revision are offered the face tool `name`: a local source's tool
   * only when its server lists it in that revision; every other tool always.
   */
  #offered(name: string, modern: boolean): boolean {
    const target = this.#table.resolve(name);
    const surfaces = target ? this.#surfaces.get(_surfaceKey(target.type, target.source)) : undefined;
    if (!target || !surfaces) return true;
    return (modern ? surfaces.modern : surfaces.legacy).has(target.kind);
  }

  /**
   * The capability a call of the face tool `name` needs (its contract's
   * `auth.required_capability`, else its kind); undefined for an unknown tool or `search_tools`.
   */
  requiredCapability(name: string): string | undefined {
    const target = this.#table.resolve(name);
    if (!target) return undefined;
    const auth = (target.contract as { auth?: { required_capability?: unknown } }).auth;
    return typeof auth?.required_capability === 'string' ? auth.required_capability : target.kind;
  }

  /** Which tools a caller that may use what `mayUse` accepts may see and call, by name. */
  visibleTo(mayUse: (capability: string) => boolean): (name: string) => boolean {
    return (name) => {
      const capability = this.requiredCapability(name);
      return capability === undefined || mayUse(capability);
    };
  }

  /** The public keys of XProtocol source `source`, once resolved. */
  keys(source: string): PublicIdentity | undefined {
    const state = this.#sources.get(source);
    if (state?.graceUntil !== undefined && this.#nowSeconds() > state.graceUntil) return undefined;
    return state?.keys;
  }

  /** The guidance of XProtocol source `source` from its endpoint's catalog, when it passed description linting. */
  instructions(source: string): string | undefined {
    return this.#sources.get(source)?.instructions;
  }

  /**
   * An endpoint's guidance as the face may give it: linted like a description (flagged guidance is
   * withheld), and none at all past {@link MAX_CATALOG_INSTRUCTIONS} characters (docs/protocol.md §10.8).
   */
  #guidance(source: string, text: string | undefined): string | undefined {
    if (text !== undefined && text.length > MAX_CATALOG_INSTRUCTIONS) {
      this.#logger.warn(
        { source, length: text.length },
        `the instructions in the catalog of XProtocol source ${source} are withheld: ${text.length} characters, over ${MAX_CATALOG_INSTRUCTIONS}`,
      );
      return undefined;
    }
    return this.#screen(source).instructions(text);
  }

  /** The description lint of an XProtocol source's instructions (quarantine: flagged ones are withheld). */
  #screen(source: string): ListingScreen {
    let screen = this.#screens.get(source);
    if (!screen) {
      screen = new ListingScreen({ source, logger: this.#logger });
      this.#screens.set(source, screen);
    }
    return screen;
  }

  /** The namespaces XProtocol source `source` announces (none until its keys are known). */
  namespaces(source: string): readonly string[] {
    return this.#sources.get(source)?.namespaces ?? [];
  }

  /**
   * Why a call of the face tool `name` is refused by its source's trust roots now (docs/security.md,
   * "Trust roots"); `undefined` when it is not (or the source has none).
   */
  trustRefusal(name: string): _TrustRefusal | undefined {
    const target = this.#table.resolve(name);
    const capability = this.requiredCapability(name);
    if (target?.type !== 'xprotocol' || capability === undefined) return undefined;
    return this.#trust.callRefusal(target.source, name, capability);
  }

  /** Why the sources that list nothing because of their trust roots do so, one sentence each. */
  untrustedSources(): string[] {
    return this.#o.sources.flatMap((source) => {
      const why = this.#trust.refusal(source.name);
      return why === undefined ? [] : [`xprotocol source ${source.name} lists nothing: ${why}`];
    });
  }

  /** Whether the face tool `name` is listed: always, unless its source's chain does not grant it. */
  #granted(name: string): boolean {
    const target = this.#table.resolve(name);
    const capability = this.requiredCapability(name);
    if (target?.type !== 'xprotocol' || capability === undefined) return true;
    return this.#trust.grants(target.source, capability);
  }

  /**
   * The tools currently listed to clients of one MCP revision (`modern`: 2026-07-28; default
   * 2025-11-25); only those `visible` lets a caller see, when given.
   */
  tools(visible?: (name: string) => boolean, modern = false): McpToolDefinition[] {
    const shown = (name: string) =>
      this.#granted(name) && this.#offered(name, modern) && (visible?.(name) ?? true);
    const table = this.#table.list().filter((tool) => shown(tool.name));
    const tools = table.map((tool) => this.#asListed(tool, modern));
    return this.searchEnabled() ? [...tools, _searchToolDefinition(tools.length)] : tools;
  }

  /**
   * A gateway tool as its server listed it to the client's revision (`modern`: 2026-07-28), under
   * its face name; others as the catalog made them.
   */
  #asListed(tool: McpToolDefinition, modern: boolean): McpToolDefinition {
    const target = this.#table.resolve(tool.name);
    if (!target) return tool;
    const local =
      target.type === 'mcp' ? this.#o.localSources?.find((l) => l.name === target.source) : undefined;
    const listed = local?.gateway?.definition?.(target.kind, modern);
    if (listed) return { ...listed, name: tool.name } as unknown as McpToolDefinition;
    const own = modern ? this.#modernContract(target) : undefined;
    const endpoint = this.#modernDefinitions.get(_surfaceKey(target.type, target.source))?.endpoint;
    if (!own || endpoint === undefined) return tool;
    const made = contractToMcpTool(own, { name: tool.name, endpoint });
    return made.ok ? made.tool : tool;
  }

  /** Whether `search_tools` is listed: asked for, and no real tool has the name. */
  searchEnabled(): boolean {
    return this.#o.searchTool !== false && this.#table.resolve(SEARCH_TOOL) === undefined;
  }

  /** Whether `describe_tool` is listed and answered: a `listing` other than `full`, and no real tool has the name. */
  describeEnabled(): boolean {
    return (this.#o.listing ?? 'full') !== 'full' && this.#table.resolve(DESCRIBE_TOOL) === undefined;
  }

  /**
   * Answers a `search_tools` call over the tools of the table offered to the client's revision
   * (`modern`: 2026-07-28), those `visible` accepts when given.
   */
  searchTools(
    args: Record<string, unknown>,
    visible?: (name: string) => boolean,
    modern = false,
  ): Record<string, unknown> {
    const shown = (name: string) =>
      this.#granted(name) && this.#offered(name, modern) && (visible?.(name) ?? true);
    return _searchTools(this.#search, this.#table.list(), args, shown);
  }

  /** Per-source status: tool count and the last error. */
  status(): { name: string; tools: number; error: string | undefined }[] {
    return this.#o.sources.map((source) => {
      const state = this.#sources.get(source.name);
      return { name: source.name, tools: state?.tools ?? 0, error: state?.error };
    });
  }

  /**
   * Fetches every source's catalog again and updates the tool list and the search index; tells
   * the face when the list changed. A source that fails keeps its previous tools.
   */
  async refresh(): Promise<void> {
    const timeout = this.#o.catalogTimeoutMs ?? 10_000;
    const updates = await Promise.all(
      this.#o.sources.map((source) => this.#refreshXpSource(source, timeout)),
    );
    for (const local of this.#o.localSources ?? []) {
      if (await this.#refreshLocalSource(local)) updates.push(true);
    }
    if (this.#o.searchTool !== false && this.#table.resolve(SEARCH_TOOL) !== undefined) {
      this.#logger.warn(
        { tool: SEARCH_TOOL },
        'a source has a tool named search_tools; the built-in search tool is not listed',
      );
    }
    this.#syncSearch();
    if (updates.some(Boolean)) await this.#changed();
  }

  /** Fetches one XProtocol source's catalog into the table; whether its tools changed. */
  async #refreshXpSource(source: XpToolSource, timeout: number): Promise<boolean> {
    const state: _SourceState = this.#sources.get(source.name) ?? {
      key: source.key,
      keys: undefined,
      namespaces: [],
      tools: 0,
      error: undefined,
    };
    this.#sources.set(source.name, state);
    try {
      state.key ??= await this.#discover(source);
      const caller = _callerOf(this.#o);
      if (source.key !== undefined) {
        const ended = await this.#followRotation(source.name, source.key, state, timeout);
        if (ended !== undefined) return this.#withdrawn(source.name, state, ended);
      }
      // With trust roots, every fetch reads the announce again: a renewed chain is taken up.
      const checks = this.#trust.checks(source.name);
      if (!state.keys || checks) {
        const announce = await caller.resolve(state.key, timeout);
        const refused = checks
          ? this.#trust.admit(source.name, announce, await caller.chainRevocations(announce, timeout))
          : undefined;
        if (refused !== undefined) return this.#untrusted(source.name, state, refused);
        state.namespaces = announce.payload.mcp_sources.map((wrapped) => wrapped.namespace);
        state.keys = announce.keys;
      }
      const { contracts, instructions, revisions } = await caller.catalogWithInstructions(state.key, timeout);
      state.instructions = this.#guidance(source.name, instructions);
      // The endpoint's 2026-07-28 clients' catalog, when it has one (docs/protocol.md §10.8).
      const modern = revisions.includes(MODERN_CATALOG)
        ? ((await caller.catalogWithInstructions(state.key, timeout, MODERN_CATALOG))
            .contracts as unknown as ContractLike[])
        : undefined;
      const legacy = contracts as unknown as ContractLike[];
      const changedOffer = this.#setSurfaces('xprotocol', source.name, source.label, legacy, modern);
      const update = await this.#table.setSource(
        {
          name: source.name,
          type: 'xprotocol',
          endpoint: source.label,
          endpointKey: state.key,
          prefix: source.prefix,
          schemaFilter: source.schemaFilter,
        },
        _bothRevisions(legacy, modern),
      );
      for (const { kind, reason } of update.refused) {
        this.#logger.warn({ source: source.name, kind }, `not exposed: ${reason}`);
      }
      const withheld = update.tools.filter((tool) => !this.#granted(tool.name));
      for (const tool of withheld) {
        const capability = this.requiredCapability(tool.name) ?? tool.name;
        this.#logger.warn(
          { source: source.name, tool: tool.name },
          `not exposed: ${this.#trust.notGranted(source.name, tool.name, capability)}`,
        );
      }
      state.tools = update.tools.length - withheld.length;
      state.error = undefined;
      return update.changed || changedOffer;
    } catch (error) {
      state.error = (error as Error).message;
      this.#logger.warn(
        { source: source.name, error: state.error },
        'cannot fetch the catalog of an XProtocol source',
      );
      return false;
    }
  }

  /**
   * A source no trust root vouches for: its tools leave the table and its keys are forgotten, so
   * nothing of it is listed or called until a later fetch admits it. Whether its tools changed.
   */
  #untrusted(name: string, state: _SourceState, why: string): boolean {
    this.#logger.warn(
      { source: name, error: why },
      'an XProtocol source is not vouched for by its trust_root: none of its tools are listed',
    );
    return this.#withdrawn(name, state, why);
  }

  /** Takes a source's tools out of the table and forgets its keys until a later fetch; whether its tools changed. */
  #withdrawn(name: string, state: _SourceState, why: string): boolean {
    state.keys = undefined;
    state.namespaces = [];
    state.tools = 0;
    state.error = why;
    return this.#table.removeSource(name);
  }

  /**
   * Points `state` at the key to use for a source configured with `configured`, following a
   * rotation of it (face-rotation.ts) and warning once per rotation; the reason to list nothing
   * when the rotation's grace period ended without a successor.
   */
  async #followRotation(
    name: string,
    configured: string,
    state: _SourceState,
    timeout: number,
  ): Promise<string | undefined> {
    const found = await _rotatedKey(_callerOf(this.#o), name, configured, timeout, () => this.#nowSeconds());
    if (found.kind !== 'unrotated' && state.rotationNotice !== found.notice) {
      state.rotationNotice = found.notice;
      this.#logger.warn({ source: name, rotation: found.rotation.id }, found.notice);
    }
    if (found.kind === 'ended') return found.notice;
    state.graceUntil = found.kind === 'in_grace' ? found.rotation.grace_until : undefined;
    if (state.key !== found.key) {
      // Another key: its announce (X25519 key, namespaces, chain) is read afresh.
      state.key = found.key;
      state.keys = undefined;
    }
    return undefined;
  }

  #nowSeconds(): number {
    return Math.floor(Date.now() / 1000);
  }

  /**
   * Puts a local source's current contracts in the table, with those its server offers only to
   * 2026-07-28 clients (each revision's clients are then offered their own); whether its tools changed.
   */
  async #refreshLocalSource(local: LocalToolSource): Promise<boolean> {
    const legacy = local.contracts();
    const modern = local.modernContracts?.();
    const update = await this.#table.setSource(
      { name: local.name, type: 'mcp', endpoint: 'this adapter', endpointKey: local.key, prefix: '' },
      _bothRevisions(legacy, modern),
    );
    const changedOffer = this.#setSurfaces('mcp', local.name, 'this adapter', legacy, modern);
    for (const { kind, reason } of update.refused)
      this.#logger.warn({ source: local.name, kind }, `not exposed: ${reason}`);
    return update.changed || changedOffer;
  }

  /**
   * Records which kinds of a source each MCP revision's clients are offered, and the 2026-07-28
   * contracts of kinds listed in both that differ (`modern` undefined: every client gets
   * `legacy`); whether that changed while the table may not have.
   */
  #setSurfaces(
    type: McpToolTarget['type'],
    name: string,
    endpoint: string,
    legacy: readonly ContractLike[],
    modern: readonly ContractLike[] | undefined,
  ): boolean {
    const key = _surfaceKey(type, name);
    const kinds = (contracts: readonly ContractLike[]) => new Set(contracts.map((c) => c.kind));
    const legacyKinds = kinds(legacy);
    if (modern) this.#surfaces.set(key, { legacy: legacyKinds, modern: kinds(modern) });
    else this.#surfaces.delete(key);
    // A tool in both revisions whose 2026-07-28 definition differs is checked and listed by it.
    const legacyOf = new Map(legacy.map((c) => [c.kind, _shape(c)]));
    const differing = (modern ?? []).filter(
      (c) => legacyOf.has(c.kind) && legacyOf.get(c.kind) !== _shape(c),
    );
    this.#modernDefinitions.set(key, { endpoint, contracts: new Map(differing.map((c) => [c.kind, c])) });
    const offered = JSON.stringify(
      modern && [...legacyKinds, '|', ...kinds(modern), '|', ...differing.map(_shape)],
    );
    const changed = this.#offers.get(key) !== offered;
    this.#offers.set(key, offered);
    return changed;
  }

  /** Makes the search index hold exactly the tools of the table. */
  #syncSearch(): void {
    this.#search.sync(
      this.#table.list().map((tool) => ({
        document: toolSearchDocument(tool.name, tool, this.#table.resolve(tool.name)?.source),
        fingerprint: JSON.stringify([tool.title, tool.description, tool.inputSchema]),
      })),
    );
  }

  async #discover(source: XpToolSource): Promise<string> {
    if (!source.endpoint || !this.#o.discover) {
      throw new Error(
        `xprotocol source ${source.name} has neither a key nor an endpoint that can be discovered`,
      );
    }
    return (await this.#o.discover(source.endpoint, source.name)).key;
  }

  /**
   * A name unknown while some source's last catalog fetch failed (a relay that was not up yet, a
   * timeout under load) may be one of its tools: the catalogs are fetched once more before the
   * name is refused. With every source fetched, an unknown name is refused at once.
   */
  async afterFailedFetch(name: string): Promise<McpToolTarget | undefined> {
    if (![...this.#sources.values()].some((state) => state.error !== undefined)) return undefined;
    await this.refresh();
    return this.#table.resolve(name);
  }
}

/** The MCP revision whose clients a source may offer other tools (docs/protocol.md §10.8). */
const MODERN_CATALOG = '2026-07-28';

/** The key of a source's revision surfaces: XProtocol and local sources are apart. */
function _surfaceKey(type: McpToolTarget['type'], source: string): string {
  return `${type}\0${source}`;
}

/** What a client sees of a tool's contract: two contracts of one shape are one definition. */
function _shape(contract: ContractLike): string {
  return JSON.stringify([contract.title, contract.description, contract.payload, contract.source]);
}

/** The table's contracts of a source: the catalog's, and those only 2026-07-28 clients are offered. */
function _bothRevisions(
  legacy: readonly ContractLike[],
  modern: readonly ContractLike[] | undefined,
): ContractLike[] {
  const kinds = new Set(legacy.map((c) => c.kind));
  return [...legacy, ...(modern ?? []).filter((c) => !kinds.has(c.kind))];
}
