/**
 * A 2026-07-28 client in front of a server that asks with requests of its own: a 2025 server
 * behind the gateway, or any server across XProtocol (whose endpoint sends the face
 * `xp.mcp.server_request` events). Such a server asks its client for input (sampling,
 * elicitation, roots) while a call runs; a 2026-07-28 client has no session to receive that, and
 * is asked in an input-required result instead, then calls again with its answers. So such a
 * call runs on a lease: a session of its own with the server (a gateway link, or an MCP session
 * across XProtocol) whose client is the lease. The server's requests are parked, the client gets
 * them as one `input_required` result (`inputRequests`, one entry per parked request, and a
 * `requestState` the face signs), and its next call (`inputResponses`, the same `requestState`)
 * answers them in the same session; the call then goes on until its result, or the next round.
 * A lease whose client does not come back within the call timeout is cancelled (the server gets
 * `notifications/cancelled`) and its session ended. See docs/architecture.md, "Two MCP revisions".
 * @module
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  type ClientCapabilities,
  createRequestStateCodec,
  ProtocolError,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { BridgeLogger } from '../logger.js';
import type { _LinkClient, _LinkRequest } from './gateway-link.js';
import { _modernRequest } from './modern-request.js';
import { _capMessage, _fairShare, _PrincipalCaps } from './principal-caps.js';

/** How long the face waits for more requests of the server after the first, before asking the client. */
const _GATHER_MS = 25;
/** Marks the `requestState` values the face mints, so they are told from a server's own. */
const _STATE_PREFIX = 'xp-lease.';
/**
 * The most leases at once, by default; beyond it a new one is refused. Each holds a session with
 * its server (for a stdio server, a child process), so they are few.
 */
export const _DEFAULT_MAX_LEASES = 64;
/** When a client refused a lease is told to try again, in s (a lease ends when its client answers). */
const _RETRY_AFTER_S = 5;
/**
 * How long a lease waits for its client's next call, at least (a person may be answering an
 * elicitation); the call timeout when that is longer.
 */
const _MIN_WAIT_MS = 10 * 60_000;

/**
 * Opens a lease's session with `client` as its client, and sends the call in it (`request` says
 * where progress goes, and aborts it): the call's result (or the server's error), and how to end
 * the session.
 */
export type _LeaseStart = (
  client: _LinkClient,
  request: _LinkRequest,
) => Promise<{ result: Promise<Record<string, unknown>>; close: () => Promise<void> }>;

/** Options of {@link _Leases}. */
export interface _LeasesOptions {
  /** Each call's timeout, in ms; a lease waits for its client's next call this long, at least 10 minutes. */
  timeoutMs: number;
  logger: BridgeLogger;
  /**
   * The leases each principal and every principal together may hold, shared with the face's
   * other leases (default 64 in all, 16 per principal). A lease is held from its start until it
   * ends, waiting for its client or not: it holds its own session with the server all along.
   */
  caps?: _PrincipalCaps;
}

/** A request of the server's, waiting for the client's answer. */
interface _Parked {
  key: string;
  request: { method: string; params?: unknown };
  resolve: (answer: unknown) => void;
  reject: (error: Error) => void;
}

/** What one round of a leased call ends with: the call's result, or questions for the client. */
type _Round = { kind: 'done'; result: Record<string, unknown> } | { kind: 'ask'; parked: _Parked[] };

/** The face's leases, shared by every 2026-07-28 request. */
export class _Leases {
  readonly #o: _LeasesOptions;
  readonly #caps: _PrincipalCaps;
  readonly #leases = new Map<string, _Lease>();
  /**
   * Signs the `requestState` that names a lease (a changed or foreign one is refused), bound to
   * the principal that asked (OAuth): another principal's retry with it is refused too.
   */
  readonly #codec = createRequestStateCodec({
    key: randomBytes(32),
    ttlSeconds: 3600,
    bind: (ctx) => ctx.http?.authInfo?.clientId ?? '',
  });

  constructor(options: _LeasesOptions) {
    this.#o = options;
    this.#caps =
      options.caps ??
      new _PrincipalCaps({ perPrincipal: _fairShare(_DEFAULT_MAX_LEASES), total: _DEFAULT_MAX_LEASES });
  }

  /**
   * True when `ctx` is a retry of a lease: its `requestState` is one the face minted (whether
   * or not it still verifies: a changed one is then refused by {@link run}).
   */
  resumes(ctx: ServerContext): boolean {
    return _requestState(ctx)?.startsWith(_STATE_PREFIX) === true;
  }

  /**
   * Runs the client request `ctx` on a lease: the one its `requestState` names (whose parked
   * requests its `inputResponses` answer), or a new one that `start` opens. A `requestState`
   * the face did not mint is the server's own: with `foreignState: 'pass'` (across XProtocol,
   * where the endpoint's server checks it) the new lease carries it; otherwise it is refused.
   * `request` names what the lease runs (method, server, tool or URI): a retry must name the same,
   * since the face checked the caller's scopes for what the retry names, not for what the lease
   * runs. A new lease counts against `principal`'s share of the leases (`undefined`: the face's
   * one principal, held to the ceiling only); over it the call is refused, -32600 `RATE_LIMITED`.
   */
  async run(
    start: _LeaseStart,
    ctx: ServerContext,
    options: { foreignState?: 'pass' | 'refuse'; request?: string; principal?: string | undefined } = {},
  ): Promise<Record<string, unknown>> {
    const state = _requestState(ctx);
    if (state !== undefined && (this.resumes(ctx) || options.foreignState !== 'pass')) {
      const lease = await this.#leaseOf(state, ctx);
      if (!lease)
        throw new ProtocolError(-32602, 'Invalid or expired requestState', {
          reason: 'invalid_request_state',
        });
      if (lease.request !== options.request)
        throw new ProtocolError(
          -32602,
          `this requestState belongs to another request (${lease.request ?? 'unnamed'}), not to ${options.request ?? 'this one'}: retry the request that received it`,
          { reason: 'request_state_mismatch' },
        );
      return this.#reply(lease, await lease.resume(ctx), ctx);
    }
    const { principal } = options;
    const refusal = this.#caps.take(principal);
    if (refusal)
      throw new ProtocolError(
        -32600,
        _capMessage(
          refusal,
          'leases (2026-07-28 calls that may ask their client for input, each with its own session upstream)',
          { perPrincipal: 'mcp_server.max_leases_per_principal', total: 'mcp_server.max_leases' },
          `answer or cancel one, or retry in ${_RETRY_AFTER_S} s`,
        ),
        { xp_code: 'RATE_LIMITED', retry_after: _RETRY_AFTER_S },
      );
    const lease = new _Lease(randomUUID(), options.request, this.#o, () => {
      this.#leases.delete(lease.id);
      this.#caps.give(principal);
    });
    let round: _Round;
    try {
      round = await lease.start(start, ctx);
    } catch (error) {
      // A lease that could not open its session (its server unreachable, or no process left for it) ends here.
      await lease.end('the call could not start');
      throw error;
    }
    return this.#reply(lease, round, ctx);
  }

  /** Ends every lease (the face is closing). */
  async close(): Promise<void> {
    const leases = [...this.#leases.values()];
    this.#leases.clear();
    await Promise.allSettled(leases.map((lease) => lease.end('the MCP face is closing')));
  }

  async #leaseOf(state: string, ctx: ServerContext): Promise<_Lease | undefined> {
    if (!state.startsWith(_STATE_PREFIX)) return undefined;
    const payload = (await this.#codec
      .verify(state.slice(_STATE_PREFIX.length), ctx)
      .catch(() => undefined)) as { lease?: unknown } | undefined;
    return typeof payload?.lease === 'string' ? this.#leases.get(payload.lease) : undefined;
  }

  async #reply(lease: _Lease, round: _Round, ctx: ServerContext): Promise<Record<string, unknown>> {
    if (round.kind === 'done') return round.result;
    this.#leases.set(lease.id, lease);
    return {
      resultType: 'input_required',
      inputRequests: Object.fromEntries(round.parked.map((p) => [p.key, p.request])),
      requestState: `${_STATE_PREFIX}${await this.#codec.mint({ lease: lease.id }, ctx)}`,
    };
  }
}

/** One leased call: its own session with the server, and the server's requests waiting for the client. */
class _Lease {
  readonly id: string;
  /** What the lease runs (see {@link _Leases.run}): a retry must name the same. */
  readonly request: string | undefined;
  readonly #o: _LeasesOptions;
  readonly #forget: () => void;
  readonly #abort = new AbortController();
  /** The client request now waiting on this lease (its progress goes there). */
  #ctx: ServerContext | undefined;
  #capabilities: ClientCapabilities = {};
  #clientInfo: { name: string; version: string } | undefined;
  #close: (() => Promise<void>) | undefined;
  #result: Promise<Record<string, unknown>> | undefined;
  readonly #parked: _Parked[] = [];
  /** Wakes the round waiting for a request of the server's. */
  #wake: (() => void) | undefined;
  #keys = 0;
  #expiry: NodeJS.Timeout | undefined;
  /** The first {@link end}: the lease is forgotten, and gives back its share, once. */
  #ending: Promise<void> | undefined;

  constructor(id: string, request: string | undefined, options: _LeasesOptions, forget: () => void) {
    this.id = id;
    this.request = request;
    this.#o = options;
    this.#forget = forget;
  }

  /** Opens the session as this client, sends the call, and waits for its first round. */
  async start(start: _LeaseStart, ctx: ServerContext): Promise<_Round> {
    this.#ctx = ctx;
    const request = _modernRequest(ctx);
    this.#capabilities = request?.capabilities ?? {};
    this.#clientInfo = request?.clientInfo;
    const token = ctx.mcpReq._meta?.progressToken;
    const opened = await start(this.#asClient(), {
      id: ctx.mcpReq.id,
      // Progress goes to the client request now waiting on the lease.
      notify: async (notification) => {
        await this.#ctx?.mcpReq.notify(notification as never);
      },
      signal: this.#abort.signal,
      ...(token !== undefined && { progressToken: token as string | number }),
    });
    this.#close = opened.close;
    this.#result = opened.result;
    // Observed at once: a failure while no round waits must not go unhandled.
    this.#result.catch(() => {});
    return this.#round(ctx);
  }

  /**
   * The client's next call: its `inputResponses` answer the parked requests; then the next round.
   * One call at a time: a second one with the same `requestState` while a round runs is refused.
   */
  async resume(ctx: ServerContext): Promise<_Round> {
    if (this.#ctx !== undefined)
      throw new ProtocolError(-32602, 'this requestState is being answered by another request already', {
        reason: 'request_state_in_use',
      });
    clearTimeout(this.#expiry);
    this.#ctx = ctx;
    const answers = _modernRequest(ctx)?.responses ?? {};
    for (const parked of [...this.#parked]) {
      if (!(parked.key in answers)) continue; // asked again in the next round
      this.#parked.splice(this.#parked.indexOf(parked), 1);
      parked.resolve(answers[parked.key]);
    }
    return this.#round(ctx);
  }

  /** Cancels the call (the server gets `notifications/cancelled`) and closes the link; once. */
  end(reason: string): Promise<void> {
    clearTimeout(this.#expiry);
    this.#ending ??= this.#end(reason);
    return this.#ending;
  }

  async #end(reason: string): Promise<void> {
    this.#forget();
    for (const parked of this.#parked.splice(0)) parked.reject(new Error(reason));
    this.#abort.abort(new Error(reason));
    await this.#close?.();
  }

  /**
   * Waits for the call's result or the server's next requests (gathered for a moment, so that
   * requests it sends together reach the client in one round). The client's own cancellation of
   * the waiting request ends the lease.
   */
  async #round(ctx: ServerContext): Promise<_Round> {
    const onAbort = () => void this.end('cancelled by the client');
    ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = this.#result!.then(
        (value): _Round => ({ kind: 'done', result: value }),
        (error: unknown): never => {
          throw error;
        },
      );
      const asked = new Promise<_Round>((resolve) => {
        const ask = () => setTimeout(() => resolve({ kind: 'ask', parked: [...this.#parked] }), _GATHER_MS);
        if (this.#parked.length > 0) ask();
        else this.#wake = ask;
      });
      const round = await Promise.race([result, asked]);
      this.#wake = undefined;
      if (round.kind === 'done') {
        await this.end('the call ended');
        return round;
      }
      // The client has a while to come back; then the call is cancelled.
      this.#expiry = setTimeout(
        () => void this.end('the client did not answer the input requests in time'),
        Math.max(this.#o.timeoutMs, _MIN_WAIT_MS),
      );
      this.#expiry.unref();
      this.#ctx = undefined;
      return round;
    } catch (error) {
      await this.end('the call failed');
      throw error;
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', onAbort);
    }
  }

  /** The link's client: the 2026-07-28 client as its request declared itself; its server requests are parked. */
  #asClient(): _LinkClient {
    return {
      capabilities: () => this.#capabilities,
      clientInfo: () => this.#clientInfo,
      request: (request, options) =>
        new Promise((resolve, reject) => {
          const parked: _Parked = {
            key: `${request.method.replace(/\W+/g, '_')}_${++this.#keys}`,
            request: {
              method: request.method,
              ...(request.params !== undefined && { params: request.params }),
            },
            resolve,
            reject,
          };
          this.#parked.push(parked);
          // The server gave up its own request: it is not asked any more.
          options.signal.addEventListener(
            'abort',
            () => {
              const at = this.#parked.indexOf(parked);
              if (at >= 0) this.#parked.splice(at, 1);
              reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('cancelled'));
            },
            { once: true },
          );
          this.#wake?.();
          this.#wake = undefined;
        }),
      notification: async (notification) => {
        await this.#ctx?.mcpReq.notify(notification as never).catch(() => {});
      },
    };
  }
}

/** The raw `requestState` of a retry, when it carries one. */
function _requestState(ctx: ServerContext): string | undefined {
  return _modernRequest(ctx)?.state;
}

/**
 * What a leased request runs, as its retry must name it again (see {@link _Leases.run}): the
 * method, the server it goes to, and the tool, prompt or resource it names.
 */
export function _leasedRequest(
  method: string,
  server: string,
  params: Record<string, unknown> | undefined,
): string {
  const target = params?.name ?? params?.uri;
  return `${method} ${server}${typeof target === 'string' ? ` ${target}` : ''}`;
}
