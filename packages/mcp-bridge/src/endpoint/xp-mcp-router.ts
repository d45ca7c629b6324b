/**
 * Direction 1 for MCP without a tool shape: what the endpoint does with an `xp.mcp.request`
 * (docs/protocol.md §10.4). The request goes to the wrapped server it belongs to, chosen by the
 * rules of the MCP gateway (docs/architecture.md, "The MCP gateway"): lists walk the sources in
 * configuration order, one upstream page per answer, names made collision-free by the gateway's
 * name rule; a resource goes to the source that listed its URI (or whose template matches it), a
 * prompt to the source that listed its name, a completion to the source of the prompt or template
 * it refers to. With one source offering the capability, everything goes to it unchanged.
 *
 * Every source is guarded by its own capability (`<namespace>.mcp.resources.read`,
 * `<namespace>.mcp.prompts.get`, `<namespace>.mcp.completion`; deny by default): a list shows only
 * the sources the caller may use, and a refused request never reaches the server.
 * @module
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import type { XpEvent } from '@xprotocol/crypto';
import {
  type McpRequestMethod,
  type McpRequestPayload,
  mcpRequestCapability,
  type XpErrorDetails,
  type XpErrorPayload,
  xpError,
} from '@xprotocol/wire';
import { BridgeError } from '../errors.js';
import { _aggregatePage, _decodeCursor } from '../gateway/gateway-cursor.js';
import type { _GatewayRoutes } from '../gateway/gateway-routes.js';
import type { BridgeLogger } from '../logger.js';
import { type DescriptionLintMode, ListingScreen } from '../policy/listing-screen.js';
import { type _Authority, _authorityError } from './caller-authority.js';
import type { ToolProvider } from './tool-provider.js';
import type { _XpCallerSession } from './xp-mcp-caller-session.js';

/** A wrapped server as the router sees it: its `mcp_sources` name and XProtocol namespace. */
export interface _XpMcpSource {
  name: string;
  namespace: string;
  /** Whether its prompts and resources that description linting flags are withheld (default) or passed on. */
  descriptionLint?: DescriptionLintMode;
}

/** What one request needs from the endpoint. */
export interface _XpMcpContext {
  /** What the caller may do: its own grants, or the delegation chain it presented. */
  authority: _Authority;
  /** Longest one upstream request may take, in ms. */
  timeoutMs: number;
  /** Takes a token of `source`'s rate limit for the caller; an error payload refuses. */
  limit: (source: string) => XpErrorPayload | undefined;
  /**
   * Called once, right before the first upstream request made for the caller; the request waits
   * until it resolves (the endpoint's durable `started` record).
   */
  started: () => Promise<void>;
  /**
   * Opens (or finds) the caller's own MCP session (docs/protocol.md §10.5), when the request
   * carried one: called only once the request passed its checks; the request then runs there, and
   * subscriptions and the log level live there. An `xp.error` payload refuses (too many sessions).
   */
  session?: () => _XpCallerSession | XpErrorPayload;
  /** The request's event (with `session`). */
  event?: XpEvent;
  /** The caller's client asked for progress (with `session`). */
  progress?: boolean;
}

/** The router's verdict: the MCP result to send back, or an `xp.error` payload. */
export type _XpMcpOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: XpErrorPayload };

/** The MCP capability a method needs on the server, and the key of a list's entries. */
const _SERVER = {
  'resources/list': { capability: 'resources', key: 'resources' },
  'resources/templates/list': { capability: 'resources', key: 'resourceTemplates' },
  'resources/read': { capability: 'resources', key: undefined },
  'prompts/list': { capability: 'prompts', key: 'prompts' },
  'prompts/get': { capability: 'prompts', key: undefined },
  'completion/complete': { capability: 'completions', key: undefined },
  'resources/subscribe': { capability: 'resources', key: undefined },
  'resources/unsubscribe': { capability: 'resources', key: undefined },
  'logging/setLevel': { capability: 'logging', key: undefined },
} as const;

type _ListMethod = 'resources/list' | 'resources/templates/list' | 'prompts/list';

/** The most pages one walk reads from one upstream while learning where an entry lives. */
const _MAX_PAGES = 1000;

/** A refusal on the way: becomes the `xp.error` answer. */
class _Refusal extends Error {
  constructor(readonly payload: XpErrorPayload) {
    super(payload.message);
  }
}

/** Routes `xp.mcp.request`s to the wrapped servers. */
export class _XpMcpRouter {
  readonly #sources: readonly _XpMcpSource[];
  readonly #upstreams: ReadonlyMap<string, ToolProvider>;
  readonly #routes: _GatewayRoutes;
  /** Description linting of each source's listings (docs/security.md, "Tool pinning"), by name. */
  readonly #screens: ReadonlyMap<string, ListingScreen>;

  constructor(options: {
    sources: readonly _XpMcpSource[];
    upstreams: ReadonlyMap<string, ToolProvider>;
    routes: _GatewayRoutes;
    logger: BridgeLogger;
  }) {
    this.#sources = options.sources;
    this.#upstreams = options.upstreams;
    this.#routes = options.routes;
    this.#screens = new Map(
      options.sources.map((s) => [
        s.name,
        new ListingScreen({ source: s.name, mode: s.descriptionLint, logger: options.logger }),
      ]),
    );
  }

  /** Answers one request (never throws). */
  async handle(request: McpRequestPayload, ctx: _XpMcpContext): Promise<_XpMcpOutcome> {
    try {
      const params = _withoutProgress(request.params);
      switch (request.method) {
        case 'resources/list':
        case 'resources/templates/list':
        case 'prompts/list':
          return { ok: true, result: await this.#list(request.method, params, ctx) };
        case 'resources/read':
        case 'resources/subscribe':
        case 'resources/unsubscribe': {
          const source = await this.#resourceOwner(String(params?.uri ?? ''), ctx);
          return { ok: true, result: await this.#forward(source, request.method, params, ctx) };
        }
        case 'logging/setLevel':
          return { ok: true, result: await this.#setLevel(params, ctx) };
        case 'prompts/get': {
          const target = await this.#prompt(String(params?.name ?? ''), ctx);
          return {
            ok: true,
            result: await this.#forward(target.source, request.method, { ...params, name: target.name }, ctx),
          };
        }
        case 'completion/complete':
          return { ok: true, result: await this.#complete(params, ctx) };
      }
    } catch (error) {
      if (error instanceof _Refusal) return { ok: false, error: error.payload };
      return { ok: false, error: _upstreamError(error) };
    }
  }

  /** The sources whose server offers what `method` needs, in configuration order. */
  #offering(method: McpRequestMethod): _XpMcpSource[] {
    const capability = _SERVER[method].capability;
    return this.#sources.filter(
      (s) => this.#upstreams.get(s.name)?.serverCapabilities?.[capability] !== undefined,
    );
  }

  /** The offering sources the caller holds the capability for; refuses when there are none. */
  #granted(method: McpRequestMethod, authority: _Authority): _XpMcpSource[] {
    const offering = this.#offering(method);
    const granted = offering.filter((s) => authority(mcpRequestCapability(s.namespace, method)).ok);
    if (granted.length === 0 && offering.length > 0) this.#authorize(offering[0]!, method, authority);
    return granted;
  }

  /** Refuses (AUTHORIZATION_INSUFFICIENT, or REVOKED under a revoked chain) unless the caller may use `method` of `source`. */
  #authorize(source: _XpMcpSource, method: McpRequestMethod, authority: _Authority): void {
    const required = mcpRequestCapability(source.namespace, method);
    const verdict = authority(required);
    if (!verdict.ok) throw new _Refusal(_authorityError(required, verdict));
  }

  /** Checks the caller's grant and rate limit on `source`, then sends the request upstream. */
  async #forward(
    source: string,
    method: McpRequestMethod,
    params: Record<string, unknown> | undefined,
    ctx: _XpMcpContext,
  ): Promise<Record<string, unknown>> {
    const entry = this.#sources.find((s) => s.name === source);
    const upstream = this.#upstreams.get(source);
    if (!entry || !upstream) throw new _Refusal(xpError('NOT_FOUND', `source ${source} is not running`));
    this.#authorize(entry, method, ctx.authority);
    const limited = ctx.limit(source);
    if (limited) throw new _Refusal(limited);
    const session = this.#openSession(ctx);
    await ctx.started();
    if (session && ctx.event) {
      return session.request(source, method, params, {
        event: ctx.event,
        timeoutMs: ctx.timeoutMs,
        progress: ctx.progress === true,
        shared: upstream,
      });
    }
    return upstream.request(method, params, { timeoutMs: ctx.timeoutMs });
  }

  /**
   * `logging/setLevel`: the level of the caller's session, set on every server offering logging
   * that the caller may hear from, and given to the links the session opens later.
   */
  async #setLevel(
    params: Record<string, unknown> | undefined,
    ctx: _XpMcpContext,
  ): Promise<Record<string, unknown>> {
    const sources = this.#granted('logging/setLevel', ctx.authority);
    if (sources.length === 0) throw new _Refusal(_noServer('logging'));
    const session = this.#openSession(ctx);
    if (session) session.links.level = String(params?.level);
    for (const source of sources) await this.#forward(source.name, 'logging/setLevel', params, ctx);
    return {};
  }

  /** The caller's session, opened now (its grant was checked); refuses when the endpoint is full. */
  #openSession(ctx: _XpMcpContext): _XpCallerSession | undefined {
    const session = ctx.session?.();
    if (session === undefined || !('code' in session)) return session;
    throw new _Refusal(session);
  }

  /** One page of an aggregated list: one upstream page of a source the caller may use. */
  async #list(
    method: _ListMethod,
    params: Record<string, unknown> | undefined,
    ctx: _XpMcpContext,
  ): Promise<Record<string, unknown>> {
    const { key, capability } = _SERVER[method];
    const sources = this.#granted(method, ctx.authority);
    // #granted refuses a caller holding none of the offering servers; no sources left means none
    // offers the feature: "method not found", as from one MCP server without it, never a listing.
    if (sources.length === 0) throw new _Refusal(_noServer(capability));
    let position: ReturnType<typeof _decodeCursor>;
    try {
      position = _decodeCursor(params?.cursor as string | undefined, sources.length);
    } catch (error) {
      const message = (error as Error).message;
      throw new _Refusal(xpError('SCHEMA_VIOLATION', message, { details: _mcpDetails(-32602, message) }));
    }
    const source = sources[position.index]!;
    const { cursor: _given, ...rest } = params ?? {};
    const page = this.#admitted(
      method,
      source.name,
      await this.#forward(
        source.name,
        method,
        { ...rest, ...(position.cursor !== undefined && { cursor: position.cursor }) },
        ctx,
      ),
    );
    return _aggregatePage(page, key, position.index, sources.length, (item) =>
      this.#routes.noteListed(method, source.name, item),
    );
  }

  /** `page` of `source`'s `method` listing without the entries description linting withholds. */
  #admitted(method: _ListMethod, source: string, page: Record<string, unknown>): Record<string, unknown> {
    const screen = this.#screens.get(source);
    const key = _SERVER[method].key;
    const entries = page[key];
    if (!screen || !Array.isArray(entries)) return page;
    return {
      ...page,
      [key]: entries.filter((entry: Record<string, unknown>) => screen.admits(method, entry)),
    };
  }

  /** Reads every listing of `method` (the adapter's own requests), so the routes know every entry. */
  async #learn(method: _ListMethod, ctx: _XpMcpContext): Promise<void> {
    const key = _SERVER[method].key;
    for (const source of this.#offering(method)) {
      const upstream = this.#upstreams.get(source.name);
      if (!upstream) continue;
      let cursor: string | undefined;
      for (let page = 0; page < _MAX_PAGES; page++) {
        const result = this.#admitted(
          method,
          source.name,
          await upstream.request(method, cursor === undefined ? undefined : { cursor }, {
            timeoutMs: ctx.timeoutMs,
          }),
        );
        for (const item of Array.isArray(result[key]) ? (result[key] as Record<string, unknown>[]) : [])
          this.#routes.noteListed(method, source.name, item);
        cursor =
          typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (cursor === undefined) break;
      }
    }
  }

  /** The source serving the resource `uri`. */
  async #resourceOwner(uri: string, ctx: _XpMcpContext): Promise<string> {
    const sources = this.#offering('resources/read');
    if (sources.length === 0) throw new _Refusal(_noServer('resources'));
    if (sources.length === 1) return sources[0]!.name;
    const known = this.#routes.resourceOwner(uri);
    if (known !== undefined) return known;
    await this.#learn('resources/list', ctx);
    await this.#learn('resources/templates/list', ctx);
    // Unknown to every listing: the first source answers (its own not-found error, most often).
    return this.#routes.resourceOwner(uri) ?? sources[0]!.name;
  }

  /** The source and upstream name behind the aggregated prompt `name`. */
  async #prompt(name: string, ctx: _XpMcpContext): Promise<{ source: string; name: string }> {
    const known = this.#routes.prompts.resolve(name);
    if (known) return known;
    const sources = this.#offering('prompts/get');
    if (sources.length === 0) throw new _Refusal(_noServer('prompts'));
    // One source: an unknown name goes to it as it is, so the caller gets the server's own answer.
    if (sources.length === 1) return { source: sources[0]!.name, name };
    await this.#learn('prompts/list', ctx);
    const learnt = this.#routes.prompts.resolve(name);
    if (learnt) return learnt;
    const message = `Unknown prompt: ${name}`;
    throw new _Refusal(xpError('NOT_FOUND', message, { details: _mcpDetails(-32602, message) }));
  }

  /** `completion/complete`, routed by the prompt or resource template it completes. */
  async #complete(
    params: Record<string, unknown> | undefined,
    ctx: _XpMcpContext,
  ): Promise<Record<string, unknown>> {
    const sources = this.#offering('completion/complete').map((s) => s.name);
    if (sources.length === 0) throw new _Refusal(_noServer('completions'));
    const ref = (params?.ref ?? {}) as Record<string, unknown>;
    let source: string | undefined;
    let forwarded = params;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      let target = this.#routes.prompts.resolve(ref.name);
      if (!target && sources.length > 1) {
        await this.#learn('prompts/list', ctx);
        target = this.#routes.prompts.resolve(ref.name);
      }
      if (target) {
        source = target.source;
        forwarded = { ...params, ref: { ...ref, name: target.name } };
      }
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string' && sources.length > 1) {
      source = this.#routes.templateOwner(ref.uri) ?? this.#routes.resourceOwner(ref.uri);
      if (source === undefined) {
        await this.#learn('resources/templates/list', ctx);
        source = this.#routes.templateOwner(ref.uri);
      }
    }
    const target = source !== undefined && sources.includes(source) ? source : sources[0]!;
    return this.#forward(target, 'completion/complete', forwarded, ctx);
  }
}

/** `params` without a progress token: progress does not cross XProtocol yet (docs/protocol.md §10.4). */
function _withoutProgress(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (!meta || !('progressToken' in meta)) return params;
  const { progressToken: _token, ...restMeta } = meta;
  const { _meta: _old, ...rest } = params ?? {};
  return Object.keys(restMeta).length > 0 ? { ...rest, _meta: restMeta } : rest;
}

/** `details` carrying an MCP JSON-RPC error for the caller's client. */
function _mcpDetails(code: number, message: string, data?: unknown): XpErrorDetails {
  const error: XpErrorDetails = { code, message };
  if (data !== undefined) error.data = data as XpErrorDetails;
  return { mcp_error: error };
}

/** No wrapped server offers `capability`: the MCP "method not found". */
function _noServer(capability: string): XpErrorPayload {
  const message = `Method not found: no MCP server here offers ${capability}`;
  return xpError('NOT_FOUND', message, { details: _mcpDetails(-32601, message) });
}

/**
 * A failed upstream request as an `xp.error`: the server's JSON-RPC error is kept whole in
 * `details.mcp_error` (code, message, data); a timeout is `TIMEOUT`; the rest `UPSTREAM_ERROR`.
 */
export function _upstreamError(error: unknown): XpErrorPayload {
  const cause = error instanceof BridgeError ? error.cause : error;
  if (ProtocolError.isInstance(cause)) {
    const protocol = cause as ProtocolError;
    // A link's own failure (the server not reached, or no answer in time), not the server's error.
    const xpCode = (protocol.data as { xp_code?: unknown } | undefined)?.xp_code;
    if (protocol.code === -32603 && xpCode === 'TIMEOUT') return xpError('TIMEOUT', protocol.message);
    if (protocol.code === -32603 && xpCode === 'UPSTREAM_UNAVAILABLE')
      return xpError('UPSTREAM_ERROR', protocol.message);
    return xpError('UPSTREAM_ERROR', protocol.message, {
      details: _mcpDetails(protocol.code, protocol.message, protocol.data),
    });
  }
  if (error instanceof BridgeError && error.code === 'UPSTREAM_TIMEOUT')
    return xpError('TIMEOUT', error.message);
  return xpError('UPSTREAM_ERROR', (error as Error).message);
}
