/**
 * The HTTP face's direct path for a session's `tools/call` (docs/performance.md, "What the
 * profiles showed, and what changed"): the POST goes to the session's server without the SDK
 * transport's Web Request and Response conversion, its second JSON-RPC parse (zod) and its stream
 * machinery, and is answered with `application/json` when the result comes first and soon, which
 * Streamable HTTP allows for any POST. The answer becomes an SSE stream, resumable like the SDK transport's (a priming event with
 * an id and `retry`, every event kept in the session's event store, `Last-Event-ID` on a GET
 * replays what a dropped connection missed and carries on), as soon as the server sends something
 * for the call before its result (a log message, a request to the client such as an elicitation),
 * or when the call has not been answered within {@link JSON_WINDOW_MS}.
 *
 * Taken only when the SDK transport would take the POST as it is: one request, `tools/call`, no
 * progress token (progress streams through the SDK transport), a session whose `initialize` was
 * answered, the `Accept` and `Content-Type` the transport requires and the session's own
 * `MCP-Protocol-Version` (or none). Every other POST, each DELETE, and each GET but the resumption
 * of a direct stream go to the SDK transport. Every check of the face (Host, Origin,
 * authentication, scopes, rate limits, ids in flight, the result size cap) has run before, or runs
 * on `send`; the call reaches the server with the request's principal, as through the SDK
 * transport, so `search_tools` finds only what that principal may call.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  type EventStore,
  isJsonContentType,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { _idKey, type _JsonRpcId } from './json-rpc-body.js';
import { _serializedMessage } from './result-cap.js';

/**
 * How long a direct call may run and still be answered as JSON, in ms. A client whose connection
 * drops before its answer can resume only a stream; a call still running after this long becomes
 * one, so a long call stays resumable.
 */
export const JSON_WINDOW_MS = 500;

/** The prefix of the stream ids of direct answers (event ids start with their stream's id). */
const _STREAM_PREFIX = 'direct-';

/** One call being answered directly. */
interface _Answer {
  /** Where the answer goes; none while a stream's client is away (its events are kept). */
  response: ServerResponse | undefined;
  /** `json` until it streams; `sse` once its head and priming event were sent. */
  mode: 'json' | 'sse';
  /** The stream's id in the event store (`sse`). */
  stream: string | undefined;
  /** Writes of the stream, in order (each event is stored before it is written). */
  chain: Promise<void>;
  /** Turns a call still unanswered into a stream. */
  timer: NodeJS.Timeout | undefined;
}

/** The direct answers of one HTTP session. */
export class _DirectAnswers {
  readonly #transport: NodeStreamableHTTPServerTransport;
  readonly #store: EventStore;
  readonly #retryMs: number;
  /** Calls answered directly and not answered yet, by id key. */
  readonly #answers = new Map<string, _Answer>();
  /** The same calls once they stream, by stream id (for resumption). */
  readonly #streams = new Map<string, _Answer>();
  /** Calls the client cancelled: no answer comes; their connections stay open until the session ends. */
  readonly #cancelled = new Set<_Answer>();

  /**
   * Takes over `transport.send` for the calls it serves. Install it before any other wrapper of
   * `send` (the result cap, the request tracking), so theirs run first.
   * `store` is the session's event store and `retryMs` the `retry` it suggests, as given to the
   * SDK transport.
   */
  constructor(transport: NodeStreamableHTTPServerTransport, store: EventStore, retryMs: number) {
    this.#transport = transport;
    this.#store = store;
    this.#retryMs = retryMs;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const id = _answerId(message, options?.relatedRequestId);
      const key = id === undefined ? undefined : _idKey(id);
      const answer = key === undefined ? undefined : this.#answers.get(key);
      if (key === undefined || answer === undefined) return send(message, options);
      return this.#send(key, answer, message);
    };
  }

  /** True when the POST `request` with its one message `message` can be answered directly. */
  takes(request: IncomingMessage, message: Record<string, unknown>, revision: string | undefined): boolean {
    if (revision === undefined || message.method !== 'tools/call' || message.id === undefined) return false;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    if (meta !== undefined && meta !== null && meta.progressToken !== undefined) return false;
    const accept = request.headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
    if (!isJsonContentType(request.headers['content-type'] ?? null)) return false;
    if (!_sameRevision(request, revision)) return false;
    return !this.#answers.has(_idKey(message.id as _JsonRpcId));
  }

  /**
   * Hands the call to the session's server, with the request's auth info (its principal, whose
   * scopes the server's handlers follow, as behind the SDK transport) and its `traceparent` header
   * (a trace the face's span joins); its answer is written to `response`.
   */
  serve(
    message: Record<string, unknown>,
    response: ServerResponse,
    authInfo: AuthInfo | undefined,
    traceparent?: string | undefined,
  ): void {
    const key = _idKey(message.id as _JsonRpcId);
    const answer: _Answer = {
      response,
      mode: 'json',
      stream: undefined,
      chain: Promise.resolve(),
      timer: undefined,
    };
    answer.timer = setTimeout(() => this.#startStream(answer), JSON_WINDOW_MS);
    this.#answers.set(key, answer);
    response.once('close', () => {
      if (answer.response === response) answer.response = undefined;
      // Without a stream the client has no event id to resume from: what the server still
      // sends for the call goes the way of a closed stream (the session's standalone stream).
      if (answer.mode === 'json' && this.#answers.get(key) === answer) this.#forget(key, answer);
    });
    this.#transport.onmessage?.(message as JSONRPCMessage, {
      ...(authInfo !== undefined && { authInfo }),
      // No Web Request is built on this path; a trace context header is the one thing the
      // handler reads from it (face-trace.ts), so only then is there one, holding only that.
      ...(traceparent !== undefined && {
        request: new Request('http://face.invalid/', { headers: { traceparent } }),
      }),
    });
  }

  /**
   * The client cancelled the call `id` (`notifications/cancelled`): it gets no answer, as on the
   * SDK transport's stream, and its id may be used again by a new request.
   */
  cancelled(id: _JsonRpcId): void {
    const key = _idKey(id);
    const answer = this.#answers.get(key);
    if (!answer) return;
    this.#forget(key, answer);
    if (answer.stream !== undefined && this.#streams.get(answer.stream) === answer)
      this.#streams.delete(answer.stream);
    if (!answer.response) return;
    this.#cancelled.add(answer);
    answer.response.once('close', () => this.#cancelled.delete(answer));
  }

  /** True for a `Last-Event-ID` of a direct stream that this GET `request` may resume here. */
  resumes(request: IncomingMessage, revision: string | undefined): boolean {
    const last = request.headers['last-event-id'];
    return (
      typeof last === 'string' &&
      last.startsWith(_STREAM_PREFIX) &&
      request.headers.accept?.includes('text/event-stream') === true &&
      revision !== undefined &&
      _sameRevision(request, revision)
    );
  }

  /**
   * Resumes a direct stream after `Last-Event-ID`: the events stored after it, then (when the
   * call is still running) what comes next. An id the store no longer knows replays nothing.
   */
  async resume(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const last = request.headers['last-event-id'] as string;
    const stream = await this.#store.getStreamIdForEventId?.(last);
    const answer = stream === undefined ? undefined : this.#streams.get(stream);
    response.writeHead(200, this.#streamHead());
    const replay = async () => {
      await this.#store.replayEventsAfter(last, {
        send: async (eventId, message) => _write(response, _event(eventId, message)),
      });
      if (!answer || stream === undefined || this.#streams.get(stream) !== answer) {
        response.end();
        return;
      }
      // The call still runs: what comes next goes to this connection.
      if (answer.response !== response) answer.response?.end();
      answer.response = response;
      response.once('close', () => {
        if (answer.response === response) answer.response = undefined;
      });
    };
    if (!answer) return replay();
    answer.chain = answer.chain.then(replay);
    await answer.chain;
  }

  /**
   * The session ended: a call still in its JSON window is told so (404, as the SDK transport
   * answers a closed session); a stream just ends, as the SDK's would.
   */
  close(): void {
    const open = new Set([...this.#answers.values(), ...this.#streams.values(), ...this.#cancelled]);
    for (const [key, answer] of this.#answers) this.#forget(key, answer);
    this.#streams.clear();
    this.#cancelled.clear();
    for (const { response } of open) {
      if (!response || response.writableEnded) continue;
      if (response.headersSent) {
        response.end();
        continue;
      }
      response.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: {
            code: -32001,
            message: 'Session not found: the session ended before the call was answered',
          },
          id: null,
        }),
      );
    }
  }

  /** Sends one message of the call: its result, or something that makes the answer a stream. */
  #send(key: string, answer: _Answer, message: JSONRPCMessage): Promise<void> {
    const final = !('method' in message);
    if (final) this.#forget(key, answer);
    if (answer.mode === 'json' && final) {
      const response = answer.response;
      if (response && !response.writableEnded)
        response
          .writeHead(200, { ...this.#sessionHeader(), 'content-type': 'application/json' })
          .end(_serializedMessage(message));
      return Promise.resolve();
    }
    this.#startStream(answer);
    const stream = answer.stream!;
    answer.chain = answer.chain.then(async () => {
      const eventId = await this.#store.storeEvent(stream, message);
      _write(answer.response, _event(eventId, message));
      if (!final) return;
      // Only now: a resumption that comes before this event was stored must still find the call.
      if (this.#streams.get(stream) === answer) this.#streams.delete(stream);
      answer.response?.end();
    });
    return answer.chain;
  }

  /** Makes the answer a stream: its head now, then a priming event whose id a client can resume from. */
  #startStream(answer: _Answer): void {
    if (answer.mode === 'sse') return;
    answer.mode = 'sse';
    const stream = `${_STREAM_PREFIX}${randomUUID()}`;
    answer.stream = stream;
    this.#streams.set(stream, answer);
    if (answer.response && !answer.response.headersSent) answer.response.writeHead(200, this.#streamHead());
    answer.chain = answer.chain.then(async () => {
      const primingId = await this.#store.storeEvent(stream, {} as JSONRPCMessage);
      _write(answer.response, `id: ${primingId}\nretry: ${this.#retryMs}\ndata: \n\n`);
    });
  }

  /** The call is answered (or its client gone without a stream): no more of its messages come here. */
  #forget(key: string, answer: _Answer): void {
    clearTimeout(answer.timer);
    if (this.#answers.get(key) === answer) this.#answers.delete(key);
  }

  #streamHead(): Record<string, string> {
    return {
      ...this.#sessionHeader(),
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    };
  }

  #sessionHeader(): Record<string, string> {
    const session = this.#transport.sessionId;
    return session === undefined ? {} : { 'mcp-session-id': session };
  }
}

/** Writes `text` to `response` unless it is gone or ended. */
function _write(response: ServerResponse | undefined, text: string): void {
  if (response && !response.writableEnded && !response.destroyed) response.write(text);
}

/** The id of the call a message answers or belongs to. */
function _answerId(message: JSONRPCMessage, related: string | number | undefined): _JsonRpcId | undefined {
  if (!('method' in message) && 'id' in message) return message.id as _JsonRpcId;
  return related;
}

/** No `MCP-Protocol-Version`, or the session's own (any other is the SDK transport's to judge). */
function _sameRevision(request: IncomingMessage, revision: string): boolean {
  const version = request.headers['mcp-protocol-version'];
  return version === undefined || version === revision;
}

function _event(eventId: string, message: JSONRPCMessage): string {
  return `event: message\nid: ${eventId}\ndata: ${_serializedMessage(message)}\n\n`;
}
