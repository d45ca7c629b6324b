/**
 * The HTTP face's direct path for a session's `tools/call` (docs/performance.md, "What the profiles
 * showed"): the POST goes to the session's server without the SDK transport's Web Request and
 * Response conversion, its second JSON-RPC parse (zod) and its SSE stream, and is answered with
 * `application/json` when nothing else is sent for the call before its result, which Streamable
 * HTTP allows for any POST. When the server sends something that belongs to the call first (a log
 * message, a request to the client such as an elicitation), the answer becomes an SSE stream at
 * that moment, carrying those messages and then the result, as the SDK transport's stream would.
 *
 * Taken only when the SDK transport would take the POST as it is: one request, `tools/call`, no
 * progress token (progress streams through the SDK transport, with its resumable events), a
 * session whose `initialize` was answered, the `Accept` and `Content-Type` the transport requires
 * and the session's own `MCP-Protocol-Version` (or none). Every other POST, and each GET and
 * DELETE, goes to the SDK transport. Every check of the face (Host, Origin, authentication,
 * scopes, rate limits, ids in flight, the result size cap) has run before, or runs on `send`.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isJsonContentType, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { _serializedMessage } from './face-result-cap.js';
import { _idKey, type _JsonRpcId } from './json-rpc-body.js';

/** One call being answered directly. */
interface _Answer {
  response: ServerResponse;
  /** `json` until something is sent before the result; `sse` once the answer is a stream. */
  mode: 'json' | 'sse';
}

/** The direct answers of one HTTP session. */
export class _DirectAnswers {
  readonly #transport: NodeStreamableHTTPServerTransport;
  /** Calls answered directly and not answered yet, by id key. */
  readonly #answers = new Map<string, _Answer>();

  /**
   * Takes over `transport.send` for the calls it serves. Install it before any other wrapper of
   * `send` (the result cap, the listing filter, the request tracking), so theirs run first.
   */
  constructor(transport: NodeStreamableHTTPServerTransport) {
    this.#transport = transport;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const id = _answerId(message, options?.relatedRequestId);
      const answer = id === undefined ? undefined : this.#answers.get(_idKey(id));
      if (id === undefined || answer === undefined) return send(message, options);
      this.#write(_idKey(id), answer, message);
      return Promise.resolve();
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
    const version = request.headers['mcp-protocol-version'];
    if (version !== undefined && version !== revision) return false;
    return !this.#answers.has(_idKey(message.id as _JsonRpcId));
  }

  /** Hands the call to the session's server; its answer is written to `response`. */
  serve(message: Record<string, unknown>, response: ServerResponse): void {
    const key = _idKey(message.id as _JsonRpcId);
    const answer: _Answer = { response, mode: 'json' };
    this.#answers.set(key, answer);
    // A client that went away (or cancelled and closed) leaves nothing behind; what the server
    // still sends for the call goes the way of a closed stream (the session's standalone stream).
    response.once('close', () => {
      if (this.#answers.get(key) === answer) this.#answers.delete(key);
    });
    this.#transport.onmessage?.(message as JSONRPCMessage, {});
  }

  /** The session ended: calls still waiting are told so (a stream just ends, as the SDK's would). */
  close(): void {
    for (const [key, answer] of this.#answers) {
      this.#answers.delete(key);
      if (answer.mode === 'sse') {
        answer.response.end();
        continue;
      }
      answer.response.writeHead(404, { 'content-type': 'application/json' }).end(
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

  #write(key: string, answer: _Answer, message: JSONRPCMessage): void {
    const json = _serializedMessage(message);
    const final = !('method' in message);
    const headers = this.#headers();
    if (final) this.#answers.delete(key);
    if (answer.mode === 'json' && final) {
      answer.response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(json);
      return;
    }
    if (answer.mode === 'json') {
      answer.mode = 'sse';
      answer.response.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
    }
    answer.response.write(`event: message\ndata: ${json}\n\n`);
    if (final) answer.response.end();
  }

  #headers(): Record<string, string> {
    const session = this.#transport.sessionId;
    return session === undefined ? {} : { 'mcp-session-id': session };
  }
}

/** The id of the call a message answers or belongs to. */
function _answerId(message: JSONRPCMessage, related: string | number | undefined): _JsonRpcId | undefined {
  if (!('method' in message) && 'id' in message) return message.id as _JsonRpcId;
  return related;
}
