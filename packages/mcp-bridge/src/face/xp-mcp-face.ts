/**
 * Direction 2 for MCP without a tool shape: the face lists the resources, resource templates and
 * prompts of its `xprotocol_sources` and reads, gets and completes through them, each request an
 * `xp.mcp.request` sealed to the endpoint and answered by `xp.mcp.request.result`
 * (docs/protocol.md §10.4).
 *
 * Names follow the tools: each source's `mcp_tool_prefix` goes before the endpoint's name, and the
 * gateway's name rule (docs/architecture.md, "The MCP gateway") keeps them apart when two sources
 * list the same one. URIs are never renamed: a resource is routed back by the source that listed
 * its URI (or whose template matches it). Lists walk the sources in configuration order, one
 * endpoint page per face page.
 *
 * With a source check (the HTTP face's OAuth scopes), a listing walks only the sources the client
 * may use, and a request is sealed only once the check let it go to its source.
 *
 * Errors: the upstream server's JSON-RPC error, carried in `xp.error` `details.mcp_error`, comes
 * back to the client as it was (code, message, data); any other XProtocol error is mapped as for
 * tools (docs/design.md §8), the XProtocol code in `error.data.xp_code`.
 * @module
 */
import { ProtocolError, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { PublicIdentity } from '@xprotocol/crypto';
import { MCP_REQUEST_KIND, type McpRequestMethod } from '@xprotocol/wire';
import type { XpCaller } from '../caller/xp-caller.js';
import type { _AcrossSession, _XpBackChannel } from '../caller/xp-mcp-back-channel.js';
import { _mcpError } from '../caller/xp-mcp-error.js';
import { _decodeCursor, _encodeCursor, _nextPosition } from '../gateway/gateway-cursor.js';
import type { _GatewayRoutes } from '../gateway/gateway-routes.js';
import type { _SourceCheck } from '../gateway/gateway-session.js';
import { _leasedRequest } from '../gateway/leases.js';

/** An `xprotocol_sources` entry as this module needs it. */
export interface _XpMcpFaceSource {
  name: string;
  /** `mcp_tool_prefix`. */
  prefix: string;
  /** The endpoint's keys; undefined while its announce was not found. */
  keys: PublicIdentity | undefined;
}

/** Options of {@link _XpMcpFace}. */
export interface _XpMcpFaceOptions {
  caller: XpCaller;
  /** The sources in configuration order (current at each call). */
  sources: () => readonly _XpMcpFaceSource[];
  /** Resolves once the sources' keys were looked up once. */
  ready: () => Promise<void>;
  routes: _GatewayRoutes;
  /** Timeout of one round trip, in ms. */
  timeoutMs: number;
  /** The MCP sessions across XProtocol: what lets the servers talk back to the face's clients. */
  backChannel: _XpBackChannel;
}

type _Params = Record<string, unknown> | undefined;
/**
 * A client request of the face: its session's server, the SDK's handler context, and what the
 * client may use (everything without a check).
 */
type _FaceRequest = { server: Server; ctx: ServerContext; check: _SourceCheck | undefined };
type _ListMethod = 'resources/list' | 'resources/templates/list' | 'prompts/list';

const _KEYS = {
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
} as const;

/** The most pages one walk reads from one endpoint while learning where an entry lives. */
const _MAX_PAGES = 1000;

/** The face capabilities this module serves. */
export const _XP_MCP_FACE_CAPABILITIES = {
  resources: { subscribe: true },
  prompts: {},
  completions: {},
  logging: {},
} as const;

/** Resources, prompts and completions of XProtocol sources on the face. */
export class _XpMcpFace {
  readonly #o: _XpMcpFaceOptions;

  constructor(options: _XpMcpFaceOptions) {
    this.#o = options;
  }

  /** Where the entries listed so far live. */
  get routes(): _GatewayRoutes {
    return this.#o.routes;
  }

  /** Registers the face handlers on `server` (one per MCP session), whose client may use what `check` lets. */
  install(server: Server, check?: _SourceCheck): void {
    const on = (method: string, handler: (params: _Params, ctx: _FaceRequest) => Promise<unknown>) =>
      server.setRequestHandler(
        method as never,
        (async (request: { params?: _Params }, ctx: ServerContext) => {
          await this.#o.ready();
          return handler(request.params, { server, ctx, check });
        }) as never,
      );
    for (const method of ['resources/list', 'resources/templates/list', 'prompts/list'] as const)
      on(method, (params, ctx) => this.#list(method, params, ctx));
    for (const method of ['resources/read', 'resources/subscribe', 'resources/unsubscribe'] as const) {
      on(method, async (params, ctx) => {
        const source = await this.#resourceOwner(String(params?.uri ?? ''), ctx);
        _authorize(source, method, ctx);
        return this.#request(source, method, params, ctx);
      });
    }
    on('logging/setLevel', (params, ctx) => this.#setLevel(params, ctx));
    server.setNotificationHandler('notifications/roots/list_changed', async () =>
      this.#o.backChannel.rootsChanged(server),
    );
    on('prompts/get', async (params, ctx) => {
      const target = await this.#prompt(String(params?.name ?? ''), ctx);
      _authorize(target.source, 'prompts/get', ctx);
      return this.#request(target.source, 'prompts/get', { ...params, name: target.name }, ctx);
    });
    on('completion/complete', (params, ctx) => this.#complete(params, ctx));
  }

  /** The sources whose endpoint is known, in configuration order. */
  #live(): (_XpMcpFaceSource & { keys: PublicIdentity })[] {
    return this.#o.sources().filter((s): s is _XpMcpFaceSource & { keys: PublicIdentity } => !!s.keys);
  }

  /** Sends `method` to `source`'s endpoint; resolves with the MCP result or throws the MCP error. */
  async #request(
    source: _XpMcpFaceSource,
    method: McpRequestMethod,
    params: _Params,
    ctx: _FaceRequest | undefined,
  ): Promise<Record<string, unknown>> {
    if (!source.keys) {
      throw new ProtocolError(-32603, `XProtocol endpoint unavailable: ${source.name}`, {
        xp_code: 'ENDPOINT_UNAVAILABLE',
      });
    }
    // A client's request runs in its MCP session at the endpoint; the face's own (learning where
    // an entry lives) in none.
    const keys = source.keys;
    const send = async (across?: _AcrossSession): Promise<Record<string, unknown>> => {
      const outcome = await this.#o.caller.call({
        to: keys,
        kind: MCP_REQUEST_KIND,
        // The progress token stays with the face; the endpoint learns only that progress is wanted.
        payload: params === undefined ? { method } : { method, params: _withoutProgress(params) },
        timeoutMs: this.#o.timeoutMs,
        ...(across && { signal: across.signal }),
        ...(across?.mcp && { mcp: across.mcp.context, sent: across.mcp.sent }),
      });
      if (!outcome.ok) throw _mcpError(outcome.error);
      const result = outcome.payload;
      if (result === null || typeof result !== 'object' || Array.isArray(result)) {
        throw new ProtocolError(
          -32603,
          `${source.name}: ${method} answered with a result that is not an object`,
          {
            xp_code: 'UPSTREAM_ERROR',
          },
        );
      }
      return result as Record<string, unknown>;
    };
    const what = _leasedRequest(method, source.name, params);
    return ctx ? this.#o.backChannel.request(ctx.server, ctx.ctx, keys, send, what) : send();
  }

  /**
   * `logging/setLevel`: set at every reachable endpoint, in the client's session there. An
   * endpoint whose servers offer no logging, or that withholds it from this face, has nothing to
   * set: that is no error (the face offers logging for the endpoints that have it). Any other
   * failure (a timeout, an endpoint down) is the answer when no endpoint took the level.
   */
  async #setLevel(params: _Params, ctx: _FaceRequest): Promise<Record<string, unknown>> {
    const live = this.#live();
    if (live.length === 0) throw _noEndpoint();
    const sources = live.filter((source) => _allowed(source, 'logging/setLevel', ctx));
    if (sources.length === 0) _authorize(live[0]!, 'logging/setLevel', ctx);
    const outcomes = await Promise.allSettled(
      sources.map((source) => this.#request(source, 'logging/setLevel', params, ctx)),
    );
    const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    const real = failed.find((o) => !_withheld(o.reason));
    if (real && failed.length === outcomes.length) throw real.reason;
    return {};
  }

  /** One face page: one endpoint page of one source, renamed and noted for routing. */
  async #list(method: _ListMethod, params: _Params, ctx: _FaceRequest): Promise<Record<string, unknown>> {
    const key = _KEYS[method];
    // A client lists only what it may use: a source it may not is skipped, not refused.
    const sources = this.#live().filter((source) => _allowed(source, method, ctx));
    if (sources.length === 0) return { [key]: [] };
    const position = _decodeCursor(params?.cursor as string | undefined, sources.length);
    const source = sources[position.index]!;
    const { cursor: _faceCursor, ...rest } = params ?? {};
    const forwarded = { ...rest, ...(position.cursor !== undefined && { cursor: position.cursor }) };
    const page = await _unlessWithheld(
      this.#request(source, method, Object.keys(forwarded).length > 0 ? forwarded : undefined, ctx),
      key,
      sources.length > 1,
    );
    const items = Array.isArray(page[key]) ? (page[key] as Record<string, unknown>[]) : [];
    const next = _nextPosition(position.index, page.nextCursor, sources.length);
    const { nextCursor: _endpointCursor, ...result } = page;
    return {
      ...result,
      [key]: items.map((item) => this.#note(method, source, item)),
      ...(next && { nextCursor: _encodeCursor(next) }),
    };
  }

  /** An entry of `source` under its face name (prefixed, kept apart), noted for routing. */
  #note(
    method: _ListMethod,
    source: _XpMcpFaceSource,
    item: Record<string, unknown>,
  ): Record<string, unknown> {
    const routes = this.#o.routes;
    const name = typeof item.name === 'string' ? `${source.prefix}${item.name}` : undefined;
    if (method === 'prompts/list') {
      return name === undefined ? item : { ...item, name: routes.prompts.assign(source.name, name) };
    }
    if (method === 'resources/list') {
      if (typeof item.uri === 'string') routes.noteResource(source.name, item.uri);
      return name === undefined ? item : { ...item, name: routes.resources.assign(source.name, name) };
    }
    if (typeof item.uriTemplate === 'string') routes.noteTemplate(source.name, item.uriTemplate);
    return name === undefined ? item : { ...item, name: routes.templates.assign(source.name, name) };
  }

  /** Reads every page of `method` from every source, so the routes know every entry. */
  async #learn(method: _ListMethod): Promise<void> {
    const key = _KEYS[method];
    for (const source of this.#live()) {
      let cursor: string | undefined;
      for (let page = 0; page < _MAX_PAGES; page++) {
        const result = await _unlessWithheld(
          this.#request(source, method, cursor === undefined ? undefined : { cursor }, undefined),
          key,
          true,
        );
        for (const item of Array.isArray(result[key]) ? (result[key] as Record<string, unknown>[]) : [])
          this.#note(method, source, item);
        cursor =
          typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (cursor === undefined) break;
      }
    }
  }

  #byName(name: string): _XpMcpFaceSource | undefined {
    return this.#o.sources().find((s) => s.name === name);
  }

  /** The source serving the resource `uri`: the one that listed it, else the first. */
  async #resourceOwner(uri: string, _ctx: _FaceRequest): Promise<_XpMcpFaceSource> {
    const sources = this.#live();
    if (sources.length === 0) throw _noEndpoint();
    if (sources.length === 1) return sources[0]!;
    let owner = this.#o.routes.resourceOwner(uri);
    if (owner === undefined) {
      await this.#learn('resources/list');
      await this.#learn('resources/templates/list');
      owner = this.#o.routes.resourceOwner(uri);
    }
    return (owner !== undefined && this.#byName(owner)) || sources[0]!;
  }

  /** The source and the endpoint's own name behind the face prompt `name`. */
  async #prompt(name: string, _ctx: _FaceRequest): Promise<{ source: _XpMcpFaceSource; name: string }> {
    let known = this.#o.routes.prompts.resolve(name);
    const live = this.#live();
    if (!known && live.length === 1) {
      // One endpoint: an unknown name goes to it as it is, so the client gets the server's own
      // answer (as through the gateway, docs/protocol.md §10.5).
      const only = live[0]!;
      return { source: only, name: name.startsWith(only.prefix) ? name.slice(only.prefix.length) : name };
    }
    if (!known) {
      await this.#learn('prompts/list');
      known = this.#o.routes.prompts.resolve(name);
    }
    const source = known && this.#byName(known.source);
    if (!known || !source) throw new ProtocolError(-32602, `Unknown prompt: ${name}`, { name });
    return { source, name: known.name.slice(source.prefix.length) };
  }

  /** `completion/complete`, routed by the prompt or resource template it completes. */
  async #complete(params: _Params, ctx: _FaceRequest): Promise<Record<string, unknown>> {
    const sources = this.#live();
    if (sources.length === 0) throw _noEndpoint();
    const ref = (params?.ref ?? {}) as Record<string, unknown>;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const target = await this.#prompt(ref.name, ctx);
      _authorize(target.source, 'completion/complete', ctx);
      return this.#request(
        target.source,
        'completion/complete',
        { ...params, ref: { ...ref, name: target.name } },
        ctx,
      );
    }
    let owner: string | undefined;
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string' && sources.length > 1) {
      owner = this.#o.routes.templateOwner(ref.uri) ?? this.#o.routes.resourceOwner(ref.uri);
      if (owner === undefined) {
        await this.#learn('resources/templates/list');
        owner = this.#o.routes.templateOwner(ref.uri);
      }
    }
    const source = (owner !== undefined && this.#byName(owner)) || sources[0]!;
    _authorize(source, 'completion/complete', ctx);
    return this.#request(source, 'completion/complete', params, ctx);
  }
}

/** True when the client of `request` may send `method` to `source`. */
function _allowed(source: _XpMcpFaceSource, method: McpRequestMethod, request: _FaceRequest): boolean {
  return request.check?.(source.name, method, request.ctx) === undefined;
}

/** Throws the refusal when the client of `request` may not send `method` to `source`. */
function _authorize(source: _XpMcpFaceSource, method: McpRequestMethod, request: _FaceRequest): void {
  const refusal = request.check?.(source.name, method, request.ctx);
  if (refusal) throw refusal;
}

/** `params` without the client's progress token (the face keeps it, docs/protocol.md §10.5). */
function _withoutProgress(params: Record<string, unknown>): Record<string, unknown> {
  const meta = params._meta as Record<string, unknown> | undefined;
  if (!meta || !('progressToken' in meta)) return params;
  const { progressToken: _token, ...restMeta } = meta;
  const { _meta: _old, ...rest } = params;
  return Object.keys(restMeta).length > 0 ? { ...rest, _meta: restMeta } : rest;
}

/**
 * A source's list page, or an empty one when the source withholds that list from this face (its
 * endpoint refuses the capability, or none of its servers offers it) and other sources may still
 * list theirs (`skippable`): one source's refusal does not hide every other source's entries.
 * Any other failure (a timeout, an endpoint down) is the page's error.
 */
async function _unlessWithheld(
  page: Promise<Record<string, unknown>>,
  key: string,
  skippable: boolean,
): Promise<Record<string, unknown>> {
  try {
    return await page;
  } catch (error) {
    if (skippable && _withheld(error)) return { [key]: [] };
    throw error;
  }
}

/** True when an endpoint withholds something from this face: not granted, or none of its servers offers it. */
function _withheld(error: unknown): boolean {
  if (!ProtocolError.isInstance(error)) return false;
  const protocol = error as ProtocolError;
  return (
    (protocol.data as { xp_code?: unknown } | undefined)?.xp_code === 'AUTHORIZATION_INSUFFICIENT' ||
    protocol.code === -32601
  );
}

function _noEndpoint(): ProtocolError {
  return new ProtocolError(-32603, 'no XProtocol endpoint of this face is reachable right now', {
    xp_code: 'ENDPOINT_UNAVAILABLE',
  });
}
