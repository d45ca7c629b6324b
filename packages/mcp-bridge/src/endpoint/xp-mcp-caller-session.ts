/**
 * One MCP client's session at the endpoint, when that client is on the far side of XProtocol
 * (docs/protocol.md §10.5): the client's own links to the wrapped servers (as the gateway gives
 * each face client its own), declared to each server with the client's capabilities. What a server
 * sends on those links belongs to that client alone and goes back to the caller as events sealed
 * to it: notifications as `xp.mcp.notification`, the server's requests (sampling, elicitation,
 * roots) as `xp.mcp.server_request`, whose answer the caller seals back.
 *
 * Order is kept: the messages of a session are published one after another, and a request's
 * answer is stored only after every message it caused was published, so progress and log
 * messages reach the client before the result they precede.
 * @module
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  ProtocolError,
} from '@modelcontextprotocol/client';
import type { PublicIdentity, XpEvent } from '@xprotocol/crypto';
import { getExpiration } from '@xprotocol/crypto';
import {
  MCP_NOTIFICATION_KIND,
  MCP_SERVER_REQUEST_KIND,
  MCP_SESSION_METHODS,
  type McpSessionContext,
  type McpSessionInput,
  type McpSessionMessage,
} from '@xprotocol/wire';
import type { XpCaller } from '../caller/xp-caller.js';
import { _mcpError } from '../caller/xp-mcp-error.js';
import type { _LinkClient } from '../gateway/gateway-link.js';
import { _LinkSet } from '../gateway/gateway-links.js';
import { _statelessTransport } from '../gateway/gateway-stateless-client.js';
import type { BridgeLogger } from '../logger.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';
import type { ToolProvider } from './tool-provider.js';

/** Options of {@link _XpCallerSession}. */
export interface _XpCallerSessionOptions {
  /** The caller's keys (where every message of the session is sealed to). */
  caller: PublicIdentity;
  context: McpSessionContext;
  /** The endpoint's own sender. */
  xp: XpCaller;
  transportOf: (source: string) => UpstreamTransport | undefined;
  /** Sent in `initialize` when the caller gave no `clientInfo`. */
  clientInfo: { name: string; version: string };
  /** Timeout of a forwarded request, in ms, when the request gives none. */
  timeoutMs: number;
  /** Lifetime of a message that belongs to no request, in s. */
  ttlSeconds: number;
  logger: BridgeLogger;
  now: () => number;
  /** The links the endpoint's 2026-07-28 callers share, to its 2026-07-28 servers. */
  stateless?: () => _LinkSet;
}

/** A request of the caller running on one of the session's links. */
interface _Running {
  abort: AbortController;
  /** Unix seconds: the request's expiration (its messages live as long). */
  expiration: number;
}

/** The requests a server may answer with an input-required result (MCP 2026-07-28). */
const _INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** `params` with a 2026-07-28 client's answers and the server's state, when its retry carries them. */
function _withInput(
  params: Record<string, unknown> | undefined,
  input: McpSessionInput,
  client?: McpSessionContext,
): Record<string, unknown> | undefined {
  // On a shared link the request itself says who the client is (the link declares nothing).
  const meta = client && {
    _meta: {
      ...(params?._meta as Record<string, unknown> | undefined),
      [CLIENT_CAPABILITIES_META_KEY]: client.capabilities,
      ...(client.clientInfo && { [CLIENT_INFO_META_KEY]: client.clientInfo }),
    },
  };
  if (input.responses === undefined && input.state === undefined && !meta) return params;
  return {
    ...params,
    ...meta,
    ...(input.responses !== undefined && { inputResponses: input.responses }),
    ...(input.state !== undefined && { requestState: input.state }),
  };
}

/** The longest the caller may take to answer a server's request, in ms (a person may be answering). */
const _CLIENT_ANSWER_MS = 60 * 60 * 1000;

/** One caller's MCP session at the endpoint. */
export class _XpCallerSession {
  readonly links: _LinkSet;
  readonly context: McpSessionContext;
  /** When the session was last used (a request, or a message to the caller), in ms. */
  lastUsed: number;
  readonly #o: _XpCallerSessionOptions;
  /** Requests running now, by the id of the event that carried them. */
  readonly #running = new Map<string, _Running>();
  /** The session's messages to the caller, published one after another. */
  #chain: Promise<void> = Promise.resolve();

  constructor(options: _XpCallerSessionOptions) {
    this.#o = options;
    this.context = options.context;
    this.lastUsed = options.now();
    this.links = new _LinkSet({
      client: this.#client(),
      transportOf: options.transportOf,
      clientInfo: options.clientInfo,
      timeoutMs: options.timeoutMs,
      logger: options.logger,
      // A caller acting for a 2025-11-25 client gets that revision's session where the server has one.
      legacyClient: options.context.input === undefined,
    });
  }

  /** True while a request of the caller is running. */
  get busy(): boolean {
    return this.#running.size > 0;
  }

  /**
   * Forwards `method` with `params` to the server of `source` for the request `event`, and
   * returns the server's result as it is. `progress` asks the server for progress, which goes
   * back to the caller as notifications.
   *
   * The request runs on the caller's own link when the server could send this client anything
   * besides progress: the client offers sampling, elicitation or roots, the server offers logging,
   * the method acts on the session, or the session already has a link to that server. Otherwise
   * it runs on the endpoint's shared session (`shared`), where a server cannot reach any client,
   * and no process or session is opened for the caller.
   */
  async request(
    source: string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: { event: XpEvent; timeoutMs: number; progress: boolean; shared: ToolProvider },
  ): Promise<Record<string, unknown>> {
    this.lastUsed = this.#o.now();
    const { event, shared } = options;
    const running: _Running = {
      abort: new AbortController(),
      expiration: getExpiration(event) ?? Math.floor(this.#o.now() / 1000) + this.#o.ttlSeconds,
    };
    const notify = (message: { method: string; params?: unknown }) =>
      this.#emit(message, event.id, running.expiration);
    this.#running.set(event.id, running);
    try {
      if (!(await this.#ownLink(source, method, shared))) {
        const onProgress = (progress: Record<string, unknown>) =>
          void notify({ method: 'notifications/progress', params: { ...progress, progressToken: event.id } });
        const upstreamOptions = {
          timeoutMs: options.timeoutMs,
          signal: running.abort.signal,
          ...(options.progress && { onProgress }),
        };
        return method === 'tools/call'
          ? ((await shared.callTool(
              String(params?.name),
              (params?.arguments ?? {}) as Record<string, unknown>,
              upstreamOptions,
            )) as unknown as Record<string, unknown>)
          : await shared.request(method, params, upstreamOptions);
      }
      const input = _INPUT_METHODS.has(method) ? this.context.input : undefined;
      // A 2026-07-28 caller of a 2026-07-28 server: the shared link, told who the client is.
      const common = input && (await this.#speaksModern(source)) ? this.#o.stateless?.() : undefined;
      const link = await (common ?? this.links).get(source);
      const forwarded = input ? _withInput(params, input, common ? this.context : undefined) : params;
      return await link.request(method, forwarded, {
        id: event.id,
        notify,
        signal: running.abort.signal,
        timeoutMs: options.timeoutMs,
        // The caller maps the progress back to its client's own token.
        ...(options.progress && { progressToken: event.id }),
        // A 2026-07-28 client: a 2026-07-28 server's input-required result is the answer.
        ...(input && { returnInputRequired: true }),
      });
    } finally {
      this.#running.delete(event.id);
      this.lastUsed = this.#o.now();
      // Everything this request caused is on a relay before its answer is stored.
      await this.#chain;
    }
  }

  /**
   * Asks the caller's client `request` (an `elicitation/create`) on behalf of the request `event`,
   * before anything runs for it: a server request of that request (docs/protocol.md §10.5), answered
   * within `timeoutMs`. Resolves with the client's result; rejects with its error.
   */
  async ask(
    event: XpEvent,
    request: { method: string; params?: unknown },
    timeoutMs: number,
  ): Promise<unknown> {
    const running: _Running = {
      abort: new AbortController(),
      expiration: getExpiration(event) ?? Math.floor(this.#o.now() / 1000) + this.#o.ttlSeconds,
    };
    this.#running.set(event.id, running);
    try {
      return await this.#serverRequest(request, {
        signal: running.abort.signal,
        timeout: timeoutMs,
        relatedRequestId: event.id,
      });
    } finally {
      this.#running.delete(event.id);
      await this.#chain;
    }
  }

  /** True when `method` for `source` needs the caller's own link (see {@link request}). */
  async #ownLink(source: string, method: string, shared: ToolProvider): Promise<boolean> {
    // A source that is no MCP server (in-process handlers) has no link to open: it runs here.
    if (this.#o.transportOf(source) === undefined) return false;
    return (
      MCP_SESSION_METHODS.has(method) ||
      this.links.has(source) ||
      Object.keys(this.context.capabilities).length > 0 ||
      shared.serverCapabilities?.logging !== undefined ||
      // A 2026-07-28 client of a 2026-07-28 server: the link its callers share (an input-required
      // result is the answer); of a 2025 server, the shared session unless it could be asked.
      (this.context.input !== undefined && (await this.#speaksModern(source)))
    );
  }

  /**
   * True when the link the 2026-07-28 callers share to `source` speaks 2026-07-28, as the
   * gateway's choice (gateway-session.ts): configured (or found by the adapter's own `auto`), or
   * found when that link opened and asked the server; a server the link will not ask is not
   * opened a link for.
   */
  async #speaksModern(source: string): Promise<boolean> {
    const revision = _statelessTransport(this.#o.transportOf(source))?.revision;
    if (revision === undefined || !this.#o.stateless) return false;
    return revision === '2026-07-28' || (await this.#o.stateless().get(source)).revision !== undefined;
  }

  /** A notification of the caller's client: a cancellation, or its roots changed. */
  receive(message: McpSessionMessage): void {
    this.lastUsed = this.#o.now();
    if (message.method === 'notifications/cancelled') {
      const id = message.params?.requestId;
      const reason = message.params?.reason;
      this.#running
        .get(String(id))
        ?.abort.abort(new Error(typeof reason === 'string' ? reason : 'cancelled by the client'));
    } else if (message.method === 'notifications/roots/list_changed') {
      this.links.notifyAll(message.method);
    } else {
      this.#o.logger.debug({ method: message.method }, 'an MCP notification of the caller was ignored');
    }
  }

  /** Ends the session: running requests are cancelled (the servers are told), then the links close. */
  async close(): Promise<void> {
    for (const running of this.#running.values()) running.abort.abort(new Error('the MCP session ended'));
    await this.links.close();
  }

  /** The link's client side: everything goes to the caller as sealed events. */
  #client(): _LinkClient {
    const context = this.#o.context;
    return {
      capabilities: () => context.capabilities,
      clientInfo: () => context.clientInfo,
      notification: (message) =>
        this.#emit(message, undefined, Math.floor(this.#o.now() / 1000) + this.#o.ttlSeconds),
      request: (request, options) => this.#serverRequest(request, options),
    };
  }

  /** Publishes a notification to the caller after the session's earlier messages. */
  #emit(
    message: { method: string; params?: unknown },
    replyTo: string | undefined,
    expiration: number,
  ): Promise<void> {
    this.lastUsed = this.#o.now();
    const payload = _sessionMessage(this.context.session, message);
    this.#chain = this.#chain.then(() =>
      this.#o.xp
        .send({
          to: this.#o.caller,
          kind: MCP_NOTIFICATION_KIND,
          payload,
          expiration,
          ...(replyTo !== undefined && { replyTo }),
        })
        .then(
          () => {},
          (error: unknown) =>
            this.#o.logger.warn(
              { method: message.method, error: (error as Error).message },
              'an MCP notification to the caller was not published',
            ),
        ),
    );
    return this.#chain;
  }

  /**
   * A server's request to the client: sealed to the caller naming the request it belongs to, after
   * the session's earlier messages; its answer (or error) comes back as the server's result. When
   * the server cancels it, the caller is told so its client stops asking.
   */
  async #serverRequest(
    request: { method: string; params?: unknown },
    options: { signal: AbortSignal; timeout: number; relatedRequestId?: string | number },
  ): Promise<unknown> {
    this.lastUsed = this.#o.now();
    await this.#chain;
    const related = options.relatedRequestId === undefined ? undefined : String(options.relatedRequestId);
    const running = related === undefined ? undefined : this.#running.get(related);
    const nowMs = this.#o.now();
    const untilExpiry = running ? (running.expiration + 1) * 1000 - nowMs : _CLIENT_ANSWER_MS;
    let sent: XpEvent | undefined;
    const outcome = await this.#o.xp.call({
      to: this.#o.caller,
      kind: MCP_SERVER_REQUEST_KIND,
      payload: _sessionMessage(this.context.session, request),
      timeoutMs: Math.max(1000, Math.min(options.timeout, untilExpiry, _CLIENT_ANSWER_MS)),
      signal: options.signal,
      ...(running && related !== undefined && { replyTo: related }),
      sent: (event) => {
        sent = event;
      },
    });
    this.lastUsed = this.#o.now();
    if (outcome.ok) {
      const result = outcome.payload;
      if (result === null || typeof result !== 'object' || Array.isArray(result)) {
        throw new ProtocolError(-32603, `the client's answer to ${request.method} is not an object`);
      }
      return result;
    }
    if (options.signal.aborted && sent) {
      void this.#emit(
        {
          method: 'notifications/cancelled',
          params: { requestId: sent.id, reason: 'cancelled by the server' },
        },
        sent.id,
        getExpiration(sent) ?? Math.floor(nowMs / 1000) + this.#o.ttlSeconds,
      );
    }
    throw _mcpError(outcome.error);
  }
}

/** An MCP message of `session` as the payload of a session event. */
function _sessionMessage(session: string, message: { method: string; params?: unknown }): McpSessionMessage {
  const params = message.params;
  return params !== null && typeof params === 'object' && !Array.isArray(params)
    ? { session, method: message.method, params: params as Record<string, unknown> }
    : { session, method: message.method };
}
