/**
 * The face in gateway mode (`expose: [mcp_sources]`; docs/architecture.md, "The MCP gateway"):
 * wrapped MCP servers forwarded as they are. Each face server advertises what the upstreams offer
 * and forwards everything MCP carries to them — a 2025-11-25 session over links of its own, a
 * 2026-07-28 request over the links every such request shares, with leases for the calls of
 * servers that ask their client with requests. Aggregated prompts and resources are routed by one
 * table shared by every session.
 * @module
 */
import type { Server, ServerCapabilities } from '@modelcontextprotocol/server';
import { _LinkSet } from '../gateway/gateway-links.js';
import { _GatewayRoutes } from '../gateway/gateway-routes.js';
import { _GatewaySession, type _SourceCheck, type GatewayUpstream } from '../gateway/gateway-session.js';
import { _STATELESS_CLIENT } from '../gateway/gateway-stateless-client.js';
import { _Leases } from '../gateway/leases.js';
import type { BridgeLogger } from '../logger.js';
import type { McpFaceOptions } from './face-options.js';

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

  constructor(options: McpFaceOptions, logger: BridgeLogger) {
    this.#o = options;
    this.#logger = logger;
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
            },
          ]
        : [],
    );
  }

  /**
   * The upstreams' `instructions` (gateway passthrough): one upstream's as they are; several
   * upstreams' each under a `## <source>` heading, in configuration order.
   */
  instructions(): string | undefined {
    const given = (this.#o.localSources ?? []).flatMap((local) => {
      const text = local.gateway?.instructions?.();
      return text ? [{ name: local.name, text }] : [];
    });
    if (given.length === 0) return undefined;
    if (given.length === 1 && (this.#o.localSources ?? []).length === 1) return given[0]!.text;
    return given.map(({ name, text }) => `## ${name}\n\n${text}`).join('\n\n');
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
   * `check` lets (everything without one).
   */
  session(
    server: Server,
    upstreams: readonly GatewayUpstream[],
    capabilities: ServerCapabilities,
    options: { modern: boolean; check: _SourceCheck | undefined },
  ): _GatewaySession {
    const { modern, check } = options;
    const gateway = new _GatewaySession({
      server,
      upstreams,
      routes: this.routes(),
      check,
      clientInfo: this.#o.serverInfo,
      timeoutMs: this.#o.callTimeoutMs,
      logger: this.#logger,
      // A 2026-07-28 request has no session: it uses the links every such request shares.
      ...(modern && { shared: this.#statelessLinks(upstreams), leases: this.#leases() }),
    });
    gateway.install(capabilities);
    return gateway;
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
}
