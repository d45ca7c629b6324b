/**
 * The caller's side of MCP sessions across XProtocol (docs/protocol.md §10.5): each MCP client of
 * the face gets a random session id, sent in the encrypted `mcp` tag of every request made for it;
 * what the endpoints send back for that session — progress, log messages, resource updates, the
 * servers' sampling, elicitation and roots requests — reaches that client, on the stream of the
 * request it belongs to (the event named in its `e` tag), and the client's answers go back sealed.
 * The client's cancellations go to the endpoint, and its session's end too.
 *
 * Nothing is taken on trust: an event must verify, decrypt, name a live session of this face, come
 * from an endpoint that session talked to, and be new (relays may deliver a copy more than once).
 *
 * A session's end is best-effort: closing the face waits a little for the relays to take the
 * `xp.mcp.session.end` events of the sessions that just ended (so the endpoints free them now, not
 * when they idle out), and a one-way message the closing relay pool could not take is logged at
 * debug, not as a warning.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { ProtocolError, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { getExpiration, getTag, isExpired, type PublicIdentity, type XpEvent } from '@xprotocol/crypto';
import type { Subscription } from '@xprotocol/relay-client';
import {
  ERROR_KIND,
  MCP_NOTIFICATION_KIND,
  MCP_SERVER_REQUEST_KIND,
  MCP_SERVER_REQUEST_RESULT_KIND,
  MCP_SESSION_END_KIND,
  type McpSessionContext,
  type McpSessionInput,
  type McpSessionMessage,
  parseMcpSessionMessage,
  xpError,
} from '@xprotocol/wire';
import {
  _contextRequest,
  type _LinkClient,
  type _LinkRequest,
  _serverClient,
} from '../gateway/gateway-link.js';
import { _Leases } from '../gateway/leases.js';
import { _modernRequest } from '../gateway/modern-request.js';
import type { _PrincipalCaps } from '../gateway/principal-caps.js';
import type { BridgeLogger } from '../logger.js';
import type { XpCaller } from './xp-caller.js';

/** Options of {@link _XpBackChannel}. */
export interface _XpBackChannelOptions {
  /** The face's caller: its keys, relays and sealing. */
  caller: XpCaller;
  logger: BridgeLogger;
  /** How long a 2026-07-28 client's call waits for its next round (gateway/leases.ts), in ms. Default 60000. */
  leaseTimeoutMs?: number;
  /** The face's leases by principal, shared with its gateway's (gateway/principal-caps.ts). */
  leaseCaps?: _PrincipalCaps;
  /** The principal a face server answers, for its share of the leases (`undefined`: the face's one principal). */
  principalOf?: (server: Server) => string | undefined;
  now?: () => number;
}

/** What a request across XProtocol is sent with: its session at the endpoint, and its cancellation. */
export interface _AcrossSession {
  /** Aborted when the client cancels. */
  signal: AbortSignal;
  /** The session context for the `mcp` tag, and what to call with the sealed event; absent for none. */
  mcp?: { context: McpSessionContext; sent: (event: XpEvent) => void };
}

/** A client request of the face waiting on an endpoint. */
interface _Waiting {
  request: _LinkRequest;
  /** The endpoint the request went to. */
  endpoint: string;
}

/** One MCP client of the face. */
interface _FaceSession {
  id: string;
  /** The client: a face session's server, or the lease of a 2026-07-28 call. */
  client: _LinkClient;
  /** The endpoints this session sent requests to, by `ed25519:` key. */
  endpoints: Map<string, PublicIdentity>;
  /** Requests waiting on an endpoint, by the id of the event that carried them. */
  waiting: Map<string, _Waiting>;
  /** Server requests the client is answering, by event id (cancelled if the server gives up). */
  answering: Map<string, AbortController>;
}

/** What the face does with a server's request: the client capability each one needs. */
const _SERVER_REQUESTS: Record<string, string> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** Notifications passed to the client (the face lists tools itself and announces their changes). */
const _NOTIFICATIONS = new Set([
  'notifications/progress',
  'notifications/message',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/cancelled',
]);

/** How many event ids are remembered to drop copies. */
const _SEEN = 4096;
/** How long the client may take to answer a server's request, at most (a person may be answering). */
const _CLIENT_ANSWER_MS = 60 * 60 * 1000;
/** Lifetime of the face's own one-way messages (cancellations, session end), in s. */
const _MESSAGE_TTL = 300;
/**
 * How long closing the face waits, at most, for a relay to take the session ends still being
 * published, in ms. A relay on the same machine answers in milliseconds; one that does not answer
 * must not hold the stop for long (the endpoint ends an idle session itself).
 */
const _CLOSE_GRACE_MS = 2000;

/** The face's MCP sessions across XProtocol. */
export class _XpBackChannel {
  readonly #o: _XpBackChannelOptions;
  readonly #now: () => number;
  /** Sessions by what owns them: a face session's server, or a lease's client. */
  readonly #byOwner = new WeakMap<object, _FaceSession>();
  /** 2026-07-28 calls waiting for their clients' input (made on first use). */
  #leases: _Leases | undefined;
  readonly #sessions = new Map<string, _FaceSession>();
  readonly #seen = new Set<string>();
  /** Session ends being published (each settles, never rejects). */
  readonly #ending = new Set<Promise<void>>();
  /** Set by {@link close}: from then on a message that is not published is logged at debug. */
  #closing = false;
  #subscription: Subscription | undefined;

  constructor(options: _XpBackChannelOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Starts a request of `server`'s client to `endpoint`: the session context to send with it,
   * `sent` to call with the sealed event (from then on the endpoint's messages about it reach the
   * request's stream, and the client's cancellation reaches the endpoint), and `done` when answered.
   */
  begin(
    owner: Server | _LinkClient,
    request: _LinkRequest | undefined,
    endpoint: PublicIdentity,
    input?: McpSessionInput,
  ): { context: McpSessionContext; sent: (event: XpEvent) => void; done: () => void } {
    this.#listen();
    const session = this.#session(owner);
    session.endpoints.set(endpoint.ed25519, endpoint);
    const token = request?.progressToken;
    const info = session.client.clientInfo();
    const context: McpSessionContext = {
      session: session.id,
      capabilities: _answerable((session.client.capabilities() ?? {}) as Record<string, unknown>),
      ...(info && { clientInfo: { name: info.name, version: info.version } }),
      ...(token !== undefined && { progress: true }),
      ...(input && { input }),
    };
    let eventId: string | undefined;
    const onAbort = () => {
      if (eventId === undefined || !session.waiting.has(eventId)) return;
      void this.#tell(
        endpoint,
        MCP_NOTIFICATION_KIND,
        {
          session: session.id,
          method: 'notifications/cancelled',
          params: {
            requestId: eventId,
            reason: String(request?.signal.reason ?? 'cancelled by the client'),
          },
        },
        eventId,
      );
    };
    return {
      context,
      sent: (event) => {
        eventId = event.id;
        if (!request) return;
        session.waiting.set(event.id, { request, endpoint: endpoint.ed25519 });
        request.signal.addEventListener('abort', onAbort, { once: true });
      },
      done: () => {
        request?.signal.removeEventListener('abort', onAbort);
        if (eventId !== undefined) session.waiting.delete(eventId);
      },
    };
  }

  /**
   * Sends a request of the client of `server` (its request `ctx`) to `endpoint` with `send`, in
   * the client's MCP session there. A 2026-07-28 client has no session: its request runs on a
   * lease with an MCP session of its own, ended with the call, whose `input` tells the endpoint
   * that the client speaks 2026-07-28 (so the server's own errors and input-required results come
   * back as they are). `what` names the request for its lease (`_leasedRequest`): a retry of an
   * input-required result must name the same.
   */
  async request(
    server: Server,
    ctx: ServerContext,
    endpoint: PublicIdentity,
    send: (session: _AcrossSession) => Promise<Record<string, unknown>>,
    what?: string,
  ): Promise<Record<string, unknown>> {
    const modern = _modernRequest(ctx);
    if (modern === undefined) {
      const session = this.begin(server, _contextRequest(ctx), endpoint);
      try {
        return await send({ mcp: session, signal: ctx.mcpReq.signal });
      } finally {
        session.done();
      }
    }
    const leases = this.#leasesOf();
    // The client takes input-required results: an endpoint whose server speaks 2026-07-28 passes
    // them through, and a retry of one carries the client's answers and the server's state.
    // A requestState of the endpoint's server (not one the face minted) rides to it in `input`;
    // the server checks it.
    const input: McpSessionInput = {
      ...(modern.responses && { responses: modern.responses }),
      ...(modern.state !== undefined && { state: modern.state }),
    };
    return leases.run(
      async (client, request) => {
        const session = this.begin(client, request, endpoint, input);
        const result = send({ mcp: session, signal: request.signal });
        return {
          result,
          close: async () => {
            session.done();
            this.end(client);
          },
        };
      },
      ctx,
      {
        foreignState: 'pass',
        principal: this.#o.principalOf?.(server),
        ...(what !== undefined && { request: what }),
      },
    );
  }

  /**
   * The face is closing: ends the leases of 2026-07-28 calls, then waits (at most
   * {@link _CLOSE_GRACE_MS}) until a relay took the session ends still being published, so the
   * relay pool, closed after the face, does not cut them off.
   */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#leases?.close();
    await _within(Promise.allSettled([...this.#ending]), _CLOSE_GRACE_MS);
  }

  #leasesOf(): _Leases {
    this.#leases ??= new _Leases({
      timeoutMs: this.#o.leaseTimeoutMs ?? 60_000,
      logger: this.#o.logger,
      ...(this.#o.leaseCaps && { caps: this.#o.leaseCaps }),
    });
    return this.#leases;
  }

  /** `server`'s client says its roots changed: every endpoint its session talked to is told. */
  rootsChanged(server: Server): void {
    const session = this.#byOwner.get(server);
    for (const endpoint of session?.endpoints.values() ?? [])
      void this.#tell(
        endpoint,
        MCP_NOTIFICATION_KIND,
        { session: session!.id, method: 'notifications/roots/list_changed' },
        undefined,
      );
  }

  /** The client of `owner` went away: the endpoints are told to end its session. */
  end(owner: Server | _LinkClient): void {
    const session = this.#byOwner.get(owner);
    if (!session) return;
    this.#byOwner.delete(owner);
    this.#sessions.delete(session.id);
    for (const answering of session.answering.values()) answering.abort();
    for (const endpoint of session.endpoints.values()) {
      const sending = this.#tell(endpoint, MCP_SESSION_END_KIND, { session: session.id }, undefined);
      this.#ending.add(sending);
      void sending.then(() => this.#ending.delete(sending));
    }
  }

  /** Stops listening. */
  stop(): void {
    this.#subscription?.close();
    this.#subscription = undefined;
  }

  #session(owner: Server | _LinkClient): _FaceSession {
    let session = this.#byOwner.get(owner);
    if (!session) {
      session = {
        id: randomBytes(16).toString('hex'),
        client: 'getClientCapabilities' in owner ? _serverClient(owner) : owner,
        endpoints: new Map(),
        waiting: new Map(),
        answering: new Map(),
      };
      this.#byOwner.set(owner, session);
      this.#sessions.set(session.id, session);
    }
    return session;
  }

  /** Subscribes, once, to the session messages addressed to this face's key. */
  #listen(): void {
    if (this.#subscription) return;
    this.#subscription = this.#o.caller.subscribe(
      [
        {
          kinds: [MCP_NOTIFICATION_KIND, MCP_SERVER_REQUEST_KIND],
          '#p': [this.#o.caller.keys.ed25519],
          // Sessions are new: nothing stored before this face listened can belong to one.
          since: Math.floor(this.#now() / 1000) - 5,
        },
      ],
      {
        onEvent: (event) => {
          this.#receive(event);
        },
      },
    );
  }

  /** Takes one event of the subscription; false when it was dropped (and why is logged). */
  #receive(event: XpEvent): boolean {
    if (this.#seen.has(event.id)) return false;
    this.#seen.add(event.id);
    if (this.#seen.size > _SEEN) this.#seen.delete(this.#seen.values().next().value as string);
    let message: McpSessionMessage;
    try {
      const opened = this.#o.caller.open(event);
      const parsed = parseMcpSessionMessage(JSON.parse(opened.plaintext));
      if (!parsed.ok) return this.#drop(event, parsed.reason);
      message = parsed.value;
    } catch (error) {
      return this.#drop(event, (error as Error).message);
    }
    if (isExpired(event, Math.floor(this.#now() / 1000))) return this.#drop(event, 'expired');
    const session = this.#sessions.get(message.session);
    if (!session) return this.#drop(event, 'no such MCP session here');
    const endpoint = session.endpoints.get(event.pubkey);
    if (!endpoint) return this.#drop(event, 'the session never talked to this sender');
    const related = session.waiting.get(getTag(event, 'e') ?? '');
    if (event.kind === MCP_NOTIFICATION_KIND) this.#notify(session, message, related);
    else void this.#serverRequest(session, endpoint, event, message, related);
    return true;
  }

  /** A server's notification, to the client: on its request's stream when it belongs to one. */
  #notify(session: _FaceSession, message: McpSessionMessage, related: _Waiting | undefined): void {
    if (!_NOTIFICATIONS.has(message.method)) return;
    let params = message.params;
    if (message.method === 'notifications/cancelled') {
      // The server gave up one of its requests: stop asking the client.
      session.answering.get(String(params?.requestId))?.abort();
      return;
    }
    if (message.method === 'notifications/progress') {
      // Progress is the client's request's: under the token the client gave, or not at all.
      const token = related?.request.progressToken;
      if (token === undefined) return;
      params = { ...params, progressToken: token };
    }
    const notification = { method: message.method, ...(params && { params }) } as never;
    const sending = related
      ? related.request.notify(notification)
      : session.client.notification(notification);
    sending.catch((error: unknown) =>
      this.#o.logger.debug(
        { method: message.method, error: (error as Error).message },
        'a notification from an endpoint could not be passed to the client',
      ),
    );
  }

  /** A server's request to the client: asked on its request's stream, the answer sealed back. */
  async #serverRequest(
    session: _FaceSession,
    endpoint: PublicIdentity,
    event: XpEvent,
    message: McpSessionMessage,
    related: _Waiting | undefined,
  ): Promise<void> {
    const capability = _SERVER_REQUESTS[message.method];
    const declared = session.client.capabilities() ?? {};
    const abort = new AbortController();
    session.answering.set(event.id, abort);
    let payload: unknown;
    let kind = MCP_SERVER_REQUEST_RESULT_KIND;
    try {
      if (capability === undefined || (declared as Record<string, unknown>)[capability] === undefined) {
        throw new ProtocolError(-32601, `Method not found: the client does not offer ${message.method}`);
      }
      payload = await session.client.request(
        { method: message.method, ...(message.params && { params: message.params }) },
        {
          signal: abort.signal,
          timeout: _CLIENT_ANSWER_MS,
          ...(related && { relatedRequestId: related.request.id }),
        },
      );
    } catch (error) {
      kind = ERROR_KIND;
      const protocol = ProtocolError.isInstance(error) ? (error as ProtocolError) : undefined;
      const code = protocol?.code ?? -32603;
      const text = (error as Error).message;
      payload = xpError('UPSTREAM_ERROR', text, {
        details: {
          mcp_error: {
            code,
            message: text,
            ...(protocol?.data !== undefined && { data: protocol.data as never }),
          },
        },
      });
    } finally {
      session.answering.delete(event.id);
    }
    void this.#tell(endpoint, kind, payload, event.id, getExpiration(event));
  }

  /**
   * Seals and publishes a one-way message; resolves once a relay took it or it failed. A failure is
   * logged (the other side times out): a warning, or at debug once the face is closing (the relay
   * pool closes with it, and what it did not take yet is dropped on purpose).
   */
  #tell(
    to: PublicIdentity,
    kind: string,
    payload: unknown,
    replyTo: string | undefined,
    expiration?: number,
  ): Promise<void> {
    return this.#o.caller
      .send({
        to,
        kind,
        payload,
        expiration: expiration ?? Math.floor(this.#now() / 1000) + _MESSAGE_TTL,
        ...(replyTo !== undefined && { replyTo }),
      })
      .then(
        () => undefined,
        (error: unknown) => {
          const fields = { kind, error: (error as Error).message };
          if (this.#closing)
            this.#o.logger.debug(fields, 'a session message was not published: the face closed');
          else this.#o.logger.warn(fields, 'a session message was not published');
        },
      );
  }

  #drop(event: XpEvent, reason: string): false {
    this.#o.logger.debug({ id: event.id, kind: event.kind, reason }, 'session message dropped');
    return false;
  }
}

/** The client capabilities a server may use through the face: sampling, elicitation, roots. */
function _answerable(declared: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const capability of Object.values(_SERVER_REQUESTS)) {
    if (declared[capability] !== undefined) out[capability] = declared[capability];
  }
  return out;
}

/** Resolves once `work` settled or `ms` passed, whichever comes first (the timer holds no process open). */
async function _within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
