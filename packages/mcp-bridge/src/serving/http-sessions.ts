/**
 * The 2025-11-25 sessions of the HTTP face: one SDK transport and one face server per MCP client,
 * made on its `initialize` (beyond `maxSessions` the oldest ends and its client gets `404`, as
 * the Streamable HTTP spec says). Each session keeps what it sent in a bounded event store (a
 * client whose stream dropped resumes it with `Last-Event-ID`), follows its requests in flight
 * (json-rpc-in-flight.ts), learns its protocol revision from its `initialize` answer, and — with
 * OAuth — shows and serves each request's principal only what it may use.
 * @module
 */
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { FaceAuth } from '../auth/face-auth.js';
import type { McpFace } from '../face/mcp-face.js';
import type { BridgeLogger } from '../logger.js';
import { _DirectAnswers } from './direct-answers.js';
import { _faceEventStore } from './event-store.js';
import type { _JsonRpcId } from './json-rpc-body.js';
import { _InFlightIds } from './json-rpc-in-flight.js';
import { _mayUse } from './request-principal.js';
import { _capResults } from './result-cap.js';

/** The `retry` (ms) the face suggests to a client reconnecting a dropped stream. */
const RETRY_INTERVAL_MS = 1000;

/** What the face keeps per HTTP session: its transport, server, ids in flight and revision. */
export interface _HttpSession {
  transport: NodeStreamableHTTPServerTransport;
  server: ReturnType<McpFace['createServer']>;
  inFlight: _InFlightIds;
  /** The protocol revision the session's `initialize` answer chose. */
  revision: string | undefined;
  /** The principal that opened the session: only it may use the session. */
  principal: string | undefined;
  /** The session's `tools/call` POSTs answered without the SDK transport (direct-answers.ts). */
  direct: _DirectAnswers;
}

/** Options of {@link _HttpSessions}. */
interface _HttpSessionsOptions {
  face: McpFace;
  auth: FaceAuth | undefined;
  /** Most sessions at once; beyond it the oldest ends. */
  maxSessions: number;
  maxResultBytes: number;
  logger: BridgeLogger;
}

/** The live sessions of one HTTP face, by session id. */
export class _HttpSessions {
  readonly #o: _HttpSessionsOptions;
  /** In the order they were initialized: the first is the oldest. */
  readonly #sessions = new Map<string, _HttpSession>();

  constructor(options: _HttpSessionsOptions) {
    this.#o = options;
  }

  /** The session `id` names, while it lives. */
  get(id: string): _HttpSession | undefined {
    return this.#sessions.get(id);
  }

  /** Starts a session for an `initialize` request of `principal`; it counts once initialized. */
  async open(principal: string | undefined): Promise<_HttpSession> {
    const { face, auth, maxResultBytes } = this.#o;
    // Rate limits are taken here, per HTTP session, so that a refusal can be a 429. With auth,
    // each request's principal (request-principal.ts) sees and uses only what it may.
    const server = face.createServer({ rateLimits: 'caller', ...(auth && { mayUse: _mayUse(auth) }) });
    const eventStore = _faceEventStore();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      // A client whose stream dropped mid-call resumes it with Last-Event-ID, missing nothing.
      eventStore,
      retryInterval: RETRY_INTERVAL_MS,
      onsessioninitialized: (id) => this.#admit(id, session),
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    // First of the wrappers of `send`: the others (cap, tracking) run before it.
    const direct = new _DirectAnswers(transport, eventStore, RETRY_INTERVAL_MS);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
      direct.close();
    };
    const session: _HttpSession = {
      transport,
      server,
      inFlight: new _InFlightIds(),
      revision: undefined,
      principal,
      direct,
    };
    _fallBackToStandaloneStream(transport);
    _capResults(transport, maxResultBytes);
    await server.connect(transport);
    _trackRequests(session);
    return session;
  }

  /** Ends every session (the face is closing). */
  async closeAll(): Promise<void> {
    const live = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(live.map(({ server }) => server.close()));
  }

  /** Keeps the session `id` just initialized; beyond `maxSessions` the oldest one ends. */
  #admit(id: string, session: _HttpSession): void {
    const { maxSessions, logger } = this.#o;
    this.#sessions.set(id, session);
    if (this.#sessions.size > maxSessions) {
      const [oldestId, oldest] = this.#sessions.entries().next().value as [string, _HttpSession];
      this.#sessions.delete(oldestId);
      logger.warn({ session: oldestId, maxSessions }, 'too many MCP sessions: the oldest one ends');
      void oldest.server.close();
    }
  }
}

/**
 * A message about a client request that was already answered (a gateway upstream's late log
 * message, or its cancellation of a request it sent the client) has no stream left to travel
 * on; the SDK transport refuses it. It is sent on the session's standalone stream instead, so
 * the client still gets it. Responses are never rerouted.
 */
function _fallBackToStandaloneStream(transport: NodeStreamableHTTPServerTransport): void {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } catch (error) {
      if (options?.relatedRequestId === undefined || !('method' in message)) throw error;
      const { relatedRequestId: _gone, ...rest } = options;
      await send(message, rest);
    }
  };
}

/**
 * Follows a session's requests: an id is delivered when the transport hands it to the server and
 * done when the server answers it or the client cancels it; the `initialize` answer gives the
 * session's protocol revision.
 */
function _trackRequests(session: _HttpSession): void {
  const { transport, inFlight } = session;
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as Record<string, unknown>;
    if (typeof m.method === 'string' && m.id !== undefined) inFlight.delivered(m.id as _JsonRpcId);
    if (m.method === 'notifications/cancelled') {
      const requestId = (m.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        inFlight.done(requestId);
        session.direct.cancelled(requestId);
      }
    }
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    const m = message as Record<string, unknown>;
    if (!('method' in m) && m.id !== undefined) {
      const version = (m.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (typeof version === 'string' && session.revision === undefined) session.revision = version;
      inFlight.done(m.id as _JsonRpcId);
    }
    return send(message, options);
  };
}
