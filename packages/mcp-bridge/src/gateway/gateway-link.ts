/**
 * A gateway link: one MCP client's own session with one upstream MCP server, opened by the face
 * the first time that client needs the server. Because the session belongs to one client, all
 * that the server sends on it belongs to that client too: its requests (sampling, elicitation,
 * roots) go to that client and the answers come back, its log messages and resource updates reach
 * that client only, and its request ids live in their own session (two clients' id 0 never
 * meet). See docs/architecture.md, "The MCP gateway".
 *
 * What a forwarded request keeps: its params and `_meta`; the client's progress token (the link
 * asks the server for progress under a token of its own and sends each notification back under
 * the client's token; progress also restarts the request's timeout); cancellation (the client's
 * `notifications/cancelled` aborts the upstream request, which sends the server one); the
 * server's JSON-RPC error (code, message, data) unchanged.
 * @module
 */
import {
  Client,
  type ClientCapabilities,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type ServerCapabilities,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { BridgeError } from '../errors.js';
import type { BridgeLogger } from '../logger.js';
import { _CONNECT_TIMEOUT_MS, _within } from '../upstream/connect-timeout.js';
import {
  _discoverRefusalOf,
  _revisionOptions,
  type UpstreamTransport,
} from '../upstream/upstream-transport.js';
import { _FORWARDED_CALL_RESULT } from './gateway-call-result.js';
import { _gatewayTransport } from './gateway-transport.js';
import { _paramHeaders } from './param-headers.js';

/** Requests a server may send its client, forwarded when the client declared the capability. */
const _CLIENT_METHODS = [
  ['sampling/createMessage', 'sampling'],
  ['elicitation/create', 'elicitation'],
  ['roots/list', 'roots'],
] as const;

/** Notifications the link never forwards: the SDK consumes them, or the face sends its own. */
const _NOT_FORWARDED = new Set([
  'notifications/progress',
  'notifications/cancelled',
  // The face lists tools from the adapter's catalog and announces its own changes.
  'notifications/tools/list_changed',
]);

/**
 * The client side of a link: who the server talks back to. On the gateway it is the face
 * session's SDK server; across XProtocol it is the caller's session at the endpoint, which turns
 * each message into an event sealed to the caller (docs/protocol.md §10.5).
 */
export interface _LinkClient {
  /** The capabilities the client declared (its `sampling`, `elicitation` and `roots` are passed on). */
  capabilities(): ClientCapabilities | undefined;
  /** The client's own `clientInfo`, when known. */
  clientInfo(): { name: string; version: string } | undefined;
  /** Sends the client a request of the server's; `relatedRequestId` names the client request it belongs to. */
  request(
    request: { method: string; params?: unknown },
    options: { signal: AbortSignal; timeout: number; relatedRequestId?: string | number },
  ): Promise<unknown>;
  /** Sends the client a notification that belongs to no request of the client's. */
  notification(notification: { method: string; params?: unknown }): Promise<void>;
}

/** A client request forwarded on a link: what the link needs to talk back to it. */
export interface _LinkRequest {
  /** The client's id of the request (for `relatedRequestId`). */
  id: string | number;
  /** Sends the client a notification that belongs to this request. */
  notify(notification: { method: string; params?: unknown }): Promise<void>;
  /** Aborted when the client cancels the request (the server then gets `notifications/cancelled`). */
  signal: AbortSignal;
  /** The client's progress token, when it asked for progress. */
  progressToken?: string | number;
  /** This request's timeout, in ms, when it differs from the link's. */
  timeoutMs?: number;
  /**
   * The client speaks 2026-07-28: an input-required result of a 2026-07-28 server is returned to
   * it as it is (it answers with `inputResponses` itself), instead of the link asking the client
   * each question as a request of the server's.
   */
  returnInputRequired?: boolean;
}

/** Options of {@link _GatewayLink.open}. */
export interface _GatewayLinkOptions {
  source: string;
  transport: UpstreamTransport;
  /** The client's side of the link. */
  face: _LinkClient;
  /** Sent in `initialize` when the client's own `clientInfo` is not known. */
  clientInfo: { name: string; version: string };
  /** Timeout of each forwarded request, in ms (restarted by progress). */
  timeoutMs: number;
  /**
   * The longest opening the session may take, in ms (default: the transport's `connectTimeoutMs`,
   * else 30 s): a server that never finishes
   * its handshake fails the client's request instead of holding it.
   */
  connectTimeoutMs?: number;
  logger: BridgeLogger;
  /** The link serves several clients (see `_LinkSetOptions.shared`). */
  shared?: boolean;
  /**
   * Called once when the link's session is over: it could not open, it ended on its own (a stdio
   * child exited), or it was closed. Gives back what opening it took (its upstream process's share).
   */
  onEnd?: () => void;
}

/** A face request being forwarded: what the link needs to talk back to that client's request. */
interface _FaceCall {
  id: string | number;
  notify: _LinkRequest['notify'];
  /** Stops the call's timeout (the client is answering the server). */
  pause: () => void;
  /** Starts the call's timeout again, from now. */
  arm: () => void;
}

/** The gateway's client side: a face session's SDK server. */
export function _serverClient(server: Server): _LinkClient {
  return {
    capabilities: () => server.getClientCapabilities(),
    clientInfo: () => server.getClientVersion() as { name: string; version: string } | undefined,
    request: (request, options) => server.request(request as never, options),
    notification: (notification) => server.notification(notification as never),
  };
}

/** A face request (the SDK's handler context) as a {@link _LinkRequest}. */
export function _contextRequest(ctx: ServerContext): _LinkRequest {
  const token = ctx.mcpReq._meta?.progressToken;
  return {
    id: ctx.mcpReq.id,
    notify: (notification) => ctx.mcpReq.notify(notification as never),
    signal: ctx.mcpReq.signal,
    ...(token !== undefined && { progressToken: token as string | number }),
  };
}

/** One client's session with one upstream server. */
export class _GatewayLink {
  readonly source: string;
  readonly #client: Client;
  readonly #o: _GatewayLinkOptions;
  readonly #pending: () => Promise<void>;
  /** Face requests forwarded on this link and not answered yet, oldest first. */
  readonly #calls = new Set<_FaceCall>();
  /** The link's progress tokens of requests in flight -> what to do with a report. */
  readonly #progress = new Map<string, (progress: Record<string, unknown>) => void>();
  /** Input schemas of the server's tools, by name (2026-07-28 servers: for `Mcp-Param-*` headers). */
  readonly #inputSchemas = new Map<string, unknown>();
  /** Server -> client requests the client is answering now. */
  #answering = 0;
  #closed = false;
  /** Cleared once called. */
  #onEnd: (() => void) | undefined;

  private constructor(options: _GatewayLinkOptions, client: Client, pending: () => Promise<void>) {
    this.source = options.source;
    this.#o = options;
    this.#client = client;
    this.#pending = pending;
    this.#onEnd = options.onEnd;
  }

  /**
   * Connects to the upstream server as the face's client: the capabilities the client declared
   * to the face (sampling, elicitation, roots) are declared to the server, so the server asks
   * only for what the client can answer.
   */
  static async open(options: _GatewayLinkOptions): Promise<_GatewayLink> {
    const declared = options.face.capabilities() ?? {};
    const capabilities: ClientCapabilities = {};
    for (const [, capability] of _CLIENT_METHODS) {
      if (declared[capability] !== undefined)
        Object.assign(capabilities, { [capability]: declared[capability] });
    }
    // The server sees who is calling: the client's own clientInfo (the adapter's when unknown).
    const clientInfo = options.face.clientInfo() ?? options.clientInfo;
    // A 2026-07-28 server is spoken to in its revision; the link then answers its input-required
    // results itself (the SDK asks the client each question through the handlers below).
    const client = new Client(clientInfo, { capabilities, ..._revisionOptions(options.transport) });
    const { transport, pending } = _gatewayTransport(options.source, options.transport, options.logger);
    const link = new _GatewayLink(options, client, pending);
    // Progress is taken off the wire as it arrives, before the SDK dispatches anything: a
    // report is then always passed on before the result it precedes.
    transport.onmessage = (message) => link.#peek(message as { method?: unknown; params?: unknown });
    for (const [method, capability] of _CLIENT_METHODS) {
      if (capabilities[capability] === undefined) continue;
      client.setRequestHandler(method, (request, ctx) => link.#toClient(request, ctx.mcpReq.signal) as never);
    }
    client.fallbackNotificationHandler = async (notification) => link.#notifyClient(notification);
    client.setNotificationHandler('notifications/message', (notification) =>
      link.#notifyClient(notification),
    );
    try {
      await _within(
        client.connect(transport),
        options.connectTimeoutMs ?? options.transport.connectTimeoutMs ?? _CONNECT_TIMEOUT_MS,
      );
    } catch (error) {
      await client.close().catch(() => {});
      link.#ended();
      // A server that refused the revision probe: its own error first (the SDK's does not say why).
      const discover = _discoverRefusalOf(transport);
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `${options.source}: cannot open a gateway session: ${discover ? `${discover}; ` : ''}${(error as Error).message}`,
        { cause: error },
      );
    }
    // A 2026-07-28 client repeats some arguments in Mcp-Param-* headers, from the tool list it
    // holds: the link lists the tools once so that it can.
    if (link.revision !== undefined) {
      const listed = await client.listTools().catch(() => undefined);
      for (const tool of listed?.tools ?? []) link.#inputSchemas.set(tool.name, tool.inputSchema);
    }
    client.onerror = (error: Error) => {
      // The link takes progress off the wire itself, so the SDK finds no handler of its own for it.
      if (/progress notification for an unknown token/.test(error.message)) return;
      options.logger.debug({ source: options.source, error: error.message }, 'gateway link transport error');
    };
    client.onclose = () => {
      if (!link.#closed)
        options.logger.warn({ source: options.source }, 'gateway link to the upstream closed');
      link.#closed = true;
      link.#ended();
    };
    return link;
  }

  /** The server's capabilities from this session's `initialize`. */
  get capabilities(): ServerCapabilities | undefined {
    return this.#client.getServerCapabilities();
  }

  /**
   * `2026-07-28` when this session speaks it (pinned, or found by `auto` when it opened), else
   * undefined (a 2025 revision): what the link's requests, headers and `_meta` follow.
   */
  get revision(): '2026-07-28' | undefined {
    const negotiated = this.#client.getNegotiatedProtocolVersion();
    return negotiated !== undefined && negotiated >= _MODERN ? _MODERN : undefined;
  }

  /** True once the session ended (the next request of the client opens a new one). */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Forwards the client's request `method` with `params` (the face request's own, `_meta`
   * included) and returns the server's result as it is. Rejects with the server's
   * `ProtocolError` unchanged, or a `ProtocolError` -32603 naming the source when the server
   * cannot be reached or the request timed out.
   */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    forwarded: _LinkRequest,
  ): Promise<Record<string, unknown>> {
    const clientToken = forwarded.progressToken;
    const timeoutMs = forwarded.timeoutMs ?? this.#o.timeoutMs;
    // The link keeps the timeout (not the SDK): progress restarts it, and it waits while the
    // client is answering the server (sampling, elicitation: a person may be thinking). One
    // controller ends the upstream request on either the timeout or the client's cancellation
    // (AbortSignal.any cost more per call than the rest of the link's own work).
    const timeout = new AbortController();
    const cancelled = () => timeout.abort(forwarded.signal.reason);
    if (forwarded.signal.aborted) cancelled();
    else forwarded.signal.addEventListener('abort', cancelled, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const call: _FaceCall = {
      id: forwarded.id,
      notify: forwarded.notify,
      pause: () => clearTimeout(timer),
      arm: () => {
        clearTimeout(timer);
        if (this.#answering > 0) return;
        timer = setTimeout(
          () =>
            timeout.abort(
              new SdkError(
                SdkErrorCode.RequestTimeout,
                `Request timed out after ${timeoutMs} ms without an answer or progress`,
              ),
            ),
          timeoutMs,
        );
      },
    };
    // The server reports under a token of the link's own; each report goes back under the
    // client's token (the SDK's own progress handling would drop a report that arrives just
    // before the result).
    const token = clientToken === undefined ? undefined : `${this.source}:${++_tokens}`;
    if (token !== undefined) {
      this.#progress.set(token, (progress) => {
        call.arm();
        forwarded
          .notify({ method: 'notifications/progress', params: { ...progress, progressToken: clientToken } })
          .catch(() => {});
      });
    }
    this.#calls.add(call);
    call.arm();
    try {
      const request = { method, params: _withProgressToken(params, token) } as never;
      const options = {
        signal: timeout.signal,
        timeout: _NO_SDK_TIMEOUT,
        ...(forwarded.returnInputRequired && { allowInputRequired: true }),
        ...this.#headers(method, params),
      };
      // A 2025 server's tool result of the common shape skips the SDK's zod check (gateway-call-result.ts).
      return (await (method === 'tools/call' && this.revision === undefined
        ? this.#client.request(request, _FORWARDED_CALL_RESULT as never, options)
        : this.#client.request(request, options))) as Record<string, unknown>;
    } catch (error) {
      throw _clientError(error, this.source, method);
    } finally {
      clearTimeout(timer);
      forwarded.signal.removeEventListener('abort', cancelled);
      if (token !== undefined) this.#progress.delete(token);
      this.#calls.delete(call);
    }
  }

  /** The `Mcp-Param-*` headers of a `tools/call` to a 2026-07-28 server, as its client would send them. */
  #headers(
    method: string,
    params: Record<string, unknown> | undefined,
  ): { headers?: Record<string, string> } {
    if (method !== 'tools/call' || this.#inputSchemas.size === 0) return {};
    const schema = this.#inputSchemas.get(String(params?.name));
    const headers = _paramHeaders(schema, (params?.arguments ?? {}) as Record<string, unknown>);
    return Object.keys(headers).length > 0 ? { headers } : {};
  }

  /** Sends a request of the face's own (no client request behind it), e.g. the client's log level to a new link. */
  async requestAlone(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    try {
      return (await this.#client.request({ method, params } as never, {
        timeout: this.#o.timeoutMs,
      })) as Record<string, unknown>;
    } catch (error) {
      throw _clientError(error, this.source, method);
    }
  }

  /** Sends the server a notification from the client (`notifications/roots/list_changed`). */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.#closed) return;
    await this.#client.notification({ method, ...(params && { params }) } as never).catch(() => {});
  }

  /**
   * Ends the session. Requests still running were aborted by the face (which sends the server
   * `notifications/cancelled`); those messages are written before the session ends. A Streamable
   * HTTP session is terminated (`DELETE`, at most one second); a stdio child ends.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await _bounded(this.#pending(), 1000);
    const transport = this.#client.transport;
    if (transport instanceof StreamableHTTPClientTransport) {
      await _bounded(
        transport.terminateSession().catch(() => {}),
        1000,
      );
    }
    await this.#client.close().catch(() => {});
    this.#ended();
  }

  /** The session is over: {@link _GatewayLinkOptions.onEnd}, once. */
  #ended(): void {
    const onEnd = this.#onEnd;
    this.#onEnd = undefined;
    onEnd?.();
  }

  #peek(message: { method?: unknown; params?: unknown }): void {
    if (message.method !== 'notifications/progress') return;
    const { progressToken, ...progress } = (message.params ?? {}) as Record<string, unknown>;
    if (typeof progressToken === 'string') this.#progress.get(progressToken)?.(progress);
  }

  /**
   * A server -> client request: sent to the client on the stream of the client's request that
   * is waiting on this server (the newest), so it reaches the client even when it opened no
   * standalone stream; the server's cancellation (`signal`) is passed on. The client has up to an
   * hour to answer (the server usually cancels sooner).
   */
  async #toClient(request: { method: string; params?: unknown }, signal: AbortSignal): Promise<unknown> {
    const related = [...this.#calls].at(-1);
    // While the client answers, no call of this link times out; the answer restarts them.
    this.#answering++;
    for (const call of this.#calls) call.pause();
    try {
      return await this.#o.face.request(
        { method: request.method, params: request.params },
        {
          signal,
          timeout: _CLIENT_ANSWER_MS,
          ...(related && { relatedRequestId: related.id }),
        },
      );
    } finally {
      this.#answering--;
      for (const call of this.#calls) call.arm();
    }
  }

  /** A server notification, passed to the client (on the stream of a waiting request, if any). */
  async #notifyClient(notification: { method: string; params?: unknown }): Promise<void> {
    if (_NOT_FORWARDED.has(notification.method)) return;
    // On a link shared by several clients, only a message that can belong to one client goes on.
    if (this.#o.shared && this.#calls.size !== 1) {
      this.#o.logger.debug(
        { source: this.source, method: notification.method, calls: this.#calls.size },
        'a notification on a shared link was dropped: no single request of one client it could belong to',
      );
      return;
    }
    const related = [...this.#calls].at(-1);
    const message = { method: notification.method, params: notification.params };
    try {
      if (related) await related.notify(message);
      else await this.#o.face.notification(message);
    } catch (error) {
      this.#o.logger.debug(
        { source: this.source, method: notification.method, error: (error as Error).message },
        'a notification from the upstream could not be passed to the client',
      );
    }
  }
}

/** `params` with the link's progress token in place of the client's (or none). */
function _withProgressToken(
  params: Record<string, unknown> | undefined,
  token: string | undefined,
): Record<string, unknown> | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (token === undefined && (!meta || !('progressToken' in meta))) return params;
  const { progressToken: _clientToken, ...rest } = meta ?? {};
  const { _meta: _old, ...others } = params ?? {};
  const next = token === undefined ? rest : { ...rest, progressToken: token };
  return Object.keys(next).length > 0 ? { ...others, _meta: next } : others;
}

/**
 * How long the client may take to answer a server's request (an elicitation may wait on a
 * person); the server's own cancellation ends it sooner.
 */
const _CLIENT_ANSWER_MS = 60 * 60 * 1000;

/** The stateless revision (docs/architecture.md, "Two MCP revisions"). */
const _MODERN = '2026-07-28';

/** Link progress tokens: unique in the process, so never confused across links. */
let _tokens = 0;
/** The SDK's own timeout is not used where the link keeps the timeout (setTimeout's largest delay). */
const _NO_SDK_TIMEOUT = 2 ** 31 - 1;

/**
 * What the client is told when a forwarded request failed: the server's own JSON-RPC error as it
 * came (code, message, data); otherwise -32603 with the XProtocol-style code in `data.xp_code`.
 */
export function _clientError(error: unknown, source: string, method: string): ProtocolError {
  if (ProtocolError.isInstance(error)) return error;
  if (SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout) {
    return new ProtocolError(-32603, `${source}: ${method} timed out: ${error.message}`, {
      xp_code: 'TIMEOUT',
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProtocolError(-32603, `${source}: ${method} failed: ${message}`, {
    xp_code: 'UPSTREAM_UNAVAILABLE',
  });
}

async function _bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
