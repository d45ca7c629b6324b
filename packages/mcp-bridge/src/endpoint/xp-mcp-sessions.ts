/**
 * The endpoint's MCP sessions of its callers (docs/protocol.md §10.5), by caller key and the
 * caller's session id: made on the first request that carries an `mcp` tag, ended by the caller's
 * `xp.mcp.session.end`, or closed after a while unused. Bounded: a caller may keep a few sessions
 * and the endpoint a few more; when full, the least recently used idle session is closed, and a
 * request that finds every session busy is refused (`RATE_LIMITED`), never queued without end.
 * @module
 */
import type { PublicIdentity } from '@xprotocol/crypto';
import {
  type McpSessionContext,
  type McpSessionMessage,
  type XpErrorPayload,
  xpError,
} from '@xprotocol/wire';
import type { XpCaller } from '../caller/xp-caller.js';
import { _LinkSet } from '../gateway/gateway-links.js';
import { _STATELESS_CLIENT, _statelessTransport } from '../gateway/gateway-stateless-client.js';
import type { BridgeLogger } from '../logger.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';
import { _XpCallerSession } from './xp-mcp-caller-session.js';

/** Limits of the endpoint's MCP sessions. */
export interface McpSessionLimits {
  /** Sessions one caller key may keep. Default 16. */
  perCaller?: number;
  /** Sessions the endpoint keeps in all. Default 128. */
  total?: number;
  /** A session unused this long is closed, in ms. Default 30 minutes. */
  idleMs?: number;
}

/** Options of {@link _XpMcpSessions}. */
export interface _XpMcpSessionsOptions extends McpSessionLimits {
  xp: XpCaller;
  transportOf: (source: string) => UpstreamTransport | undefined;
  clientInfo: { name: string; version: string };
  timeoutMs: number;
  ttlSeconds: number;
  logger: BridgeLogger;
  now: () => number;
}

/** The endpoint's caller sessions. */
export class _XpMcpSessions {
  readonly #o: Required<_XpMcpSessionsOptions>;
  readonly #sessions = new Map<string, _XpCallerSession>();
  readonly #sweep: NodeJS.Timeout;
  /** Links to 2026-07-28 servers that the sessions of 2026-07-28 callers share (made on first use). */
  #stateless: _LinkSet | undefined;

  constructor(options: _XpMcpSessionsOptions) {
    this.#o = { perCaller: 16, total: 128, idleMs: 30 * 60_000, ...options };
    this.#sweep = setInterval(() => this.#closeIdle(), Math.min(60_000, this.#o.idleMs));
    this.#sweep.unref();
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#sessions.size;
  }

  /** The caller's session `context.session`, made when new; an `xp.error` payload when full. */
  session(caller: PublicIdentity, context: McpSessionContext): _XpCallerSession | XpErrorPayload {
    const key = _key(caller.ed25519, context.session);
    const known = this.#sessions.get(key);
    if (known) return known;
    const mine = [...this.#sessions.entries()].filter(([k]) => k.startsWith(`${caller.ed25519} `));
    if (mine.length >= this.#o.perCaller && !this.#evict(mine)) {
      return xpError('RATE_LIMITED', `this key already has ${mine.length} MCP sessions here, all busy`, {
        retry_after: 5,
      });
    }
    if (this.#sessions.size >= this.#o.total && !this.#evict([...this.#sessions.entries()])) {
      return xpError('RATE_LIMITED', `the endpoint has ${this.#sessions.size} MCP sessions, all busy`, {
        retry_after: 5,
      });
    }
    const session = new _XpCallerSession({
      ...this.#o,
      caller,
      context,
      stateless: () => this.#statelessLinks(),
    });
    this.#sessions.set(key, session);
    return session;
  }

  /** A notification of the caller's client (cancellation, roots changed) for its session. */
  receive(caller: string, message: McpSessionMessage): boolean {
    const session = this.#sessions.get(_key(caller, message.session));
    session?.receive(message);
    return session !== undefined;
  }

  /** The caller ended its session. */
  async end(caller: string, sessionId: string): Promise<boolean> {
    const key = _key(caller, sessionId);
    const session = this.#sessions.get(key);
    if (!session) return false;
    this.#sessions.delete(key);
    await session.close();
    return true;
  }

  /** Closes every session (the endpoint stops). */
  async close(): Promise<void> {
    clearInterval(this.#sweep);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled([...all.map((session) => session.close()), this.#stateless?.close()]);
  }

  /**
   * The shared links (docs/protocol.md §10.5, "Both MCP revisions"): a 2026-07-28 server keeps no
   * session, and may hand out state that only the same process can check, so its 2026-07-28
   * callers' requests all go to one link.
   */
  #statelessLinks(): _LinkSet {
    this.#stateless ??= new _LinkSet({
      shared: true,
      client: _STATELESS_CLIENT,
      // A server that speaks both revisions gives these callers its 2026-07-28 behaviour.
      transportOf: (source) => _statelessTransport(this.#o.transportOf(source)),
      clientInfo: this.#o.clientInfo,
      timeoutMs: this.#o.timeoutMs,
      logger: this.#o.logger,
    });
    return this.#stateless;
  }

  /** Closes the least recently used idle session among `candidates`; false when all are busy. */
  #evict(candidates: [string, _XpCallerSession][]): boolean {
    const idle = candidates.filter(([, s]) => !s.busy).sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
    if (!idle) return false;
    this.#sessions.delete(idle[0]);
    this.#o.logger.info({ session: idle[1].context.session }, 'closing the least recently used MCP session');
    void idle[1].close();
    return true;
  }

  #closeIdle(): void {
    const now = this.#o.now();
    for (const [key, session] of this.#sessions) {
      if (session.busy || now - session.lastUsed < this.#o.idleMs) continue;
      this.#sessions.delete(key);
      void session.close();
    }
  }
}

function _key(caller: string, session: string): string {
  return `${caller} ${session}`;
}
