/**
 * The 2025-11-25 sessions of the HTTP face: one SDK transport and one face server per MCP client,
 * made on its `initialize`. Sessions are shared fairly between principals (docs/security.md, "Fair
 * shares between principals"): each principal may hold a few, and all together up to a ceiling. A
 * principal over its share, or at the ceiling, ends its own least recently used session that has
 * no request in flight (its client gets `404`, as the Streamable HTTP spec says); when it has none,
 * the new session is refused — never another principal's session ended. A session with nothing in
 * flight and no open stream ends after a while unused, so an abandoned one does not hold a share.
 * Each session keeps what it sent in a bounded event store (a client whose stream dropped resumes
 * it with `Last-Event-ID`), follows its requests in flight (json-rpc-in-flight.ts), learns its
 * protocol revision from its `initialize` answer, and — with OAuth — shows and serves each
 * request's principal only what it may use.
 * @module
 */
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { FaceAuth, FacePrincipal } from '../auth/face-auth.js';
import type { McpFace } from '../face/mcp-face.js';
import type { _CapLimits, _CapRefusal, _PrincipalCaps } from '../gateway/principal-caps.js';
import type { BridgeLogger } from '../logger.js';
import { _DirectAnswers } from './direct-answers.js';
import { _faceEventStore } from './event-store.js';
import { _capsKey } from './http-limits.js';
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
  /** Whose share of the sessions this one is (`undefined`: the face's one principal). */
  share: string | undefined;
  /** The session's `tools/call` POSTs answered without the SDK transport (direct-answers.ts). */
  direct: _DirectAnswers;
  /** When a request last came, or a stream of the session last ended (ms since the epoch). */
  lastUsed: number;
  /** Streams of the session open now (GETs: its client is there, listening). */
  streams: number;
  /** True once `initialize` gave it an id; until then it holds its share as one being opened. */
  admitted: boolean;
}

/** Options of {@link _HttpSessions}. */
interface _HttpSessionsOptions {
  face: McpFace;
  auth: FaceAuth | undefined;
  /** Sessions per principal and in all. */
  limits: _CapLimits;
  /** A session with nothing in flight and no open stream ends after this long unused, in ms. */
  idleMs: number;
  /** The face's requests in flight, per principal and in all. */
  inFlight: _PrincipalCaps;
  maxResultBytes: number;
  logger: BridgeLogger;
  now?: () => number;
}

/** The live sessions of one HTTP face, by session id. */
export class _HttpSessions {
  readonly #o: _HttpSessionsOptions;
  readonly #now: () => number;
  /** Admitted sessions, least recently used first. */
  readonly #sessions = new Map<string, _HttpSession>();
  /** Sessions whose `initialize` is being answered: they count, so that a burst cannot pass the caps. */
  readonly #opening = new Set<_HttpSession>();
  readonly #sweep: NodeJS.Timeout;

  constructor(options: _HttpSessionsOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#sweep = setInterval(() => this.#endIdle(), Math.min(60_000, options.idleMs));
    this.#sweep.unref();
  }

  /** The session `id` names, while it lives; using it makes it the most recently used. */
  get(id: string): _HttpSession | undefined {
    const session = this.#sessions.get(id);
    if (session) {
      session.lastUsed = this.#now();
      this.#sessions.delete(id);
      this.#sessions.set(id, session);
    }
    return session;
  }

  /**
   * Starts a session for an `initialize` request of `principal`; it counts at once, and lives
   * once initialized ({@link settle} forgets it otherwise). Over the principal's share or the
   * ceiling, the principal's own least recently used session without a request in flight ends
   * first; without one, the refusal.
   */
  async open(
    principal: FacePrincipal | undefined,
  ): Promise<{ ok: true; session: _HttpSession } | { ok: false; refusal: _CapRefusal }> {
    const share = _capsKey(principal);
    const refusal = this.#makeRoom(share);
    if (refusal) return { ok: false, refusal };
    const session = this.#create(principal, share);
    this.#opening.add(session);
    try {
      await session.server.connect(session.transport);
    } catch (error) {
      this.#opening.delete(session);
      throw error;
    }
    _trackRequests(session);
    return { ok: true, session };
  }

  /** A stream of `session` opened on `response` (a GET): the session is not idle while it lasts. */
  streaming(session: _HttpSession, response: { once(event: 'close', listener: () => void): unknown }): void {
    session.streams++;
    response.once('close', () => {
      session.streams--;
      session.lastUsed = this.#now();
    });
  }

  /**
   * The `initialize` POST of `session` was answered: a session that got no id (its `initialize`
   * was refused) is forgotten and its server closed.
   */
  settle(session: _HttpSession): void {
    if (!this.#opening.delete(session) || session.admitted) return;
    void session.server.close();
  }

  /** Ends every session (the face is closing). */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweep);
    const live = [...this.#sessions.values(), ...this.#opening];
    this.#sessions.clear();
    this.#opening.clear();
    await Promise.allSettled(live.map(({ server }) => server.close()));
  }

  /** A new session's transport and server, its wrappers of `send` installed. */
  #create(principal: FacePrincipal | undefined, share: string | undefined): _HttpSession {
    const { face, auth, maxResultBytes } = this.#o;
    // Rate limits are taken by the HTTP face, per principal, so that a refusal can be a 429. With
    // auth, each request's principal (request-principal.ts) sees and uses only what it may.
    const server = face.createServer({
      rateLimits: 'caller',
      principal: share,
      ...(auth && { mayUse: _mayUse(auth) }),
    });
    const eventStore = _faceEventStore();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      // A client whose stream dropped mid-call resumes it with Last-Event-ID, missing nothing.
      eventStore,
      retryInterval: RETRY_INTERVAL_MS,
      onsessioninitialized: (id) => this.#admit(id, session),
      onsessionclosed: (id) => this.#forget(id, session),
    });
    // First of the wrappers of `send`: the others (cap, tracking) run before it.
    const direct = new _DirectAnswers(transport, eventStore, RETRY_INTERVAL_MS);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#forget(transport.sessionId, session);
      direct.close();
    };
    const session: _HttpSession = {
      transport,
      server,
      inFlight: new _InFlightIds({ caps: this.#o.inFlight, principal: share }),
      revision: undefined,
      principal: principal?.id,
      share,
      direct,
      lastUsed: this.#now(),
      streams: 0,
      admitted: false,
    };
    _fallBackToStandaloneStream(transport);
    _capResults(transport, maxResultBytes);
    return session;
  }

  /** Keeps the session `id` just initialized. */
  #admit(id: string, session: _HttpSession): void {
    session.admitted = true;
    this.#opening.delete(session);
    this.#sessions.set(id, session);
  }

  /** The session `id` ended: it no longer counts, and what it had in flight is freed. */
  #forget(id: string, session: _HttpSession): void {
    if (this.#sessions.get(id) === session) this.#sessions.delete(id);
    session.inFlight.clear();
  }

  /**
   * Room for one more session of `share`: under both caps as it is, or after ending the
   * principal's own least recently used session that has nothing in flight; the refusal otherwise.
   */
  #makeRoom(share: string | undefined): _CapRefusal | undefined {
    const { limits, logger } = this.#o;
    const mine = this.#held(share);
    const all = this.#sessions.size + this.#opening.size;
    const over: _CapRefusal | undefined =
      share !== undefined && mine >= limits.perPrincipal
        ? { scope: 'principal', held: mine, limit: limits.perPrincipal }
        : all >= limits.total
          ? { scope: 'total', held: all, limit: limits.total }
          : undefined;
    if (!over) return undefined;
    const idle = [...this.#sessions].find(([, s]) => s.share === share && s.inFlight.size === 0);
    if (!idle) return over;
    const [id, session] = idle;
    this.#sessions.delete(id);
    logger.warn(
      { session: id, held: over.held, limit: over.limit, scope: over.scope },
      'too many MCP sessions: the principal opening one more ends its least recently used idle session',
    );
    void session.server.close();
    return undefined;
  }

  /** How many sessions `share` holds, being opened or live (the face's one principal: all of them). */
  #held(share: string | undefined): number {
    let held = 0;
    for (const session of this.#sessions.values()) if (session.share === share) held++;
    for (const session of this.#opening) if (session.share === share) held++;
    return held;
  }

  /** Ends the sessions with nothing in flight and no open stream, unused for `idleMs`. */
  #endIdle(): void {
    const now = this.#now();
    for (const [id, session] of this.#sessions) {
      if (session.inFlight.size > 0 || session.streams > 0 || now - session.lastUsed < this.#o.idleMs)
        continue;
      this.#sessions.delete(id);
      this.#o.logger.info({ session: id }, 'an idle MCP session ends');
      void session.server.close();
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
