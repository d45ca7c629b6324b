/**
 * The face in gateway mode (`expose: [mcp_sources]`; docs/architecture.md, "The MCP gateway"):
 * wrapped MCP servers forwarded as they are. Each face server advertises what the upstreams offer
 * and forwards everything MCP carries to them — a 2025-11-25 session over links of its own, a
 * 2026-07-28 request over the links every such request shares, with leases for the calls of
 * servers that ask their client with requests. Aggregated prompts and resources are routed by one
 * table shared by every session.
 * @module
 */
import { ProtocolError, type Server, type ServerCapabilities } from '@modelcontextprotocol/server';
import { _LinkSet } from '../gateway/gateway-links.js';
import { _GatewayRoutes } from '../gateway/gateway-routes.js';
import { _GatewaySession, type _SourceCheck, type GatewayUpstream } from '../gateway/gateway-session.js';
import { _STATELESS_CLIENT, _statelessTransport } from '../gateway/gateway-stateless-client.js';
import { _Leases } from '../gateway/leases.js';
import { _capMessage, _fairShare, _PrincipalCaps } from '../gateway/principal-caps.js';
import type { BridgeLogger } from '../logger.js';
import { ListingScreen } from '../policy/listing-screen.js';
import type { InstructionSource } from './face-instructions.js';
import type { LocalToolSource, McpFaceOptions } from './face-options.js';

/** Upstream processes per stdio source that clients may hold at once, by default. */
const _MAX_UPSTREAM_PROCESSES = 32;
/** When a client refused an upstream process is told to try again, in s. */
const _RETRY_AFTER_S = 5;

/** What the face's servers share in gateway mode: routes, the 2026-07-28 links and leases. */
export class _FaceGateway {
  readonly #o: McpFaceOptions;
  readonly #logger: BridgeLogger;
  /** Routing of aggregated prompts and resources, shared by every session. */
  #routes: _GatewayRoutes | undefined;
  /** The upstream links 2026-07-28 requests share, made on first use. */
  #sharedLinks: _LinkSet | undefined;
  /** Calls of 2026-07-28 clients on 2025 servers, waiting for the clients' input. */
  #leasedCalls: _Leases | undefined;
  /** The face's leases, by principal (shared with the leases across XProtocol). */
  readonly #leaseCaps: _PrincipalCaps;
  /** The upstream processes clients hold, by stdio source, then by principal. */
  readonly #processes = new Map<string, _PrincipalCaps>();
  /** Description linting of each local source's instructions and listings, by source name. */
  readonly #screens = new Map<string, ListingScreen>();

  constructor(options: McpFaceOptions, logger: BridgeLogger, leaseCaps: _PrincipalCaps) {
    this.#o = options;
    this.#logger = logger;
    this.#leaseCaps = leaseCaps;
  }

  /** The local sources forwarded as they are (gateway passthrough); none outside gateway mode. */
  upstreams(): GatewayUpstream[] {
    return (this.#o.localSources ?? []).flatMap((local) =>
      local.gateway
        ? [
            {
              name: local.name,
              transport: local.gateway.transport,
              capabilities: local.gateway.capabilities,
              ...(local.gateway.toolTimeoutMs && { toolTimeoutMs: local.gateway.toolTimeoutMs }),
              admits: (method, entry) => this.#screen(local).admits(method, entry),
            },
          ]
        : [],
    );
  }

  /**
   * The local sources' guidance for the face's instructions, in configuration order: the
   * operator's `instructions` when configured, else the server's own from its `initialize`, left
   * out when description linting flags it (unless the source says `description_lint: warn`).
   */
  instructionSources(): InstructionSource[] {
    return (this.#o.localSources ?? []).map((local) => ({
      name: local.name,
      prefix: '',
      text: local.instructions ?? this.#screen(local).instructions(local.gateway?.instructions?.()),
    }));
  }

  /** Routing of aggregated prompts and resources, shared by every session. */
  routes(): _GatewayRoutes {
    // Names of aggregated prompts and resources need a key: the gateway sources share the adapter's.
    this.#routes ??= new _GatewayRoutes(this.#o.localSources?.[0]?.key ?? '', this.#o.sha256);
    return this.#routes;
  }

  /**
   * Makes `server` forward to `upstreams` with `capabilities`: over links of its own, or for a
   * 2026-07-28 request (`modern`, no session) over the shared ones; its client may use what
   * `check` lets (everything without one), and its links count against `principal`'s share of
   * upstream processes.
   */
  session(
    server: Server,
    upstreams: readonly GatewayUpstream[],
    capabilities: ServerCapabilities,
    options: { modern: boolean; check: _SourceCheck | undefined; principal: string | undefined },
  ): _GatewaySession {
    const { modern, check, principal } = options;
    const gateway = new _GatewaySession({
      server,
      upstreams,
      routes: this.routes(),
      check,
      clientInfo: this.#o.serverInfo,
      timeoutMs: this.#o.callTimeoutMs,
      logger: this.#logger,
      principal,
      admitProcess: (source, holder) => this.#admitProcess(source, holder),
      // A 2026-07-28 request has no session: it uses the links every such request shares.
      ...(modern && { shared: this.#statelessLinks(upstreams), leases: this.#leases() }),
    });
    gateway.install(capabilities);
    return gateway;
  }

  /** The description lint of `local`'s instructions and listings. */
  #screen(local: LocalToolSource): ListingScreen {
    let screen = this.#screens.get(local.name);
    if (!screen) {
      screen = new ListingScreen({ source: local.name, mode: local.descriptionLint, logger: this.#logger });
      this.#screens.set(local.name, screen);
    }
    return screen;
  }

  /** Ends the links and leases of 2026-07-28 requests (the face is closing). */
  async close(): Promise<void> {
    await Promise.allSettled([this.#sharedLinks?.close(), this.#leasedCalls?.close()]);
  }

  /**
   * The links every 2026-07-28 request of the face shares, one per upstream: such a client has no
   * session, and a 2026-07-28 server asks it for input in its results, never on the link.
   */
  #statelessLinks(upstreams: readonly GatewayUpstream[]): _LinkSet {
    this.#sharedLinks ??= new _LinkSet({
      shared: true,
      client: _STATELESS_CLIENT,
      // A server that speaks both revisions gives these requests its 2026-07-28 behaviour.
      transportOf: (source) => _statelessTransport(upstreams.find((u) => u.name === source)?.transport),
      clientInfo: this.#o.serverInfo,
      timeoutMs: this.#o.callTimeoutMs,
      logger: this.#logger,
    });
    return this.#sharedLinks;
  }

  /** The leases of 2026-07-28 calls on servers that ask with requests (gateway/leases.ts), made on first use. */
  #leases(): _Leases {
    this.#leasedCalls ??= new _Leases({
      timeoutMs: this.#o.callTimeoutMs,
      logger: this.#logger,
      caps: this.#leaseCaps,
    });
    return this.#leasedCalls;
  }

  /**
   * Takes one of `source`'s upstream processes for `principal` (a client's link or lease is about
   * to start one); how to give it back. Over its share, or the ceiling, the request that needed
   * it is refused (-32600 `RATE_LIMITED`): a principal's sessions never take another's processes.
   */
  #admitProcess(source: string, principal: string | undefined): () => void {
    let caps = this.#processes.get(source);
    if (!caps) {
      const total = this.#o.limits?.maxUpstreamProcesses ?? _MAX_UPSTREAM_PROCESSES;
      caps = new _PrincipalCaps({
        total,
        perPrincipal: this.#o.limits?.maxUpstreamProcessesPerPrincipal ?? _fairShare(total),
      });
      this.#processes.set(source, caps);
    }
    const refusal = caps.take(principal);
    if (refusal) {
      const message = _capMessage(
        refusal,
        `upstream processes of ${source}`,
        {
          perPrincipal: 'mcp_server.max_upstream_processes_per_principal',
          total: 'mcp_server.max_upstream_processes',
        },
        `end an MCP session you no longer use (each runs its own), or retry in ${_RETRY_AFTER_S} s`,
      );
      this.#logger.warn({ source }, `refused an upstream process: ${message}`);
      throw new ProtocolError(-32600, message, { xp_code: 'RATE_LIMITED', retry_after: _RETRY_AFTER_S });
    }
    const held = caps;
    return () => held.give(principal);
  }
}
