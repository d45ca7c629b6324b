/**
 * Direction 2: the MCP face. Each configured XProtocol endpoint's catalog becomes MCP tools
 * (docs/design.md §3: namespace stripped, sanitized, prefixed, long or taken names hashed, every
 * name persisted so a refresh never renames a tool); a `tools/call` is sealed, sent through the
 * relays and answered with the endpoint's result.
 *
 * Errors follow the channel rule of docs/design.md §8: arguments that do not match the schema, and
 * an endpoint's `SCHEMA_VIOLATION`, come back as a tool result with `isError: true` (the model can
 * correct itself); every other XProtocol error is a JSON-RPC error with the code of docs/design.md
 * §8 and the XProtocol code in `error.data.xp_code`.
 * @module
 */
import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { PublicIdentity } from '@xprotocol/crypto';
import { McpToolTable } from '@xprotocol/registry';
import {
  type ContractLike,
  checkJsonLimits,
  DEFAULT_ARGUMENT_LIMITS,
  type JsonLimits,
  type JsonObject,
  type McpToolDefinition,
  SchemaCompiler,
  xpErrorToMcp,
} from '@xprotocol/translate';
import { xpError } from '@xprotocol/wire';
import type { XpCaller } from '../caller/xp-caller.js';
import { type _AcrossSession, _XpBackChannel } from '../caller/xp-mcp-back-channel.js';
import { _mcpError } from '../caller/xp-mcp-error.js';
import { SchemaSearch, toolSearchDocument } from '../discovery/schema-search.js';
import { _gatewayCapabilities } from '../gateway/gateway-capabilities.js';
import { _LinkSet } from '../gateway/gateway-links.js';
import { _GatewayRoutes } from '../gateway/gateway-routes.js';
import { _GatewaySession, type GatewayUpstream } from '../gateway/gateway-session.js';
import { _STATELESS_CLIENT } from '../gateway/gateway-stateless-client.js';
import { _Leases } from '../gateway/leases.js';
import { _modernRequest } from '../gateway/modern-request.js';
import { type BridgeLogger, silentLogger } from '../logger.js';
import { type ArgumentCheck, compileArgumentValidator } from '../policy/argument-validator.js';
import type { StateDatabase } from '../state/state-database.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';
import { _FaceRateLimits, type FaceRateLimited } from './rate-limit.js';
import { _XP_MCP_FACE_CAPABILITIES, _XpMcpFace } from './xp-mcp-face.js';

/** One `xprotocol_sources` entry: a key, or an `xp://` endpoint resolved through discovery. */
export interface XpToolSource {
  name: string;
  /** The endpoint's identity key (`ed25519:…`), when configured by key. */
  key?: string | undefined;
  /** `xp://host[:port]`, when configured by endpoint (needs {@link McpFaceOptions.discover}). */
  endpoint?: string | undefined;
  /** How the provenance note names the endpoint (`xp://host` or the key). */
  label: string;
  /** `mcp_tool_prefix`. */
  prefix: string;
  /** `schema_filter`: kinds to expose; empty exposes all. */
  schemaFilter: readonly string[];
}

/**
 * A wrapped MCP server exposed on the face as it is (gateway mode, `expose: [mcp_sources]`): its
 * published contracts, and a way to call its tools directly.
 */
export interface LocalToolSource {
  name: string;
  /** The adapter's own key (hashed into shortened names). */
  key: string;
  /** The source's published contracts (current at each refresh). */
  contracts: () => readonly ContractLike[];
  /** Calls the upstream tool behind `kind` (arguments already validated). */
  call: (kind: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** `rate_limit.requests_per_minute`: tool calls per MCP session of the face (none when absent). */
  requestsPerMinute?: number;
  /**
   * A check beyond the schema: why `args` are refused for the tool behind `kind`, or `undefined`
   * (a quarantined tool refuses arguments its pinned definition does not name; docs/security.md,
   * "Tool pinning"). Refused like a schema violation.
   */
  checkArguments?: (kind: string, args: Record<string, unknown>) => string | undefined;
  /**
   * Passthrough: how each MCP client of the face gets its own session with the server, and the
   * server's capabilities. With it the face forwards everything MCP carries (tools with progress,
   * logging, sampling, elicitation and roots; resources; prompts; completions; cancellation;
   * the server's JSON-RPC errors) instead of calling `call` (docs/architecture.md, "The MCP
   * gateway").
   */
  gateway?: {
    transport: UpstreamTransport;
    capabilities: () => ServerCapabilities | undefined;
    /** The server's own name of the tool behind `kind`. */
    toolName: (kind: string) => string | undefined;
    /**
     * The tool behind `kind` as the server listed it (icons, `_meta`, description as written):
     * listed under its face name instead of the catalog's definition, when given.
     */
    definition?: (kind: string) => Record<string, unknown> | undefined;
    /** The server's `instructions` from its `initialize`, passed on when the face has none of its own. */
    instructions?: () => string | undefined;
    /** The timeout of the server's tool `name`, in ms, when it has its own (`mcp_sources[].timeouts`). */
    toolTimeoutMs?: (name: string) => number | undefined;
  };
}

/** Options of {@link McpFace}. */
export interface McpFaceOptions {
  caller: XpCaller;
  state: StateDatabase;
  sources: readonly XpToolSource[];
  /** Wrapped MCP servers to list as they are (gateway mode). */
  localSources?: readonly LocalToolSource[];
  /** Timeout of one `tools/call` round trip, in ms. */
  callTimeoutMs: number;
  /** How long a catalog fetch (announce + pages) may take, in ms. Default 10000. */
  catalogTimeoutMs?: number;
  /**
   * Resolves an `xp://` endpoint to its key (and makes its relays reachable); required when a
   * source is configured by `endpoint`.
   */
  discover?: (endpoint: string) => Promise<{ key: string }>;
  /** SHA-256 for hashed tool names. */
  sha256: (data: Uint8Array) => Uint8Array;
  serverInfo: { name: string; version: string };
  /** Cross-tool guidance for `initialize` (its first 512 characters should stand alone). */
  instructions?: string;
  /**
   * Add the `search_tools` tool, which finds tools for a task without loading every schema
   * (docs/design.md §7). Default true; skipped (with a warning) when a real tool already has the
   * name.
   */
  searchTool?: boolean;
  /** Depth and size limits on `tools/call` arguments (docs/security.md). Default {@link DEFAULT_ARGUMENT_LIMITS}. */
  argumentLimits?: JsonLimits;
  logger?: BridgeLogger;
}

interface SourceState {
  /** The endpoint key: configured, or found through discovery. */
  key: string | undefined;
  keys: PublicIdentity | undefined;
  tools: number;
  error: string | undefined;
}

/** Options of {@link McpFace.createServer}. */
export interface FaceServerOptions {
  /**
   * `caller` leaves the rate limits to the caller (the HTTP face takes the tokens itself, per
   * HTTP session, to answer `429`); by default each server is one session here.
   */
  rateLimits?: 'caller';
  /**
   * `modern`: the server answers one 2026-07-28 request (no session; the client's capabilities
   * come with the request); `legacy` (default): one 2025-11-25 session.
   */
  era?: 'legacy' | 'modern';
  /** Which tools the client may see listed (OAuth grants); every tool when absent. */
  listed?: ((name: string) => boolean) | undefined;
}

/** An MCP server whose tools are XProtocol endpoints' schemas. */
export class McpFace {
  #server: Server | undefined;
  readonly #o: McpFaceOptions;
  readonly #logger: BridgeLogger;
  readonly #sources = new Map<string, SourceState>();
  readonly #table: McpToolTable;
  /** Compiled argument validators by tool name, with the contract they were compiled from. */
  readonly #validators = new Map<
    string,
    { contract: ContractLike; validate: (args: unknown) => ArgumentCheck }
  >();
  /** One compiler for every validator: a new one per tool cost 53 ms and 30 KiB (ajv's meta-schemas). */
  readonly #compiler = new SchemaCompiler();
  readonly #search = new SchemaSearch();
  /** Every live session's server: each is told when the tool list changes. */
  readonly #servers = new Set<Server>();
  #firstRefresh: Promise<void> | undefined;
  #listed = false;
  /** Routing of aggregated prompts and resources (gateway mode), shared by every session. */
  #routes: _GatewayRoutes | undefined;
  /** Resources, prompts and completions of the XProtocol sources (outside gateway mode). */
  #xpMcp: _XpMcpFace | undefined;
  /** The clients' MCP sessions across XProtocol (made with the first XProtocol request). */
  #backChannel: _XpBackChannel | undefined;
  /** Rate limits of the local sources, per face session (docs/security.md, "Rate limits"). */
  readonly #rateLimits: _FaceRateLimits;
  #sessions = 0;
  /** Told when a list changed (the 2026-07-28 leg's `subscriptions/listen` streams). */
  readonly #listsChanged = new Set<(list: 'tools' | 'prompts' | 'resources') => void>();
  /** The upstream links 2026-07-28 requests share (gateway mode), made on first use. */
  #sharedLinks: _LinkSet | undefined;
  /** Calls of 2026-07-28 clients on 2025 servers, waiting for the clients' input. */
  #leasedCalls: _Leases | undefined;

  constructor(options: McpFaceOptions) {
    this.#o = options;
    this.#logger = options.logger ?? silentLogger;
    // The state database is the name store: a refresh or a restart never renames a tool.
    this.#table = new McpToolTable({ sha256: options.sha256, nameStore: options.state });
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
    const target = this.#table.resolve(name);
    if (!target) return undefined;
    const auth = (target.contract as { auth?: { required_capability?: unknown } }).auth;
    return typeof auth?.required_capability === 'string' ? auth.required_capability : target.kind;
  }

  /**
   * Takes one token of the rate limit of the source behind tool `name` for face session `session`;
   * the refusal when the session is over it. Tools of XProtocol sources are not limited here (their
   * endpoint limits its callers).
   */
  takeRateLimit(session: string, name: string): FaceRateLimited | undefined {
    const target = this.#table.resolve(name);
    return target?.type === 'mcp' ? this.#rateLimits.take(session, target.source) : undefined;
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
    const upstreams = this.#gatewayUpstreams();
    // XProtocol sources bring their endpoints' resources, prompts and completions (docs/protocol.md
    // §10.4); a face in gateway mode forwards only its own upstreams' (docs/architecture.md).
    const xpMcp = upstreams.length === 0 && this.#o.sources.length > 0 ? this.#xpMcpFace() : undefined;
    const capabilities =
      upstreams.length > 0
        ? _gatewayCapabilities(upstreams.map((u) => u.capabilities()))
        : { tools: { listChanged: true }, ...(xpMcp && _XP_MCP_FACE_CAPABILITIES) };
    const instructions = this.#o.instructions ?? this.#gatewayInstructions();
    const server = new Server(this.#o.serverInfo, {
      capabilities,
      ...(instructions !== undefined && { instructions }),
      // 2026-07-28 clients may cache lists: the face tells them of changes on subscriptions/listen.
      ...(modern && { cacheHints: _cacheHints(options.listed !== undefined) }),
    });
    let gateway: _GatewaySession | undefined;
    if (upstreams.length > 0) {
      // Names of aggregated prompts and resources need a key: the gateway sources share the adapter's.
      this.#routes ??= new _GatewayRoutes(this.#o.localSources?.[0]?.key ?? '', this.#o.sha256);
      gateway = new _GatewaySession({
        server,
        upstreams,
        routes: this.#routes,
        clientInfo: this.#o.serverInfo,
        timeoutMs: this.#o.callTimeoutMs,
        logger: this.#logger,
        // A 2026-07-28 request has no session: it uses the links every such request shares.
        ...(modern && { shared: this.#statelessLinks(upstreams), leases: this.#leases() }),
      });
      gateway.install(capabilities);
    }
    xpMcp?.install(server);
    server.setRequestHandler('tools/list', async () => {
      await this.ready();
      this.#listed = true;
      // Definitions come from contractToMcpTool: inputSchema is always an object schema.
      const tools = this.tools();
      return {
        tools: options.listed ? tools.filter((tool) => options.listed?.(tool.name)) : tools,
      } as ListToolsResult;
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      await this.ready();
      if (options.rateLimits !== 'caller') {
        const limited = this.takeRateLimit(session, request.params.name);
        if (limited) throw new ProtocolError(limited.error.code, limited.error.message, limited.error.data);
      }
      // Results cross as the endpoint sent them; the SDK checks their shape on the way out.
      return (await this.#call(
        request.params.name,
        request.params.arguments ?? {},
        gateway && { session: gateway, params: request.params as Record<string, unknown>, ctx },
        { server, ctx },
      )) as CallToolResult;
    });
    this.#servers.add(server);
    server.onclose = () => {
      this.#servers.delete(server);
      void gateway?.close();
      this.#backChannel?.end(server);
    };
    return server;
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

  /**
   * The links every 2026-07-28 request of the face shares, one per upstream: such a client has no
   * session, and a 2026-07-28 server asks it for input in its results, never on the link.
   */
  #statelessLinks(upstreams: readonly GatewayUpstream[]): _LinkSet {
    this.#sharedLinks ??= new _LinkSet({
      shared: true,
      client: _STATELESS_CLIENT,
      transportOf: (source) => upstreams.find((u) => u.name === source)?.transport,
      clientInfo: this.#o.serverInfo,
      timeoutMs: this.#o.callTimeoutMs,
      logger: this.#logger,
    });
    return this.#sharedLinks;
  }

  /** The leases of 2026-07-28 calls on servers that ask with requests (gateway/leases.ts), made on first use. */
  #leases(): _Leases {
    this.#leasedCalls ??= new _Leases({ timeoutMs: this.#o.callTimeoutMs, logger: this.#logger });
    return this.#leasedCalls;
  }

  /** Ends the links and leases of 2026-07-28 requests (the face is closing). */
  async close(): Promise<void> {
    await Promise.allSettled([
      this.#sharedLinks?.close(),
      this.#leasedCalls?.close(),
      this.#backChannel?.close(),
    ]);
  }

  /** The face's resources, prompts and completions of XProtocol sources, shared by its sessions. */
  #xpMcpFace(): _XpMcpFace {
    this.#xpMcp ??= new _XpMcpFace({
      caller: this.#o.caller,
      sources: () =>
        this.#o.sources.map((source) => ({
          name: source.name,
          prefix: source.prefix,
          keys: this.#sources.get(source.name)?.keys,
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
      caller: this.#o.caller,
      logger: this.#logger,
      leaseTimeoutMs: this.#o.callTimeoutMs,
    });
    return this.#backChannel;
  }

  /**
   * The upstreams' `instructions` (gateway passthrough): one upstream's as they are; several
   * upstreams' each under a `## <source>` heading, in configuration order.
   */
  #gatewayInstructions(): string | undefined {
    const given = (this.#o.localSources ?? []).flatMap((local) => {
      const text = local.gateway?.instructions?.();
      return text ? [{ name: local.name, text }] : [];
    });
    if (given.length === 0) return undefined;
    if (given.length === 1 && (this.#o.localSources ?? []).length === 1) return given[0]!.text;
    return given.map(({ name, text }) => `## ${name}\n\n${text}`).join('\n\n');
  }

  /** The local sources forwarded as they are (gateway passthrough). */
  #gatewayUpstreams(): GatewayUpstream[] {
    return (this.#o.localSources ?? []).flatMap((local) =>
      local.gateway
        ? [
            {
              name: local.name,
              transport: local.gateway.transport,
              capabilities: local.gateway.capabilities,
              ...(local.gateway.toolTimeoutMs && { toolTimeoutMs: local.gateway.toolTimeoutMs }),
            },
          ]
        : [],
    );
  }

  /** Resolves once every source's catalog was fetched once (or failed); starts the fetch if needed. */
  ready(): Promise<void> {
    this.#firstRefresh ??= this.refresh();
    return this.#firstRefresh;
  }

  /** The tools currently listed. */
  tools(): McpToolDefinition[] {
    const tools = this.#table.list().map((tool) => this.#asListed(tool));
    return this.#searchEnabled() ? [...tools, _searchToolDefinition(tools.length)] : tools;
  }

  /** A gateway tool as its server listed it, under its face name; others as the catalog made them. */
  #asListed(tool: McpToolDefinition): McpToolDefinition {
    const target = this.#table.resolve(tool.name);
    if (target?.type !== 'mcp') return tool;
    const local = this.#o.localSources?.find((l) => l.name === target.source);
    const listed = local?.gateway?.definition?.(target.kind);
    return listed ? ({ ...listed, name: tool.name } as unknown as McpToolDefinition) : tool;
  }

  #searchEnabled(): boolean {
    return this.#o.searchTool !== false && this.#table.resolve(SEARCH_TOOL) === undefined;
  }

  /** Per-source status: tool count and the last error. */
  status(): { name: string; tools: number; error: string | undefined }[] {
    return this.#o.sources.map((source) => {
      const state = this.#sources.get(source.name);
      return { name: source.name, tools: state?.tools ?? 0, error: state?.error };
    });
  }

  /**
   * Fetches every source's catalog again and updates the tool list; sends `tools/list_changed`
   * when it changed after a client listed it. A source that fails keeps its previous tools.
   */
  async refresh(): Promise<void> {
    const timeout = this.#o.catalogTimeoutMs ?? 10_000;
    const updates = await Promise.all(
      this.#o.sources.map(async (source) => {
        const state = this.#sources.get(source.name) ?? {
          key: source.key,
          keys: undefined,
          tools: 0,
          error: undefined,
        };
        this.#sources.set(source.name, state);
        try {
          state.key ??= await this.#discover(source);
          state.keys ??= (await this.#o.caller.resolve(state.key, timeout)).keys;
          const contracts = await this.#o.caller.catalog(state.key, timeout);
          const update = await this.#table.setSource(
            {
              name: source.name,
              type: 'xprotocol',
              endpoint: source.label,
              endpointKey: state.key,
              prefix: source.prefix,
              schemaFilter: source.schemaFilter,
            },
            contracts as unknown as ContractLike[],
          );
          for (const { kind, reason } of update.refused) {
            this.#logger.warn({ source: source.name, kind }, `not exposed: ${reason}`);
          }
          state.tools = update.tools.length;
          state.error = undefined;
          return update.changed;
        } catch (error) {
          state.error = (error as Error).message;
          this.#logger.warn(
            { source: source.name, error: state.error },
            'cannot fetch the catalog of an XProtocol source',
          );
          return false;
        }
      }),
    );
    for (const local of this.#o.localSources ?? []) {
      const update = await this.#table.setSource(
        { name: local.name, type: 'mcp', endpoint: 'this adapter', endpointKey: local.key, prefix: '' },
        local.contracts(),
      );
      for (const { kind, reason } of update.refused)
        this.#logger.warn({ source: local.name, kind }, `not exposed: ${reason}`);
      if (update.changed) updates.push(true);
    }
    if (this.#o.searchTool !== false && this.#table.resolve(SEARCH_TOOL) !== undefined) {
      this.#logger.warn(
        { tool: SEARCH_TOOL },
        'a source has a tool named search_tools; the built-in search tool is not listed',
      );
    }
    this.#search.sync(
      this.#table.list().map((tool) => ({
        document: toolSearchDocument(tool.name, tool, this.#table.resolve(tool.name)?.source),
        fingerprint: JSON.stringify([tool.title, tool.description, tool.inputSchema]),
      })),
    );
    if (this.#listed && updates.some(Boolean)) {
      await Promise.allSettled([...this.#servers].map((server) => server.sendToolListChanged()));
    }
    if (updates.some(Boolean)) for (const listener of this.#listsChanged) listener('tools');
  }

  async #discover(source: XpToolSource): Promise<string> {
    if (!source.endpoint || !this.#o.discover) {
      throw new Error(
        `xprotocol source ${source.name} has neither a key nor an endpoint that can be discovered`,
      );
    }
    return (await this.#o.discover(source.endpoint)).key;
  }

  #validator(name: string, contract: ContractLike): (args: unknown) => ArgumentCheck {
    const cached = this.#validators.get(name);
    if (cached?.contract === contract) return cached.validate;
    const validate = compileArgumentValidator(contract.payload, this.#compiler);
    this.#validators.set(name, { contract, validate });
    return validate;
  }

  async #call(
    name: string,
    args: Record<string, unknown>,
    through?: { session: _GatewaySession; params: Record<string, unknown>; ctx: ServerContext },
    from?: { server: Server; ctx: ServerContext },
  ): Promise<Record<string, unknown>> {
    // Before anything walks the arguments recursively (validator, serializer, upstream transport).
    const limits = checkJsonLimits(args, this.#o.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS);
    if (!limits.ok) {
      throw new ProtocolError(-32602, limits.message, {
        xp_code: 'SCHEMA_VIOLATION',
        limit: limits.limit,
        max: limits.max,
        found: limits.found,
      });
    }
    if (name === SEARCH_TOOL && this.#searchEnabled()) return this.#searchTools(args);
    const target = this.#table.resolve(name) ?? (await this.#afterFailedFetch(name));
    if (!target) throw new ProtocolError(-32602, `Unknown tool: ${name}`);
    const check = this.#validator(name, target.contract)(args);
    if (!check.ok) {
      const face = xpErrorToMcp(
        xpError('SCHEMA_VIOLATION', check.message, {
          details: { errors: check.errors } as unknown as JsonObject,
        }),
      );
      if (face.channel === 'tool_result') return face.result as unknown as Record<string, unknown>;
    }
    if (target.type === 'mcp') {
      const local = this.#o.localSources?.find((l) => l.name === target.source);
      if (!local) throw new ProtocolError(-32603, `source ${target.source} is not running`);
      const refused = local.checkArguments?.(target.kind, args);
      if (refused !== undefined) {
        const face = xpErrorToMcp(xpError('SCHEMA_VIOLATION', refused));
        if (face.channel === 'tool_result') return face.result as unknown as Record<string, unknown>;
      }
      const toolName = local.gateway?.toolName(target.kind);
      if (through && toolName !== undefined) {
        // Passthrough: the client's own session with the server; its errors come back unchanged.
        return (await through.session.callTool(
          local.name,
          { ...through.params, name: toolName },
          through.ctx,
        )) as Record<string, unknown>;
      }
      try {
        return await local.call(target.kind, args);
      } catch (error) {
        throw new ProtocolError(-32603, (error as Error).message, { xp_code: 'UPSTREAM_ERROR' });
      }
    }
    const keys = this.#sources.get(target.source)?.keys;
    if (!keys) {
      throw new ProtocolError(-32603, `XProtocol endpoint unavailable: ${target.source}`, {
        xp_code: 'ENDPOINT_UNAVAILABLE',
      });
    }
    // The call runs in the client's MCP session at the endpoint: the server's progress, log
    // messages and requests (sampling, elicitation) come back to this client.
    const modern = from !== undefined && _modernRequest(from.ctx) !== undefined;
    const send = async (across?: _AcrossSession): Promise<Record<string, unknown>> => {
      const outcome = await this.#o.caller.call({
        to: keys,
        kind: target.kind,
        payload: args,
        timeoutMs: this.#o.callTimeoutMs,
        ...(across && { signal: across.signal }),
        ...(across?.mcp && { mcp: across.mcp.context, sent: across.mcp.sent }),
      });
      if (outcome.ok) return _asCallToolResult(outcome.payload, modern);
      // The server's own JSON-RPC error (from the client's session there) comes back as it was.
      if (outcome.error.details?.mcp_error !== undefined) throw _mcpError(outcome.error);
      const face = xpErrorToMcp(outcome.error);
      if (face.channel === 'tool_result') return face.result as unknown as Record<string, unknown>;
      throw new ProtocolError(face.error.code, face.error.message, face.error.data);
    };
    return from ? this.#sessionsAcross().request(from.server, from.ctx, keys, send) : send();
  }

  /**
   * A name unknown while some source's last catalog fetch failed (a relay that was not up yet, a
   * timeout under load) may be one of its tools: the catalogs are fetched once more before the
   * name is refused. With every source fetched, an unknown name is refused at once.
   */
  async #afterFailedFetch(name: string): Promise<ReturnType<McpToolTable['resolve']>> {
    if (![...this.#sources.values()].some((state) => state.error !== undefined)) return undefined;
    await this.refresh();
    return this.#table.resolve(name);
  }

  #searchTools(args: Record<string, unknown>): Record<string, unknown> {
    const { query, limit } = args;
    if (
      typeof query !== 'string' ||
      query.trim() === '' ||
      (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 50))
    ) {
      return {
        content: [
          { type: 'text', text: 'search_tools expects {"query": "<what you want to do>", "limit"?: 1..50}' },
        ],
        isError: true,
      };
    }
    const byName = new Map(this.#table.list().map((tool) => [tool.name, tool]));
    const matches = this.#search.search(query, (limit as number | undefined) ?? 5).map((hit) => ({
      name: hit.id,
      relevance: hit.score,
      description: _firstSentence(byName.get(hit.id)?.description ?? ''),
      use_when: hit.use_when,
    }));
    return {
      content: [{ type: 'text', text: JSON.stringify(matches, null, 2) }],
      structuredContent: { matches },
    };
  }
}

/** The built-in search tool's name. */
export const SEARCH_TOOL = 'search_tools';

function _searchToolDefinition(count: number): McpToolDefinition {
  return {
    name: SEARCH_TOOL,
    description: `Find the tools that fit a task among the ${count} tools here without reading every schema. Returns the best matches (name, what each is for, relevance); then call the chosen tool by name.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, in plain words' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          default: 5,
          description: 'Most matches to return',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
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

function _firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? text.slice(0, end + 1) : text;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}

/**
 * A native endpoint may answer with any JSON: wrap what is not a `CallToolResult` honestly. An
 * input-required result (a 2026-07-28 server's, for a 2026-07-28 client) goes on as it is.
 */
function _asCallToolResult(payload: unknown, modern = false): Record<string, unknown> {
  if (
    payload !== null &&
    typeof payload === 'object' &&
    (Array.isArray((payload as { content?: unknown }).content) ||
      (modern && (payload as { resultType?: unknown }).resultType === 'input_required'))
  ) {
    return payload as Record<string, unknown>;
  }
  const structured =
    payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? { structuredContent: payload }
      : {};
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], ...structured };
}
