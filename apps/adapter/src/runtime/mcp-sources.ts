/**
 * The wrapped MCP servers at run time: one upstream session per `mcp_sources` entry, its tools
 * translated into contracts (per source, deterministic), the description-quality floor applied,
 * the registry refreshed (versions persisted), and an {@link EndpointCatalog} view for the inbound
 * endpoint. A server that cannot be reached is retried in the background with one warning per
 * reason (the server's own error when it gave one; the same reason again is an info line), each
 * giving the real delay and the attempt it leads to (with the last stderr lines of a stdio child
 * that exited before the handshake); a stdio server that crashes is restarted and
 * listed again; a command that cannot start at all (not found, not executable, a package npm
 * does not have) is reported once and not retried. The adapter serves the others meanwhile.
 * @module
 */

import {
  applyToolPins,
  BridgeError,
  compileArgumentValidator,
  type EndpointCatalog,
  type EndpointTool,
  isAuthorizationNeeded,
  type PinnedListing,
  type QuarantinedTool,
  SchemaSearch,
  type ToolPinStore,
  UpstreamSession,
  type UpstreamTokenStore,
} from '@xprotocol/mcp-bridge';
import {
  CATALOG_REVISIONS,
  catalogPage,
  parseCatalogRequest,
  type RefreshDiff,
  type Registry,
} from '@xprotocol/registry';
import type { AddressPolicy } from '@xprotocol/relay-client';
import { type ContractLike, type Refusal, SchemaCompiler, type SchemaContract } from '@xprotocol/translate';
import type { McpSourceConfig } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import { EndpointInstructions } from './endpoint-instructions.js';
import type { AdapterLogger } from './logger.js';
import { ModernSurface } from './modern-surface.js';
import { _pinnedArgumentsRefusal } from './pinned-arguments.js';
import { listEntries, translateConfiguredSource, upstreamTransportOf } from './source-translation.js';

/** One source's last refresh, for status output and the announce. */
export interface SourceStatus {
  name: string;
  transport: McpSourceConfig['transport'];
  url: string | undefined;
  namespace: string;
  connected: boolean;
  toolCount: number;
  /** Entries with no contract; prompts and templates among them are still served (xp.mcp.request). */
  refused: { tool: string; entry: Refusal['entry']; reason: string }[];
  /** The same refusals as translate reported them (code, kind, quality score), for the announce. */
  refusals: Refusal[];
  /** Tools published with a description below the source's quality threshold. */
  lowQuality: { kind: string; issue: string }[];
  /** Tools held back by tool pinning (a change waiting, or a flagged new tool). */
  quarantined: QuarantinedTool[];
  /** Findings of description linting and quarantines, by kind, for the announce (`low_quality_schemas`). */
  flagged: { kind: string; issue: string }[];
  error: string | undefined;
  /** False when the source is not retried (its command cannot start); fix the config and restart. */
  retrying: boolean;
}

/** Options of {@link McpSources}. */
export interface McpSourcesOptions {
  sources: readonly McpSourceConfig[];
  registry: Registry;
  logger: AdapterLogger;
  /** Called after a refresh changed the catalog (publish a new announce). */
  onChange: (diff: RefreshDiff) => void;
  /** Host names in HTTP source URLs are resolved and pinned through it (docs/security.md). */
  addressPolicy?: AddressPolicy;
  /**
   * Where tool definitions are pinned (the state database): changed tools are quarantined until
   * approved (docs/security.md, "Tool pinning"). Without it nothing is pinned.
   */
  pins?: ToolPinStore;
  /** Where the OAuth grants of sources with `auth.type: oauth` are kept (the state database). */
  oauthStore?: UpstreamTokenStore;
  /** A server said its prompt or resource list changed (the MCP face tells its clients). */
  onListChanged?: (list: 'prompts' | 'resources') => void;
  /**
   * The tools a source's server offers 2026-07-28 clients changed while its catalog did not
   * (modern-surface.ts): the gateway's face lists them again.
   */
  onModernChange?: () => void;
}

/** Every wrapped MCP server, kept in the registry. */
export class McpSources implements EndpointCatalog {
  readonly upstreams = new Map<string, UpstreamSession>();
  readonly #o: McpSourcesOptions;
  readonly #status = new Map<string, SourceStatus>();
  #firstRound: Promise<void> = Promise.resolve();
  readonly #validators = new Map<string, EndpointTool['validate']>();
  readonly #compiler = new SchemaCompiler();
  /** `xp.schema.describe` index over every published contract, kept in step on each refresh. */
  readonly #search = new SchemaSearch();
  readonly #timers: ReturnType<typeof setTimeout>[] = [];
  /** Each source's tools as its server last listed them, by upstream tool name. */
  readonly #listed = new Map<string, Map<string, Record<string, unknown>>>();
  /** Each source's tools whose change waits for approval (their pinned definition is served). */
  readonly #held = new Map<string, Map<string, QuarantinedTool>>();
  /** Quarantines already logged (source, tool, hash): a refresh does not repeat the warning. */
  readonly #logged = new Set<string>();
  /** Each source's 2026-07-28 tools, read beside its catalog (modern-surface.ts). */
  readonly #modern = new Map<string, ModernSurface>();
  /** The argument validators of 2026-07-28 definitions, by contract (a refresh makes new ones). */
  readonly #modernValidators = new WeakMap<object, EndpointTool['validate']>();
  #stopped = false;
  /** The sources' guidance for the catalog's first page. */
  readonly #instructions: EndpointInstructions;
  /** The reason of each source's last connection warning (the same again is not a warning). */
  readonly #warned = new Map<string, string>();
  /** Sources whose last refresh needed a person's authorization (a face client may give it). */
  readonly #waitingForAuthorization = new Set<string>();

  constructor(options: McpSourcesOptions) {
    this.#o = options;
    this.#instructions = new EndpointInstructions(options.sources, options.logger);
    for (const source of options.sources) {
      this.upstreams.set(
        source.name,
        new UpstreamSession({
          name: source.name,
          transport: upstreamTransportOf(source, options.addressPolicy, options.oauthStore),
          clientInfo: { name: 'xprotocol-mcp-adapter', version: ADAPTER_VERSION },
          logger: options.logger,
          onToolsChanged: () => {
            this.refresh(source).catch(() => {});
          },
          onListChanged: (list) => this.#o.onListChanged?.(list),
          // A crashed stdio child is restarted (backoff, crash-loop breaker); its tools are listed
          // again so the catalog follows the new process.
          supervise: {
            onRestarted: () => {
              this.refresh(source).catch((error: unknown) => {
                this.#o.logger.warn(
                  { source: source.name },
                  `MCP source "${source.name}" restarted but tools/list failed: ${(error as Error).message}`,
                );
              });
            },
          },
        }),
      );
      this.#modern.set(
        source.name,
        new ModernSurface({
          source,
          transport: upstreamTransportOf(source, options.addressPolicy, options.oauthStore),
          logger: options.logger,
          pins: options.pins,
          onToolsChanged: () => {
            this.refresh(source).catch(() => {});
          },
        }),
      );
      this.#status.set(source.name, {
        name: source.name,
        transport: source.transport,
        url: source.url === undefined ? undefined : _publicUrl(source.url),
        namespace: source.namespace,
        connected: false,
        toolCount: 0,
        refused: [],
        refusals: [],
        lowQuality: [],
        quarantined: [],
        flagged: [],
        error: undefined,
        retrying: true,
      });
    }
  }

  /**
   * Refreshes every source once (connecting; waiting at most `startupWaitMs` for all of them),
   * then keeps each one fresh on its `schema_refresh_interval_seconds`. Sources that fail are
   * retried with backoff.
   */
  async start(startupWaitMs = 10_000): Promise<void> {
    const first = Promise.all(this.#o.sources.map((source) => this.#refreshWithRetry(source, 0)));
    this.#firstRound = first.then(
      () => {},
      () => {},
    );
    // A server that hangs at startup (a slow `npx` download) must not hold the adapter back:
    // after `startupWaitMs` the adapter serves what it has and that source joins when ready.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, startupWaitMs);
      timer.unref();
    });
    await Promise.race([first, wait]);
    clearTimeout(timer);
  }

  /**
   * Settles once every source's first refresh has succeeded or failed (a failed one goes on
   * retrying), which may be after `start` returned; at once before `start`. Never rejects.
   */
  firstRound(): Promise<void> {
    return this.#firstRound;
  }

  /** Lists the source's tools again and updates the registry. Throws when the server cannot be reached. */
  async refresh(source: McpSourceConfig): Promise<RefreshDiff> {
    const upstream = this.upstreams.get(source.name)!;
    const status = this.#status.get(source.name)!;
    const listed = (await upstream.listTools()) as unknown as Record<string, unknown>[];
    // Tool pinning first: a changed tool is replaced by its pinned definition, a flagged new one
    // is translated (for its kind) but not published.
    const pinned: PinnedListing = this.#o.pins
      ? applyToolPins({
          store: this.#o.pins,
          source: source.name,
          tools: listed,
          quarantineFlagged: source.descriptionLint === 'quarantine',
        })
      : { tools: listed, quarantined: [], findings: new Map(), migrated: [] };
    if (pinned.migrated.length > 0) {
      this.#o.logger.info(
        { source: source.name, tools: pinned.migrated },
        `tool pins rewritten under the whole-definition hash (each listing is identical to its pinned definition): ${pinned.migrated.join(', ')}`,
      );
    }
    const tools = pinned.tools;
    const heldNew = new Set(pinned.quarantined.filter((q) => q.state === 'new').map((q) => q.tool));
    this.#listed.set(source.name, new Map(tools.map((tool) => [tool.name as string, tool])));
    this.#held.set(
      source.name,
      new Map(pinned.quarantined.filter((q) => q.state === 'changed').map((q) => [q.tool, q])),
    );
    const entries = await listEntries(source, upstream, (what, error) =>
      this.#o.logger.warn(
        { source: source.name, error: (error as Error).message },
        `${what} failed: its contracts are not published until a refresh lists it`,
      ),
    );
    // translate applies the quality floor (refused LOW_QUALITY) and threshold (warned).
    const translation = translateConfiguredSource(
      source,
      [...tools, ...listed.filter((tool) => heldNew.has(tool.name as string))],
      entries,
    );
    const kindOf = new Map(
      translation.contracts.map((c) => [(c.source as { mcp_tool?: string }).mcp_tool, c.kind]),
    );
    const published = translation.contracts.filter(
      (c) => !heldNew.has((c.source as { mcp_tool?: string }).mcp_tool ?? ''),
    );
    const flagged: SourceStatus['flagged'] = [];
    for (const q of pinned.quarantined) {
      const kind = kindOf.get(q.tool);
      if (kind !== undefined) flagged.push({ kind, issue: `Quarantined: ${q.reason}` });
      const key = `${source.name}\0${q.tool}\0${q.pendingHash}`;
      if (!this.#logged.has(key)) {
        this.#logged.add(key);
        this.#o.logger.warn(
          { source: source.name, tool: q.tool, state: q.state },
          `tool quarantined: ${q.reason}`,
        );
      }
    }
    for (const [tool, findings] of pinned.findings) {
      const kind = kindOf.get(tool);
      if (kind !== undefined)
        flagged.push({ kind, issue: `Flagged: ${findings.map((f) => f.message).join('; ')}` });
    }
    const refused = translation.refused.map((r) => ({ tool: r.tool, entry: r.entry, reason: r.reason }));
    const lowQuality: SourceStatus['lowQuality'] = translation.warnings
      .filter((w) => w.code === 'LOW_QUALITY_DESCRIPTION' && w.tool !== undefined)
      .map((w) => ({ kind: `${source.namespace}.${w.tool}`, issue: w.message }));
    for (const r of refused) _logRefusal(this.#o.logger, source.name, r);
    for (const w of translation.warnings) {
      const level = w.code === 'GRAMMAR_APPROXIMATE' || w.code === 'RECURSIVE_SCHEMA' ? 'debug' : 'warn';
      this.#o.logger[level]({ source: source.name, tool: w.tool, code: w.code }, w.message);
    }
    // The tools its server offers 2026-07-28 clients, when they are others (modern-surface.ts).
    const modernChanged = await this.#modern
      .get(source.name)!
      .read(new Map(listed.map((tool) => [tool.name as string, tool])));
    const diff = await this.#o.registry.refreshSource(source.name, published);
    this.#search.sync(
      this.#o.registry.contracts().map((contract) => ({
        document: {
          id: contract.kind,
          name: this.#o.registry.origin(contract.kind)?.tool ?? contract.kind,
          description: contract.description,
          inputSchema: contract.payload,
          namespace: (contract.source as { namespace?: string }).namespace,
          ...(contract.semantic !== undefined && { semantic: contract.semantic }),
        },
        fingerprint: `${contract.kind}@${contract.version}`,
      })),
    );
    Object.assign(status, {
      connected: true,
      toolCount: published.filter((c) => 'mcp_tool' in c.source).length,
      refused,
      refusals: translation.refused,
      lowQuality,
      quarantined: pinned.quarantined,
      flagged,
      error: undefined,
    });
    if (diff.dirty) {
      this.#o.logger.info(
        {
          source: source.name,
          added: diff.added.length,
          removed: diff.removed.length,
          changed: diff.changed.length,
        },
        'catalog changed',
      );
      this.#o.onChange(diff);
    } else if (modernChanged) {
      this.#o.onModernChange?.();
    }
    return diff;
  }

  /**
   * Lists `name` again when its last refresh failed for want of a person's authorization (run
   * with the asker of a face request; docs/security.md, "OAuth to upstream servers"). True when
   * it lists its tools now; false when it was not waiting. Throws the refresh's error.
   */
  async authorize(name: string): Promise<boolean> {
    const source = this.#o.sources.find((s) => s.name === name);
    if (!source || !this.#waitingForAuthorization.has(name)) return false;
    await this.refresh(source);
    this.#waitingForAuthorization.delete(name);
    return true;
  }

  /** Each source's state. */
  status(): SourceStatus[] {
    return this.#o.sources.map((source) => ({ ...this.#status.get(source.name)! }));
  }

  /** {@link EndpointCatalog.tool}: the served tool for `kind`. */
  tool(kind: string): EndpointTool | undefined {
    const contract = this.#o.registry.get(kind);
    const origin = this.#o.registry.origin(kind);
    const upstreamName = origin?.tool ?? origin?.prompt ?? origin?.resourceTemplate;
    if (!contract || !origin || upstreamName === undefined) return undefined;
    // A prompt or resource template runs `prompts/get` or `resources/read` (docs/protocol.md §10.11).
    const entry: EndpointTool['entry'] =
      origin.prompt !== undefined
        ? { type: 'prompt' }
        : origin.uriTemplate !== undefined
          ? { type: 'resource_template', uriTemplate: origin.uriTemplate }
          : undefined;
    const key = `${kind}@${contract.version}`;
    let validate = this.#validators.get(key);
    if (!validate) {
      validate = compileArgumentValidator(contract.payload, this.#compiler);
      this.#validators.set(key, validate);
    }
    const schemaCheck = validate;
    // A quarantined tool also refuses what its pinned definition does not name.
    const checked: EndpointTool['validate'] = (payload) => {
      const result = schemaCheck(payload);
      if (!result.ok) return result;
      const refused = this.checkArguments(kind, payload as Record<string, unknown>);
      return refused === undefined
        ? result
        : { ok: false, message: refused, errors: [{ path: '', message: refused }] };
    };
    return {
      contract,
      source: origin.source,
      upstreamName,
      validate: checked,
      ...(entry !== undefined && { entry }),
    };
  }

  /**
   * Why `args` are refused for the tool behind `kind` beyond its schema, or `undefined`: a tool
   * whose change waits for approval refuses arguments its pinned definition does not name (the
   * changed server may act on them). `modern`: for a 2026-07-28 client (that revision's definition).
   */
  checkArguments(kind: string, args: Record<string, unknown>, modern = false): string | undefined {
    const only = this.#modernTool(kind) ?? (modern ? this.#modernTwin(kind) : undefined);
    if (only) return this.#modern.get(only.source)?.checkArguments(only.tool, args);
    const origin = this.#o.registry.origin(kind);
    if (origin?.tool === undefined || !this.#held.get(origin.source)?.has(origin.tool)) return undefined;
    const pinned = this.#listed.get(origin.source)?.get(origin.tool);
    return _pinnedArgumentsRefusal(origin.source, origin.tool, pinned, args);
  }

  /**
   * The tool behind `kind` as its server last listed it (gateway mode lists it as it is); `modern`:
   * as listed to 2026-07-28 clients.
   */
  listedTool(kind: string, modern = false): Record<string, unknown> | undefined {
    const only = this.#modernTool(kind) ?? (modern ? this.#modernTwin(kind) : undefined);
    if (only) return this.#modern.get(only.source)?.listedTool(only.tool);
    const origin = this.#o.registry.origin(kind);
    return origin?.tool === undefined ? undefined : this.#listed.get(origin.source)?.get(origin.tool);
  }

  /**
   * The contracts of the tools source `source`'s server offers 2026-07-28 clients, when they are
   * others than its catalog's (modern-surface.ts); undefined: those clients get the catalog's.
   */
  modernContracts(source: string): readonly ContractLike[] | undefined {
    return this.#modern.get(source)?.contracts;
  }

  /** The server's own name of the tool behind `kind`: in the catalog, or offered to 2026-07-28 clients only. */
  upstreamToolName(kind: string): string | undefined {
    return this.tool(kind)?.upstreamName ?? this.#modernTool(kind)?.tool;
  }

  /** The source and upstream name of `kind` when only 2026-07-28 clients are offered it. */
  #modernTool(kind: string): { source: string; tool: string } | undefined {
    if (this.#o.registry.get(kind) !== undefined) return undefined;
    for (const [source, surface] of this.#modern) {
      const contract = surface.contracts?.find((c) => c.kind === kind);
      const tool = (contract?.source as { mcp_tool?: string } | undefined)?.mcp_tool;
      if (tool !== undefined) return { source, tool };
    }
    return undefined;
  }

  /** The source and upstream name of catalog tool `kind` when 2026-07-28 clients are offered it too. */
  #modernTwin(kind: string): { source: string; tool: string } | undefined {
    const origin = this.#o.registry.origin(kind);
    if (origin?.tool === undefined) return undefined;
    const listed = this.#modern.get(origin.source)?.listedTool(origin.tool);
    return listed === undefined ? undefined : { source: origin.source, tool: origin.tool };
  }

  /**
   * {@link EndpointCatalog.page}: the registry's pages (sorted by kind, byte-bounded); the first
   * one (no cursor) with the sources' guidance, when they have any (endpoint-instructions.ts).
   */
  page(request: unknown) {
    const { revision, ...parsed } = parseCatalogRequest(request);
    if (revision !== undefined) return catalogPage(this.#modernCatalog(), parsed);
    const page = catalogPage(this.#o.registry, parsed);
    if (parsed.cursor !== undefined) return page;
    const instructions = this.#instructions.text((source) => this.upstreams.get(source)?.instructions);
    // 2026-07-28 callers ask for their own catalog when it is another (docs/protocol.md §10.8).
    const revisions = this.#modernDiffers() ? { revisions: [...CATALOG_REVISIONS] } : {};
    return { ...page, ...(instructions !== undefined && { instructions }), ...revisions };
  }

  /**
   * {@link EndpointCatalog.modernTool}: the tool for `kind` as its server offers it to 2026-07-28
   * clients, when that is another than {@link tool}'s (modern-surface.ts).
   */
  modernTool(kind: string): EndpointTool | undefined {
    for (const [source, surface] of this.#modern) {
      const contract = surface.contracts?.find((c) => c.kind === kind) as SchemaContract | undefined;
      if (!contract) continue;
      const legacy = this.#o.registry.get(kind);
      if (legacy && _shape(legacy) === _shape(contract)) return undefined;
      let check = this.#modernValidators.get(contract);
      if (!check) {
        check = compileArgumentValidator(contract.payload, this.#compiler);
        this.#modernValidators.set(contract, check);
      }
      const schemaCheck = check;
      const validate: EndpointTool['validate'] = (payload) => {
        const result = schemaCheck(payload);
        if (!result.ok) return result;
        const refused = this.checkArguments(kind, payload as Record<string, unknown>, true);
        return refused === undefined
          ? result
          : { ok: false, message: refused, errors: [{ path: '', message: refused }] };
      };
      return { contract, source, upstreamName: (contract.source as { mcp_tool: string }).mcp_tool, validate };
    }
    return undefined;
  }

  /** Whether some source offers 2026-07-28 clients other tools, or other definitions, than the catalog's. */
  #modernDiffers(): boolean {
    for (const [source, surface] of this.#modern) {
      const modern = surface.contracts;
      if (!modern) continue;
      const legacy = this.#o.registry.contractsOf(source).filter((c) => 'mcp_tool' in c.source);
      const shapes = new Set(legacy.map(_shape));
      if (modern.length !== legacy.length || modern.some((c) => !shapes.has(_shape(c)))) return true;
    }
    return false;
  }

  /**
   * The catalog 2026-07-28 callers are offered: each source's tools as its server lists them in
   * that revision (the catalog's contract where the definition is the same), its prompts and
   * resource templates as the catalog has them.
   */
  #modernCatalog(): SchemaContract[] {
    const modern = new Map<string, readonly ContractLike[]>();
    for (const [source, surface] of this.#modern)
      if (surface.contracts) modern.set(source, surface.contracts);
    const kept = this.#o.registry.contracts().filter((c) => {
      const source = this.#o.registry.origin(c.kind)?.source;
      return source === undefined || !modern.has(source) || !('mcp_tool' in c.source);
    });
    const added = [...modern.values()].flat().map((c) => {
      const legacy = this.#o.registry.get(c.kind);
      return legacy && _shape(legacy) === _shape(c) ? legacy : (c as SchemaContract);
    });
    return [...kept, ...added];
  }

  /** {@link EndpointCatalog.describe}: ranked matches for an `xp.schema.describe` query. */
  describe(query: unknown) {
    return this.#search.describe(query);
  }

  /**
   * Stops refreshing and closes every upstream session: calls in flight get up to `graceMs` to
   * finish, then the stdio children are ended.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    await Promise.allSettled([
      ...[...this.upstreams.values()].map((u) => u.close({ graceMs })),
      ...[...this.#modern.values()].map((m) => m.close(graceMs)),
    ]);
  }

  async #refreshWithRetry(source: McpSourceConfig, failures: number): Promise<void> {
    if (this.#stopped) return;
    let delayMs = source.schemaRefreshIntervalSeconds * 1000;
    try {
      await this.refresh(source);
      failures = 0;
      this.#warned.delete(source.name);
    } catch (error) {
      const status = this.#status.get(source.name)!;
      status.connected = false;
      status.error = (error as Error).message;
      if (isAuthorizationNeeded(error)) this.#waitingForAuthorization.add(source.name);
      // The first line says what happened; the lines after it (a child's stderr) end the message.
      const [head = '', ...stderr] = status.error.split('\n');
      const why = head.startsWith(`${source.name}: `) ? head.slice(source.name.length + 2) : head;
      const detail = stderr.map((line) => `\n${line}`).join('');
      if (error instanceof BridgeError && error.code === 'UPSTREAM_CANNOT_START') {
        // Not found, not executable, no such package: another attempt cannot help until the
        // config changes.
        status.retrying = false;
        this.#o.logger.error(
          { source: source.name },
          `MCP source "${source.name}" cannot start: ${why}; not retrying (fix mcp_sources "${source.name}".command and restart)${detail}`,
        );
        return;
      }
      delayMs = Math.min(60_000, 1000 * 2 ** Math.min(failures, 6));
      // One warning per reason: the same failure again is an info line (each still gives its delay).
      const repeated = this.#warned.get(source.name) === why;
      this.#warned.set(source.name, why);
      this.#o.logger[repeated ? 'info' : 'warn'](
        { source: source.name, retryInSeconds: delayMs / 1000, attempt: failures + 2 },
        `cannot reach MCP source "${source.name}": ${why}; retrying in ${delayMs / 1000} s (attempt ${failures + 2})${detail}`,
      );
      failures++;
    }
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      void this.#refreshWithRetry(source, failures);
    }, delayMs);
    timer.unref();
    this.#timers.push(timer);
  }
}

/** A URL fit for the announce: no credentials, no query (tokens hide there). */
function _publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(invalid url)';
  }
}

/**
 * A translate refusal in the log: a tool is a warning (it is unreachable over XProtocol); a prompt
 * or template only lacks a contract and is still served through xp.mcp.request (docs/protocol.md
 * §10.4), so nothing is lost and it is an info line (servers often name templates with spaces).
 */
function _logRefusal(
  logger: AdapterLogger,
  source: string,
  refusal: { tool: string; entry: Refusal['entry']; reason: string },
): void {
  if (refusal.entry === 'tool') {
    logger.warn({ source, tool: refusal.tool }, `not published: ${refusal.reason}`);
    return;
  }
  logger.info(
    { source, [refusal.entry]: refusal.tool },
    `no contract, still served through xp.mcp.request: ${refusal.reason}`,
  );
}

/** What a client sees of a tool's contract: two contracts of one shape are one definition. */
function _shape(contract: ContractLike): string {
  return JSON.stringify([contract.title, contract.description, contract.payload, contract.source]);
}
