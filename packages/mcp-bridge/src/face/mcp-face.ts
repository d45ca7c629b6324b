/**
 * Direction 2: the MCP face. Each configured XProtocol endpoint's catalog becomes MCP tools
 * (face-catalog.ts); a `tools/call` is sealed, sent through the relays and answered with the
 * endpoint's result (tool-calls.ts). In gateway mode wrapped MCP servers are forwarded as they
 * are (face-gateway.ts). `McpFace` makes the SDK servers that speak for the face — one per MCP
 * session or 2026-07-28 request — and tells them when the tool list changes. Each server shows
 * and serves its client only what the transport says it may use (request-scopes.ts).
 * @module
 */
import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import type { McpToolDefinition } from '@xprotocol/translate';
import { _XpBackChannel } from '../caller/xp-mcp-back-channel.js';
import { _gatewayCapabilities } from '../gateway/gateway-capabilities.js';
import { _GatewayRoutes } from '../gateway/gateway-routes.js';
import type { _GatewaySession } from '../gateway/gateway-session.js';
import { _DEFAULT_MAX_LEASES } from '../gateway/leases.js';
import { _fairShare, _PrincipalCaps } from '../gateway/principal-caps.js';
import { type BridgeLogger, silentLogger } from '../logger.js';
import { _FaceCatalog } from './face-catalog.js';
import { _FaceGateway } from './face-gateway.js';
import { _instructionsAtInitialize } from './face-initialize.js';
import { composeFaceInstructions, ENDPOINT_INSTRUCTIONS_LIMIT } from './face-instructions.js';
import { _errorVerdict, _observedCall, _traceIdOf } from './face-observe.js';
import { _callerOf, type FaceServerOptions, type McpFaceOptions } from './face-options.js';
import { _faceCallSpan, _traced } from './face-trace.js';
import { _IdempotentCalls, DEFAULT_IDEMPOTENCY_WINDOW_SECONDS } from './idempotent-calls.js';
import { _listing, RECENT_TOOLS } from './listing-modes.js';
import { _FaceRateLimits, type FaceRateLimited } from './rate-limit.js';
import {
  _needsSource,
  type _ScopeSources,
  _sourceCheck,
  _sourceRequestNeeds,
  type FaceRequestNeeds,
} from './request-scopes.js';
import { _pagingArguments, _summarizeResult, DEFAULT_RESULT_SUMMARY_BYTES } from './result-summary.js';
import { SEARCH_TOOL } from './search-tool.js';
import { _FaceToolCalls } from './tool-calls.js';
import { _authorizeWaiting } from './url-authorization.js';
import { _XP_MCP_FACE_CAPABILITIES, _XpMcpFace } from './xp-mcp-face.js';

/** An MCP server whose tools are XProtocol endpoints' schemas. */
export class McpFace {
  #server: Server | undefined;
  readonly #o: McpFaceOptions;
  readonly #logger: BridgeLogger;
  /** The tool table and the sources' catalogs. */
  readonly #catalog: _FaceCatalog;
  readonly #calls: _FaceToolCalls;
  /** Keyed calls answered from their record (idempotent-calls.ts); undefined when off. */
  readonly #idempotent: _IdempotentCalls | undefined;
  /** What the servers share in gateway mode. */
  readonly #gateway: _FaceGateway;
  /** Every live session's server: each is told when the tool list changes. */
  readonly #servers = new Set<Server>();
  #listed = false;
  /** Resources, prompts and completions of the XProtocol sources (outside gateway mode). */
  #xpMcp: _XpMcpFace | undefined;
  /** The clients' MCP sessions across XProtocol (made with the first XProtocol request). */
  #backChannel: _XpBackChannel | undefined;
  /** Rate limits of the local sources, per principal (docs/security.md, "Rate limits"). */
  readonly #rateLimits: _FaceRateLimits;
  #sessions = 0;
  /** The principal each live server answers (for its share of the leases across XProtocol). */
  readonly #principals = new WeakMap<Server, string | undefined>();
  /** Leases of 2026-07-28 calls by principal: the gateway's and those across XProtocol together. */
  readonly #leaseCaps: _PrincipalCaps;
  /** Told when a list changed (the 2026-07-28 leg's `subscriptions/listen` streams). */
  readonly #listsChanged = new Set<(list: 'tools' | 'prompts' | 'resources') => void>();

  constructor(options: McpFaceOptions) {
    if (options.sources.length > 0 && !options.caller) {
      throw new TypeError(
        `McpFace: XProtocol sources (${options.sources.map((s) => s.name).join(', ')}) need a caller`,
      );
    }
    this.#o = options;
    this.#logger = options.logger ?? silentLogger;
    this.#catalog = new _FaceCatalog(options, this.#logger, () => this.#toolsChanged());
    this.#calls = new _FaceToolCalls({
      options,
      catalog: this.#catalog,
      sessionsAcross: () => this.#sessionsAcross(),
    });
    const window = options.idempotencyWindowSeconds ?? DEFAULT_IDEMPOTENCY_WINDOW_SECONDS;
    this.#idempotent = window > 0 ? new _IdempotentCalls(options.state, window) : undefined;
    const maxLeases = options.limits?.maxLeases ?? _DEFAULT_MAX_LEASES;
    this.#leaseCaps = new _PrincipalCaps({
      total: maxLeases,
      perPrincipal: options.limits?.maxLeasesPerPrincipal ?? _fairShare(maxLeases),
    });
    this.#gateway = new _FaceGateway(options, this.#logger, this.#leaseCaps);
    this.#rateLimits = new _FaceRateLimits(
      new Map(
        (options.localSources ?? []).flatMap((local) =>
          local.requestsPerMinute === undefined ? [] : [[local.name, local.requestsPerMinute] as const],
        ),
      ),
    );
  }

  /**
   * The capability a call of the face tool `name` needs (its contract's `auth.required_capability`,
   * else its kind), for the HTTP face's OAuth scopes; undefined for an unknown tool or `search_tools`.
   */
  requiredCapability(name: string): string | undefined {
    return this.#catalog.requiredCapability(name);
  }

  /**
   * What the request `method` with `params` needs, for the HTTP face's OAuth scopes (see
   * {@link FaceRequestNeeds}): a `tools/call`, its tool's capability; a resource, prompt,
   * completion or log level, `<namespace>.mcp.…` of each source it may go to, as far as the face
   * can tell before running it (its servers check again once they chose the source); nothing for
   * a listing, `search_tools`, an unknown tool or any other method. Waits for the sources'
   * catalogs the first time (they name the tools and the XProtocol endpoints' namespaces).
   */
  async requestNeeds(method: string, params: Record<string, unknown> | undefined): Promise<FaceRequestNeeds> {
    if (method === 'tools/call') {
      if (typeof params?.name !== 'string') return [];
      await this.ready();
      const capability = this.requiredCapability(params.name);
      return capability === undefined ? [] : [[capability]];
    }
    if (!_needsSource(method)) return [];
    await this.ready();
    return _sourceRequestNeeds(method, params, this.#scopeSources());
  }

  /**
   * Takes one token of the rate limit of the source behind tool `name` for `principal` (the HTTP
   * face's principal, or a stdio face's one client); the refusal when it is over it. Tools of
   * XProtocol sources are not limited here (their endpoint limits its callers).
   */
  takeRateLimit(principal: string, name: string): FaceRateLimited | undefined {
    const target = this.#catalog.resolve(name);
    const limited = target?.type === 'mcp' ? this.#rateLimits.take(principal, target.source) : undefined;
    if (limited && this.#o.observer) {
      this.#o.observer.callEnded({
        path: 'face',
        source: target?.source,
        tool: name,
        caller: principal === '' ? undefined : principal,
        latencyMs: 0,
        ..._errorVerdict(limited.error),
      });
    }
    return limited;
  }

  /**
   * The first session's server, made on first use (stdio serves exactly one client); made late
   * so that in gateway mode it advertises what the upstreams offer once they are connected.
   */
  get server(): Server {
    this.#server ??= this.createServer();
    return this.#server;
  }

  /**
   * A new SDK `Server` speaking for this face: one per 2025-11-25 MCP session (each Streamable
   * HTTP client gets its own) or per 2026-07-28 request, all sharing the face's tools, names,
   * search index and caller. `server` is the first one (stdio serves exactly one client). Closed
   * servers are forgotten. In gateway mode each one advertises what the upstreams offer now and
   * forwards to them: a session over links of its own, a 2026-07-28 request over shared links.
   */
  createServer(options: FaceServerOptions = {}): Server {
    const modern = options.era === 'modern';
    const session = `face-session-${++this.#sessions}`;
    const upstreams = this.#gateway.upstreams();
    // XProtocol sources bring their endpoints' resources, prompts and completions (docs/protocol.md
    // §10.4); a face in gateway mode forwards only its own upstreams' (docs/architecture.md).
    const xpMcp = upstreams.length === 0 && this.#o.sources.length > 0 ? this.#xpMcpFace() : undefined;
    const capabilities: ServerCapabilities =
      upstreams.length > 0
        ? _gatewayCapabilities(upstreams.map((u) => u.capabilities()))
        : { tools: { listChanged: true }, ...(xpMcp && _XP_MCP_FACE_CAPABILITIES) };
    const instructions = this.#o.instructions;
    const server = new Server(this.#o.serverInfo, {
      capabilities,
      ...(instructions !== undefined && { instructions }),
      // 2026-07-28 clients may cache lists: the face tells them of changes on subscriptions/listen.
      ...(modern && { cacheHints: _cacheHints(options.mayUse !== undefined) }),
    });
    // Composed when asked for: XProtocol sources' guidance comes with their catalogs.
    if (instructions === undefined) {
      _instructionsAtInitialize(server, modern, async () => {
        await this.ready();
        return this.instructions();
      });
    }
    const check = _sourceCheck(options.mayUse, (source) => this.#namespaces(source));
    this.#principals.set(server, options.principal);
    const gateway =
      upstreams.length > 0
        ? this.#gateway.session(server, upstreams, capabilities, {
            modern,
            check,
            principal: options.principal,
          })
        : undefined;
    xpMcp?.install(server, check);
    this.#installTools(server, options, session, gateway);
    this.#servers.add(server);
    server.onclose = () => {
      this.#servers.delete(server);
      void gateway?.close();
      this.#backChannel?.end(server);
    };
    return server;
  }

  /** Answers `tools/list` and `tools/call` on `server`, the face session `session`. */
  #installTools(
    server: Server,
    options: FaceServerOptions,
    session: string,
    gateway: _GatewaySession | undefined,
  ): void {
    const { mayUse } = options;
    /** The tools this session called lately, oldest first (a `search` listing shows them). */
    const recent: string[] = [];
    server.setRequestHandler('tools/list', async (_request, ctx) => {
      await this.ready();
      // A source waiting for a person's authorization asks this client, when it can open a URL.
      if (await _authorizeWaiting(this.#o.localSources ?? [], server, ctx)) await this.refresh();
      this.#listed = true;
      // Definitions come from contractToMcpTool: inputSchema is always an object schema.
      const tools = this.#catalog.tools(
        mayUse && this.#catalog.visibleTo((c) => mayUse(c, ctx)),
        options.era === 'modern',
      );
      const builtIn = (name: string) => this.#catalog.resolve(name) === undefined;
      return {
        tools: _listing(tools, this.#o.listing ?? 'full', new Set(recent), builtIn),
      } as ListToolsResult;
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      await this.ready();
      if (options.rateLimits !== 'caller') {
        const limited = this.takeRateLimit(session, request.params.name);
        if (limited) throw new ProtocolError(limited.error.code, limited.error.message, limited.error.data);
      }
      // Results cross as the endpoint sent them; the SDK checks their shape on the way out.
      const { name, arguments: args = {} } = request.params;
      const grew = _noteRecent(recent, name, this.#catalog.resolve(name) !== undefined);
      // A `search` listing now shows one more tool: a 2025-11-25 session hears it at once.
      if (grew && this.#o.listing === 'search' && options.era !== 'modern') {
        void server.sendToolListChanged().catch(() => undefined);
      }
      const span = this.#o.tracer && _faceCallSpan(this.#o.tracer, name, request.params, ctx);
      const call = () =>
        this.#calls.call(
          name,
          args,
          gateway && { session: gateway, params: request.params as Record<string, unknown>, ctx },
          {
            server,
            ctx,
            ...(mayUse && { mayUse: (capability: string) => mayUse(capability, ctx) }),
            ...(span && { span }),
          },
        );
      const once = () => this.#once(name, args, request.params, options.principal, call);
      const run = span ? () => _traced(span, once) : once;
      const observer = this.#o.observer;
      if (!observer) return this.#bounded(name, await run()) as CallToolResult;
      return this.#bounded(
        name,
        await _observedCall(
          observer,
          {
            caller: options.principal,
            arguments: args,
            traceId: span?.traceparent ?? _traceIdOf(request.params),
            target: () => this.#labelsOf(name),
          },
          run,
        ),
      ) as CallToolResult;
    });
  }

  /** `result` with its `content[]` text within the face's bound (result-summary.ts). */
  #bounded(name: string, result: unknown): unknown {
    const bound = this.#o.resultSummaryBytes ?? DEFAULT_RESULT_SUMMARY_BYTES;
    if (bound <= 0 || result === null || typeof result !== 'object') return result;
    const paging = () => _pagingArguments(this.#catalog.tools().find((t) => t.name === name)?.inputSchema);
    return _summarizeResult(result as Record<string, unknown>, bound, paging);
  }

  /**
   * `call`, or its recorded result when `params` name an idempotency key already used by
   * `principal` (idempotent-calls.ts); `call` itself without a key or with idempotency off.
   */
  async #once(
    name: string,
    args: Record<string, unknown>,
    params: { _meta?: unknown },
    principal: string | undefined,
    call: () => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    const key = this.#idempotent && _IdempotentCalls.keyOf(params);
    if (key === undefined || !this.#idempotent) return call();
    const version = (this.#catalog.resolve(name)?.contract as { version?: unknown } | undefined)?.version;
    return this.#idempotent.run(
      {
        principal,
        key,
        tool: name,
        contractVersion: typeof version === 'string' ? version : undefined,
        args,
      },
      call,
    );
  }

  /** The source and tool a call of `name` is counted under: only what the catalog knows. */
  #labelsOf(name: string): { source: string | undefined; tool: string | undefined } {
    if (name === SEARCH_TOOL) return { source: undefined, tool: name };
    const target = this.#catalog.resolve(name);
    return target ? { source: target.source, tool: name } : { source: undefined, tool: undefined };
  }

  /**
   * The `instructions` the face gives at `initialize` now (face-instructions.ts): its summary,
   * then the guidance of its XProtocol sources (from their catalogs) and of its wrapped servers,
   * in configuration order; the `instructions` option instead, when set.
   */
  instructions(): string {
    if (this.#o.instructions !== undefined) return this.#o.instructions;
    return composeFaceInstructions({
      sources: [
        ...this.#o.sources.map((source) => ({
          name: source.name,
          prefix: source.prefix,
          // The operator's guidance, when configured, in place of the catalog's (empty: none).
          text: source.instructions ?? this.#catalog.instructions(source.name),
          // An endpoint's guidance may be several wrapped servers' sections.
          limit: ENDPOINT_INSTRUCTIONS_LIMIT,
        })),
        ...this.#gateway.instructionSources(),
      ],
      searchTool: this.#catalog.searchEnabled(),
      describeTool: this.#catalog.describeEnabled(),
    });
  }

  /** The MCP sessions (and 2026-07-28 requests) the face is serving now. */
  liveSessions(): number {
    return this.#servers.size;
  }

  /**
   * Calls `listener` each time a list of the face changes: the tool list (after the clients that
   * listed it were told), or an upstream's prompt or resource list (gateway mode; see
   * {@link listChanged}).
   */
  onListChanged(listener: (list: 'tools' | 'prompts' | 'resources') => void): void {
    this.#listsChanged.add(listener);
  }

  /**
   * An upstream said its prompt or resource list changed (gateway mode): the clients without a
   * session of their own there (2026-07-28 ones, on `subscriptions/listen`) are told; a 2025
   * client hears it on its own link.
   */
  listChanged(list: 'prompts' | 'resources'): void {
    for (const listener of this.#listsChanged) listener(list);
  }

  /** The tool list changed: the clients that listed it are told (`tools/list_changed`), then the listeners. */
  async #toolsChanged(): Promise<void> {
    if (this.#listed) {
      await Promise.allSettled([...this.#servers].map((server) => server.sendToolListChanged()));
    }
    for (const listener of this.#listsChanged) listener('tools');
  }

  /** Ends the links and leases of 2026-07-28 requests (the face is closing). */
  async close(): Promise<void> {
    await Promise.allSettled([this.#gateway.close(), this.#backChannel?.close()]);
  }

  /**
   * The sources of the face's resources, prompts, completions and logging, for the scope rule:
   * the upstreams in gateway mode, else the XProtocol sources whose endpoint is known.
   */
  #scopeSources(): _ScopeSources {
    const upstreams = this.#gateway.upstreams();
    if (upstreams.length > 0) {
      return {
        offering: (capability) =>
          upstreams.filter((u) => u.capabilities()?.[capability] !== undefined).map((u) => u.name),
        namespaces: (source) => this.#namespaces(source),
        routes: () => this.#gateway.routes(),
      };
    }
    return {
      offering: () =>
        this.#o.sources.filter((s) => this.#catalog.keys(s.name) !== undefined).map((s) => s.name),
      namespaces: (source) => this.#namespaces(source),
      routes: () => this.#xpMcp?.routes,
    };
  }

  /** The namespaces the capabilities of source `source` are named under (unique across sources). */
  #namespaces(source: string): readonly string[] {
    const local = this.#o.localSources?.find((l) => l.name === source);
    if (!local) return this.#catalog.namespaces(source);
    const namespace = local.namespace ?? local.contracts()[0]?.source?.namespace;
    return namespace === undefined ? [] : [namespace];
  }

  /** The face's resources, prompts and completions of XProtocol sources, shared by its sessions. */
  #xpMcpFace(): _XpMcpFace {
    this.#xpMcp ??= new _XpMcpFace({
      caller: _callerOf(this.#o),
      sources: () =>
        this.#o.sources.map((source) => ({
          name: source.name,
          prefix: source.prefix,
          keys: this.#catalog.keys(source.name),
        })),
      ready: () => this.ready(),
      routes: new _GatewayRoutes(this.#o.sources[0]?.label ?? '', this.#o.sha256),
      timeoutMs: this.#o.callTimeoutMs,
      backChannel: this.#sessionsAcross(),
    });
    return this.#xpMcp;
  }

  /** The clients' MCP sessions across XProtocol (docs/protocol.md §10.5), shared by the face's sessions. */
  #sessionsAcross(): _XpBackChannel {
    this.#backChannel ??= new _XpBackChannel({
      caller: _callerOf(this.#o),
      logger: this.#logger,
      leaseTimeoutMs: this.#o.callTimeoutMs,
      leaseCaps: this.#leaseCaps,
      principalOf: (server) => this.#principals.get(server),
    });
    return this.#backChannel;
  }

  /** Resolves once every source's catalog was fetched once (or failed); starts the fetch if needed. */
  ready(): Promise<void> {
    return this.#catalog.ready();
  }

  /** The tools currently listed (`modern`: to 2026-07-28 clients; default 2025-11-25). */
  tools(modern = false): McpToolDefinition[] {
    return this.#catalog.tools(undefined, modern);
  }

  /** Per-source status: tool count and the last error. */
  status(): { name: string; tools: number; error: string | undefined }[] {
    return this.#catalog.status();
  }

  /**
   * Fetches every source's catalog again and updates the tool list; sends `tools/list_changed`
   * when it changed after a client listed it. A source that fails keeps its previous tools.
   */
  refresh(): Promise<void> {
    return this.#catalog.refresh();
  }
}

/**
 * Notes a call of `name` (a real tool when `known`) among the session's `recent` tools, most
 * recent last; true when the name was not among them (the set grew).
 */
function _noteRecent(recent: string[], name: string, known: boolean): boolean {
  if (!known) return false;
  const at = recent.indexOf(name);
  if (at >= 0) recent.splice(at, 1);
  recent.push(name);
  if (recent.length > RECENT_TOOLS) recent.shift();
  // Only a name that was not there changes what a `search` listing shows.
  return at < 0;
}

/**
 * The cache hints of a 2026-07-28 server: lists may be kept a short while (a change is announced
 * on `subscriptions/listen`); a listing filtered by the caller's grants is private to it; a read
 * resource is never kept.
 */
function _cacheHints(filtered: boolean): Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }> {
  const list = { ttlMs: 10_000, cacheScope: filtered ? 'private' : 'public' } as const;
  return {
    'tools/list': list,
    'prompts/list': list,
    'resources/list': list,
    'resources/templates/list': list,
    'server/discover': list,
    'resources/read': { ttlMs: 0, cacheScope: 'private' },
  };
}
