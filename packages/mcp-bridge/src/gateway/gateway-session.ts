/**
 * The gateway side of one face session (one MCP client): its links to the upstream servers
 * (opened when the client first needs each one, closed when the client goes), and the face
 * handlers that forward resources, prompts, completions and logging to them. Tool calls come
 * through {@link _GatewaySession.callTool} (the face resolves the tool name first).
 *
 * When the client goes away with requests still running, those requests are aborted, which
 * sends each upstream `notifications/cancelled`, before the links close. With a source check (the
 * face's OAuth scopes), a listing walks only the upstreams the client may use, and a request goes
 * to its upstream only once the check let it.
 * @module
 */
import {
  ProtocolError,
  type Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { BridgeLogger } from '../logger.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';
import { _aggregatePage, _decodeCursor } from './gateway-cursor.js';
import { _contextRequest, _GatewayLink, type _LinkRequest, _serverClient } from './gateway-link.js';
import { _LinkSet, _processShare } from './gateway-links.js';
import type { _GatewayRoutes } from './gateway-routes.js';
import { _statelessTransport } from './gateway-stateless-client.js';
import { type _Leases, _leasedRequest } from './leases.js';
import { _modernRequest } from './modern-request.js';

/** An upstream MCP server the face forwards to (gateway mode, `expose: [mcp_sources]`). */
export interface GatewayUpstream {
  /** The `mcp_sources` name. */
  name: string;
  /** How each client's own session reaches the server. */
  transport: UpstreamTransport;
  /** The server's capabilities (from the adapter's own session), or undefined while unknown. */
  capabilities: () => ServerCapabilities | undefined;
  /** The timeout of the server's tool `name`, in ms, when it has its own; else the session's. */
  toolTimeoutMs?: (name: string) => number | undefined;
  /**
   * False for a prompt, resource or template the client must not see (description linting,
   * docs/security.md "Tool pinning"): it is left out of the list and of the routes. Default: all.
   */
  admits?: (method: GatewayListMethod, entry: Readonly<Record<string, unknown>>) => boolean;
}

/**
 * Why the client of the request `ctx` may not send `method` to the upstream `source` (the error to
 * answer with), or nothing when it may.
 */
export type _SourceCheck = (source: string, method: string, ctx: ServerContext) => Error | undefined;

/** Options of {@link _GatewaySession}. */
export interface _GatewaySessionOptions {
  server: Server;
  upstreams: readonly GatewayUpstream[];
  routes: _GatewayRoutes;
  clientInfo: { name: string; version: string };
  /** Timeout of each forwarded request, in ms (restarted by progress). */
  timeoutMs: number;
  logger: BridgeLogger;
  /**
   * Links shared with other face servers, used instead of links of this session's own (a
   * 2026-07-28 request has no session). Left open by {@link _GatewaySession.close}. Requests are
   * then forwarded in that revision: the client's `_meta` envelope, `inputResponses` and
   * `requestState` as they came, an input-required result back as it is.
   */
  shared?: _LinkSet;
  /**
   * With `shared`: the calls of a 2026-07-28 client that may need its input, on a 2025 server,
   * run on leases of their own (leases.ts).
   */
  leases?: _Leases;
  /** What the session's client may use, per request; everything when absent. */
  check?: _SourceCheck | undefined;
  /**
   * Whose client this is, for its share of the face's leases and upstream processes (`undefined`:
   * the face's one principal, held to the face's ceilings only).
   */
  principal?: string | undefined;
  /**
   * Takes a share of `source`'s upstream processes for `principal`, for a link that starts one;
   * throws the refusal when none is left (see `_LinkSetOptions.admitProcess`).
   */
  admitProcess?: (source: string, principal: string | undefined) => () => void;
}

type _Capability = 'resources' | 'prompts' | 'completions' | 'logging';
type _Params = Record<string, unknown> | undefined;

/** Lists the face walks across upstreams, with what each entry is named and noted by. */
const _LISTS = {
  'prompts/list': { capability: 'prompts', key: 'prompts' },
  'resources/list': { capability: 'resources', key: 'resources' },
  'resources/templates/list': { capability: 'resources', key: 'resourceTemplates' },
} as const;
/** A list the gateway aggregates across upstreams. */
export type GatewayListMethod = keyof typeof _LISTS;
type _ListMethod = GatewayListMethod;

/** The most pages one walk reads from one upstream (a cursor that never ends is refused). */
const _MAX_PAGES = 1000;

/** One MCP client's gateway: its upstream links and the face handlers that use them. */
export class _GatewaySession {
  readonly #o: _GatewaySessionOptions;
  readonly #links: _LinkSet;
  #closed = false;

  constructor(options: _GatewaySessionOptions) {
    this.#o = options;
    this.#links =
      options.shared ??
      new _LinkSet({
        client: _serverClient(options.server),
        transportOf: (source) => options.upstreams.find((u) => u.name === source)?.transport,
        clientInfo: options.clientInfo,
        timeoutMs: options.timeoutMs,
        logger: options.logger,
        // A session is a 2025-11-25 client's: 2026-07-28 clients share their links (`shared`).
        legacyClient: true,
        ...(options.admitProcess && {
          admitProcess: (source: string) => options.admitProcess!(source, options.principal),
        }),
      });
  }

  /** Registers the face handlers for what `capabilities` (the face's own) offers. */
  install(capabilities: ServerCapabilities): void {
    const server = this.#o.server;
    const on = (method: string, handler: (params: _Params, ctx: ServerContext) => Promise<unknown>) =>
      server.setRequestHandler(
        method as never,
        ((request: { params?: _Params }, ctx: ServerContext) => handler(request.params, ctx)) as never,
      );
    if (capabilities.resources) {
      on('resources/list', (params, ctx) => this.#list('resources/list', params, ctx));
      on('resources/templates/list', (params, ctx) => this.#list('resources/templates/list', params, ctx));
      for (const method of ['resources/read', 'resources/subscribe', 'resources/unsubscribe']) {
        on(method, async (params, ctx) => {
          const source = await this.#resourceOwner(String(params?.uri ?? ''), ctx);
          this.#authorize(source, method, ctx);
          return this.#send(source, method, params, ctx);
        });
      }
    }
    if (capabilities.prompts) {
      on('prompts/list', (params, ctx) => this.#list('prompts/list', params, ctx));
      on('prompts/get', async (params, ctx) => {
        const target = await this.#prompt(String(params?.name ?? ''), ctx);
        this.#authorize(target.source, 'prompts/get', ctx);
        return this.#send(target.source, 'prompts/get', { ...params, name: target.name }, ctx);
      });
    }
    if (capabilities.completions) {
      on('completion/complete', (params, ctx) => this.#complete(params, ctx));
    }
    // 2026-07-28 has no logging/setLevel: a request asks for log messages in its own `_meta`.
    if (capabilities.logging && !this.#o.shared) {
      on('logging/setLevel', async (params, ctx) => {
        const sources = this.#permitted(this.#offering('logging'), 'logging/setLevel', ctx);
        this.#links.level = String(params?.level);
        await Promise.all(
          sources.map(async (source) =>
            (await this.#link(source)).request('logging/setLevel', params, this.#forward(ctx)),
          ),
        );
        return {};
      });
    }
    server.setNotificationHandler('notifications/roots/list_changed', async () =>
      this.#links.notifyAll('notifications/roots/list_changed'),
    );
  }

  /** Calls a tool of `source` with the face request's `params` (`name` already the upstream's). */
  async callTool(source: string, params: Record<string, unknown>, ctx: ServerContext): Promise<unknown> {
    const own = this.#o.upstreams.find((u) => u.name === source)?.toolTimeoutMs?.(String(params.name));
    return this.#send(source, 'tools/call', params, ctx, own);
  }

  /**
   * Why this client's link to `source` cannot open (the server's own reason, or the connect
   * timeout), or undefined once it opens: what a call of a tool no source lists says about a
   * source that lists none and whose reason is not known otherwise.
   */
  async linkFailure(source: string): Promise<string | undefined> {
    try {
      await this.#link(source);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /**
   * Forwards a request that a server may answer with questions for the client (`tools/call`,
   * `prompts/get`, `resources/read`): on the session's link, or for a 2026-07-28 client of a
   * 2025 server that could be asked something, on a lease of its own.
   */
  async #send(
    source: string,
    method: string,
    params: _Params,
    ctx: ServerContext,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>> {
    if (this.#o.leases && (await this.#leased(source, ctx))) {
      const transport = this.#o.upstreams.find((u) => u.name === source)?.transport;
      if (!transport) throw new ProtocolError(-32603, `no upstream MCP server named ${source}`);
      // The lease's own link to the server, with the lease as its client.
      const { admitProcess, principal } = this.#o;
      return this.#o.leases.run(
        async (client, request) => {
          const onEnd = _processShare(
            admitProcess && ((name) => admitProcess(name, principal)),
            source,
            transport,
          );
          const link = await _GatewayLink
            .open({
              source,
              transport,
              face: client,
              clientInfo: this.#o.clientInfo,
              timeoutMs: this.#o.timeoutMs,
              logger: this.#o.logger,
              ...(onEnd && { onEnd }),
            })
            .catch((error: unknown) => {
              onEnd?.();
              throw error;
            });
          const result = link.request(method, params, {
            ...request,
            ...(timeoutMs !== undefined && { timeoutMs }),
          });
          return { result, close: () => link.close() };
        },
        ctx,
        { request: _leasedRequest(method, source, params), principal },
      );
    }
    const link = await this.#link(source);
    return link.request(method, this.#params(params, ctx, link), {
      ...this.#forward(ctx),
      ...(timeoutMs !== undefined && { timeoutMs }),
    });
  }

  /**
   * True when a 2026-07-28 request to `source` needs a lease: the server speaks 2025 (it asks with
   * requests of its own) and the client declared something it could be asked, or the request
   * answers a lease's questions.
   */
  async #leased(source: string, ctx: ServerContext): Promise<boolean> {
    if (await this.#speaksModern(source)) return false;
    if (this.#o.leases?.resumes(ctx)) return true;
    const declared = _modernRequest(ctx)?.capabilities ?? {};
    return (
      declared.sampling !== undefined || declared.elicitation !== undefined || declared.roots !== undefined
    );
  }

  /**
   * Ends every link. Called when the client's session ends: the face first aborts the client's
   * requests still running (each sends its upstream `notifications/cancelled`), then the links close.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#o.shared) return;
    // The SDK aborts the session's running requests right after it reports the close.
    await new Promise((resolve) => setImmediate(resolve));
    await this.#links.close();
  }

  /** A face request as the link forwards it; a 2026-07-28 client gets input-required results as they are. */
  #forward(ctx: ServerContext): _LinkRequest {
    return { ..._contextRequest(ctx), ...(this.#o.shared && { returnInputRequired: true }) };
  }

  /**
   * The params a 2026-07-28 request is forwarded with: what the SDK lifted off it before the
   * handler ran, put back as the client sent it (its `_meta` envelope: revision, client
   * capabilities and info, log level; and a retry's `inputResponses` and `requestState`, which the
   * server that minted the state checks). Only on a 2026-07-28 link: a link speaks its own
   * revision, and on a 2025 link the envelope's revision would become the request's
   * `MCP-Protocol-Version` header, which such a server refuses.
   */
  #params(params: _Params, ctx: ServerContext, link: _GatewayLink): _Params {
    const request = this.#o.shared && _modernRequest(ctx);
    if (!request || link.revision === undefined) return params;
    return {
      ...params,
      _meta: { ...request.envelope, ...(params?._meta as Record<string, unknown> | undefined) },
      ...(request.responses && { inputResponses: request.responses }),
      ...(request.state !== undefined && { requestState: request.state }),
    };
  }

  /**
   * True when the shared link to `source` speaks 2026-07-28: configured (or found by the adapter's
   * own `auto`), or found when the link opened and asked; a server the link will not ask is not
   * opened a link for.
   */
  async #speaksModern(source: string): Promise<boolean> {
    const transport = this.#o.upstreams.find((u) => u.name === source)?.transport;
    const revision = _statelessTransport(transport)?.revision;
    if (revision === undefined) return false;
    return revision === '2026-07-28' || (await this.#link(source)).revision !== undefined;
  }

  /** The upstreams offering `capability`, in configuration order. */
  #offering(capability: _Capability): string[] {
    return this.#o.upstreams.filter((u) => u.capabilities()?.[capability] !== undefined).map((u) => u.name);
  }

  /**
   * The upstreams of `offering` the client of `ctx` may send `method` to; when it may use none of
   * them, the refusal of the first.
   */
  #permitted(offering: readonly string[], method: string, ctx: ServerContext): string[] {
    const check = this.#o.check;
    if (!check) return [...offering];
    const permitted = offering.filter((source) => check(source, method, ctx) === undefined);
    if (permitted.length === 0 && offering.length > 0) this.#authorize(offering[0]!, method, ctx);
    return permitted;
  }

  /** Throws the refusal when the client of `ctx` may not send `method` to `source`. */
  #authorize(source: string, method: string, ctx: ServerContext): void {
    const refusal = this.#o.check?.(source, method, ctx);
    if (refusal) throw refusal;
  }

  /** This client's link to `source`. */
  #link(source: string): Promise<_GatewayLink> {
    return this.#links.get(source);
  }

  /** One face page of an aggregated list: one upstream page, renamed and noted for routing. */
  async #list(method: _ListMethod, params: _Params, ctx: ServerContext): Promise<Record<string, unknown>> {
    const { capability, key } = _LISTS[method];
    // A client lists only what it may use: an upstream it may not is skipped, not refused.
    const sources = this.#offering(capability).filter(
      (source) => this.#o.check?.(source, method, ctx) === undefined,
    );
    if (sources.length === 0) return { [key]: [] };
    const position = _decodeCursor(params?.cursor as string | undefined, sources.length);
    const source = sources[position.index]!;
    const { cursor: _faceCursor, ...rest } = params ?? {};
    const link = await this.#link(source);
    const page = this.#admitted(
      method,
      source,
      await link.request(
        method,
        this.#params(
          { ...rest, ...(position.cursor !== undefined && { cursor: position.cursor }) },
          ctx,
          link,
        ),
        this.#forward(ctx),
      ),
    );
    return _aggregatePage(page, key, position.index, sources.length, (item) =>
      this.#o.routes.noteListed(method, source, item),
    );
  }

  /** `page` of `source`'s `method` listing without the entries the client must not see. */
  #admitted(method: _ListMethod, source: string, page: Record<string, unknown>): Record<string, unknown> {
    const admits = this.#o.upstreams.find((u) => u.name === source)?.admits;
    const { key } = _LISTS[method];
    const entries = page[key];
    if (!admits || !Array.isArray(entries)) return page;
    return { ...page, [key]: entries.filter((entry: Record<string, unknown>) => admits(method, entry)) };
  }

  /** Reads every page of `method` from every upstream, so the routes know every entry. */
  async #learn(method: _ListMethod, ctx: ServerContext): Promise<void> {
    const { capability, key } = _LISTS[method];
    for (const source of this.#offering(capability)) {
      const link = await this.#link(source);
      let cursor: string | undefined;
      for (let page = 0; page < _MAX_PAGES; page++) {
        const result = this.#admitted(
          method,
          source,
          await link.request(
            method,
            this.#params(cursor === undefined ? {} : { cursor }, ctx, link),
            this.#forward(ctx),
          ),
        );
        for (const item of Array.isArray(result[key]) ? (result[key] as Record<string, unknown>[]) : [])
          this.#o.routes.noteListed(method, source, item);
        cursor =
          typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (cursor === undefined) break;
      }
    }
  }

  /** The upstream and upstream name behind the face prompt `name`. */
  async #prompt(name: string, ctx: ServerContext): Promise<{ source: string; name: string }> {
    const known = this.#o.routes.prompts.resolve(name);
    if (known) return known;
    const sources = this.#offering('prompts');
    // One upstream: an unknown name goes to it as it is, so the client gets the server's own answer.
    if (sources.length === 1) return { source: sources[0]!, name };
    await this.#learn('prompts/list', ctx);
    const learnt = this.#o.routes.prompts.resolve(name);
    if (learnt) return learnt;
    throw new ProtocolError(-32602, `Unknown prompt: ${name}`);
  }

  /** The upstream serving the resource `uri` (listed there, or matching one of its templates). */
  async #resourceOwner(uri: string, ctx: ServerContext): Promise<string> {
    const routes = this.#o.routes;
    const sources = this.#offering('resources');
    if (sources.length === 0)
      throw new ProtocolError(-32601, 'Method not found: no upstream offers resources');
    if (sources.length === 1) return sources[0]!;
    const known = routes.resourceOwner(uri);
    if (known !== undefined) return known;
    await this.#learn('resources/list', ctx);
    await this.#learn('resources/templates/list', ctx);
    // Unknown to every listing: the first upstream answers (its own not-found error, most often).
    return routes.resourceOwner(uri) ?? sources[0]!;
  }

  /** `completion/complete`, routed by the prompt or resource template it completes. */
  async #complete(params: _Params, ctx: ServerContext): Promise<unknown> {
    const sources = this.#offering('completions');
    if (sources.length === 0)
      throw new ProtocolError(-32601, 'Method not found: no upstream offers completions');
    const ref = (params?.ref ?? {}) as Record<string, unknown>;
    let source: string | undefined;
    let forwarded = params;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      let target = this.#o.routes.prompts.resolve(ref.name);
      if (!target && sources.length > 1) {
        await this.#learn('prompts/list', ctx);
        target = this.#o.routes.prompts.resolve(ref.name);
      }
      if (target) {
        source = target.source;
        forwarded = { ...params, ref: { ...ref, name: target.name } };
      }
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string' && sources.length > 1) {
      source = this.#o.routes.templateOwner(ref.uri) ?? this.#o.routes.resourceOwner(ref.uri);
      if (source === undefined) {
        await this.#learn('resources/templates/list', ctx);
        source = this.#o.routes.templateOwner(ref.uri);
      }
    }
    const target = source !== undefined && sources.includes(source) ? source : sources[0]!;
    this.#authorize(target, 'completion/complete', ctx);
    const link = await this.#link(target);
    return link.request('completion/complete', this.#params(forwarded, ctx, link), this.#forward(ctx));
  }
}
