/**
 * Calling XProtocol endpoints (Direction 2 and the `call` command): seal a request to the
 * recipient, publish it through the relays, wait for the answer correlated by its `e` tag,
 * verify and open it.
 *
 * The request carries `expiration = now + timeout`, so an endpoint never runs a call after the
 * caller gave up; the answer subscription is opened before the request is published, so a fast
 * answer cannot be missed. The request is published without a durable outbox entry: the pool
 * re-sends it after reconnects while this process waits, and a restart forgets it, with the
 * waiting client (see docs/protocol.md §10.6).
 * @module
 */

import { randomBytes } from 'node:crypto';
import {
  type CipherBackend,
  createEventTemplate,
  DelegationChainChecker,
  decryptVerifiedEvent,
  getTag,
  type Identity,
  isKeyString,
  type OpenedEvent,
  openEvent,
  type PublicIdentity,
  type Rotation,
  type SignatureBackend,
  sealEvent,
  signEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import { type Announce, type CatalogRevision, newestAnnounce, readAnnounce } from '@xprotocol/registry';
import {
  RelayClientError,
  type RelayPool,
  type Subscription,
  type SubscriptionHandlers,
} from '@xprotocol/relay-client';
import { checkJsonLimits, type JsonLimits } from '@xprotocol/translate';
import {
  ANNOUNCE_KIND,
  CATALOG_KIND,
  ERROR_KIND,
  type Filter,
  type McpSessionContext,
  parseXpErrorPayload,
  REVOKE_KIND,
  ROTATE_KIND,
  type XpErrorPayload,
  xpError,
} from '@xprotocol/wire';
import { BridgeError } from '../errors.js';
import { type EndpointVouch, vouchForEndpoint } from './endpoint-vouching.js';
import { newestRotation } from './key-rotation.js';
import { _sealDelegationTag } from './xp-delegation-tag.js';
import { _sealSessionTag } from './xp-mcp-session-tag.js';
import { _sealTraceTag } from './xp-trace-tag.js';

/** The shared answer subscription closes after this long without a call waiting. */
const IDLE_ANSWERS_MS = 60_000;

/** Results may nest deeper than arguments; their size is already bounded by the event limit. */
const RESULT_LIMITS: JsonLimits = { maxDepth: 512, maxBytes: Number.POSITIVE_INFINITY };

/** Options of {@link XpCaller}. */
export interface XpCallerOptions {
  identity: Identity;
  pool: RelayPool;
  signatures: SignatureBackend;
  cipher: CipherBackend;
  /** The clock, in ms. */
  now?: () => number;
  /**
   * This caller's own delegation chain (links root first), presented in every sealed request that
   * names none of its own ({@link CallRequest.delegation}): an adapter's MCP face calls its
   * XProtocol sources under the adapter's chain (docs/protocol.md §11.7).
   */
  delegation?: readonly { id: string }[];
}

/** The outcome of a call: the answer's payload, or an XProtocol error. */
export type CallOutcome =
  | { ok: true; payload: unknown; answer: XpEvent }
  | { ok: false; error: XpErrorPayload; answer: XpEvent | undefined };

/** What {@link XpCaller.call} needs. */
export interface CallRequest {
  /** The recipient's keys; see {@link XpCaller.resolve} to find its X25519 key. */
  to: PublicIdentity;
  kind: string;
  payload: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * The MCP client this request is made for: sent in the encrypted `mcp` tag so the endpoint can
   * talk back to that client (docs/protocol.md §10.5).
   */
  mcp?: McpSessionContext;
  /** The event this request belongs to (an `e` tag), e.g. the call a server request is part of. */
  replyTo?: string;
  /**
   * The caller's delegation chain (links root first, as `xprotocol-adapter register` writes it),
   * sent in the encrypted `delegation` tag so an endpoint that trusts its root can serve this key
   * (docs/protocol.md §11.7).
   */
  delegation?: readonly { id: string }[];
  /** Called with the sealed request right before it is published. */
  sent?: (request: XpEvent) => void;
  /**
   * The W3C `traceparent` of the caller's span for this request, sent in the encrypted `trace`
   * tag so the endpoint's spans join the trace (docs/protocol.md §10.12).
   */
  traceparent?: string;
}

/** What {@link XpCaller.send} needs: a one-way sealed message. */
export interface SendRequest {
  to: PublicIdentity;
  kind: string;
  payload: unknown;
  /** The event it names in its `e` tag. */
  replyTo?: string;
  /** Unix seconds after which it must not be acted on. */
  expiration: number;
}

/** Sends requests and waits for their answers. */
export class XpCaller {
  readonly #o: XpCallerOptions;
  readonly #now: () => number;

  /** Who waits for an answer, by request id. */
  readonly #waiting = new Map<string, (answer: XpEvent) => void>();
  /** One subscription to everything addressed to this caller, open while answers are awaited. */
  #answers: Subscription | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  /** Remembers the chains of the endpoints it checked: a signature per link, once per chain. */
  readonly #chains: DelegationChainChecker;

  constructor(options: XpCallerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#chains = new DelegationChainChecker({ backend: options.signatures });
  }

  /** The caller's own public keys. */
  get keys(): PublicIdentity {
    return this.#o.identity.keys;
  }

  /** Verifies and decrypts an event sealed to this caller (throws as `openEvent` does). */
  open(event: unknown): OpenedEvent {
    return openEvent(event, this.#o.identity, { signatures: this.#o.signatures, cipher: this.#o.cipher });
  }

  /** Subscribes on the caller's relays. */
  subscribe(filters: Filter[], handlers: SubscriptionHandlers): Subscription {
    return this.#o.pool.subscribe(filters, handlers);
  }

  /**
   * Finds the newest `xp.endpoint.announce` of `ed25519Key` on the relays and reads it with
   * `@xprotocol/registry`'s `readAnnounce` (verified, every payload field checked). Rejects with
   * `CALL_FAILED` when none arrives within `timeoutMs` or it is not a valid announce.
   */
  async resolve(ed25519Key: string, timeoutMs: number): Promise<Announce> {
    if (!isKeyString(ed25519Key, 'ed25519')) {
      throw new BridgeError(
        'INVALID_OPTIONS',
        `expected an ed25519: key string, got ${JSON.stringify(ed25519Key)}`,
      );
    }
    const announces: XpEvent[] = [];
    await this.#collect([{ kinds: [ANNOUNCE_KIND], authors: [ed25519Key], limit: 5 }], timeoutMs, announces);
    // Every reader picks the same one (docs/protocol.md §10.3): latest created_at, then smallest id.
    const newest = newestAnnounce(announces);
    if (!newest) {
      throw new BridgeError(
        'CALL_FAILED',
        `no ${ANNOUNCE_KIND} from ${ed25519Key} on the relays within ${timeoutMs} ms: is the endpoint running and on the same relay?`,
      );
    }
    const read = readAnnounce(newest, this.#o.signatures);
    if (!read.ok)
      throw new BridgeError('CALL_FAILED', `the announce of ${ed25519Key} is not usable: ${read.reason}`);
    return read.announce;
  }

  /**
   * The rotation of `ed25519Key` on the relays (docs/protocol.md §11.8): the stored
   * `xp.key.rotate` events by that key, read by {@link newestRotation}; `undefined` when there is
   * none. Waits until every open relay has sent its stored events, at most `timeoutMs`.
   */
  async findRotation(ed25519Key: string, timeoutMs: number): Promise<Rotation | undefined> {
    const events: XpEvent[] = [];
    await this.#stored([{ kinds: [ROTATE_KIND], authors: [ed25519Key], limit: 20 }], timeoutMs, events);
    return newestRotation(events, ed25519Key, this.#o.signatures);
  }

  /**
   * Whether one of `trustRoots` vouches for the endpoint of `announce` now: {@link vouchForEndpoint}
   * at this caller's clock, through a checker that remembers the chains it walked. `rootsLabel`
   * names the roots in a refusal (`--trust-root`).
   */
  vouch(
    announce: Announce,
    trustRoots: readonly string[],
    rootsLabel?: string,
    revocations?: readonly unknown[],
  ): EndpointVouch {
    return vouchForEndpoint(announce, {
      trustRoots,
      at: Math.floor(this.#now() / 1000),
      checker: this.#chains,
      ...(rootsLabel !== undefined && { rootsLabel }),
      ...(revocations && { revocations }),
    });
  }

  /**
   * The revocations the caller's relays hold against the delegation chain of `announce`
   * (docs/protocol.md §11.2, "On relays"): the contents of `xp.key.revoke` events by the chain's
   * issuers, each published by its own issuer. Waits until every open relay has sent its stored
   * events, at most `timeoutMs`; `[]` for an announce without a chain. Pass them to
   * {@link XpCaller.vouch}: the chain check verifies each and ignores those that do not count.
   */
  async chainRevocations(announce: Announce, timeoutMs: number): Promise<unknown[]> {
    const chain = announce.payload.delegation_chain ?? [];
    const issuers = [
      ...new Set(
        chain
          .map((link) => (link as { issuer?: unknown } | null)?.issuer)
          .filter((issuer): issuer is string => isKeyString(issuer, 'ed25519')),
      ),
    ];
    if (issuers.length === 0) return [];
    const events: XpEvent[] = [];
    await this.#stored([{ kinds: [REVOKE_KIND], authors: issuers, limit: 500 }], timeoutMs, events);
    const revocations: unknown[] = [];
    for (const event of events) {
      try {
        const value = JSON.parse(event.content) as { issuer?: unknown } | null;
        if (value?.issuer === event.pubkey) revocations.push(value);
      } catch {
        // Not JSON: not a revocation (§11.2); nothing to count.
      }
    }
    return revocations;
  }

  /** Sends a sealed request and resolves with its answer, or a `TIMEOUT` error. Never rejects on a remote error. */
  async call(request: CallRequest): Promise<CallOutcome> {
    const nowSeconds = Math.floor(this.#now() / 1000);
    const expiration = nowSeconds + Math.max(1, Math.ceil(request.timeoutMs / 1000));
    const { identity, cipher } = this.#o;
    const delegation = request.delegation ?? this.#o.delegation;
    const tags = [
      ...(request.mcp ? [_sealSessionTag(request.mcp, identity, request.to, cipher)] : []),
      ...(delegation ? [_sealDelegationTag(delegation, identity, request.to, cipher)] : []),
      ...(request.traceparent !== undefined
        ? [_sealTraceTag(request.traceparent, identity, request.to, cipher)]
        : []),
    ];
    const sealed = sealEvent(
      {
        kind: request.kind,
        payload: request.payload,
        created_at: nowSeconds,
        expiration,
        ...(request.replyTo !== undefined && { replyTo: request.replyTo }),
        ...(tags.length > 0 && { tags }),
      },
      this.#o.identity,
      request.to,
      { signatures: this.#o.signatures, cipher: this.#o.cipher },
    );
    request.sent?.(sealed);
    return this.#exchange(sealed, request.to.ed25519, request.timeoutMs, request.signal, (answer) => {
      // The pool delivers only events whose id and signature it verified.
      const opened = decryptVerifiedEvent(answer, this.#o.identity, { cipher: this.#o.cipher });
      const result = JSON.parse(opened.plaintext) as unknown;
      // A result nested deep enough to overflow a serializer never reaches the MCP face.
      const limits = checkJsonLimits(result, RESULT_LIMITS, 'the result');
      if (!limits.ok) throw new Error(limits.message);
      return result;
    });
  }

  /**
   * Seals and publishes a message that gets no answer (`xp.mcp.notification`, an answer to a
   * server request, `xp.mcp.session.end`). Resolves once a relay took it; rejects when none did.
   */
  async send(message: SendRequest): Promise<XpEvent> {
    const sealed = sealEvent(
      {
        kind: message.kind,
        payload: message.payload,
        created_at: Math.floor(this.#now() / 1000),
        expiration: message.expiration,
        ...(message.replyTo !== undefined && { replyTo: message.replyTo }),
      },
      this.#o.identity,
      message.to,
      { signatures: this.#o.signatures, cipher: this.#o.cipher },
    );
    await this.#o.pool.publish(sealed);
    return sealed;
  }

  /** Fetches every page of `to`'s `xp.schema.catalog` (public answers; the request is plaintext). */
  async catalog(to: string, timeoutMs: number): Promise<Record<string, unknown>[]> {
    return (await this.catalogWithInstructions(to, timeoutMs)).contracts;
  }

  /**
   * Every page of `to`'s catalog (the one it offers MCP clients of `revision`, when given), the
   * endpoint's `instructions` when its first page has them (docs/protocol.md §10.8; a value that is
   * not a string is ignored), and the revisions its first page names as having a catalog of their own.
   */
  async catalogWithInstructions(
    to: string,
    timeoutMs: number,
    revision?: CatalogRevision,
  ): Promise<{
    contracts: Record<string, unknown>[];
    instructions: string | undefined;
    revisions: string[];
  }> {
    const contracts: Record<string, unknown>[] = [];
    let instructions: string | undefined;
    let revisions: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const nowSeconds = Math.floor(this.#now() / 1000);
      const request = signEvent(
        createEventTemplate({
          kind: CATALOG_KIND,
          content: JSON.stringify({
            ...(cursor !== undefined && { cursor }),
            ...(revision !== undefined && { revision }),
          }),
          // A plaintext request has no random ciphertext, so without the nonce two requests for
          // the same page in the same second would be one event id, the second dropped as a
          // replay (docs/protocol.md §4.1).
          tags: [
            ['p', to],
            ['nonce', randomBytes(16).toString('hex')],
          ],
          created_at: nowSeconds,
          expiration: nowSeconds + Math.max(1, Math.ceil(timeoutMs / 1000)),
        }),
        this.#o.identity.ed25519.secretKey,
        this.#o.signatures,
      );
      const outcome = await this.#exchange(request, to, timeoutMs, undefined, (answer) =>
        JSON.parse(answer.content),
      );
      if (!outcome.ok) {
        throw new BridgeError(
          'CALL_FAILED',
          `catalog of ${to}: ${outcome.error.code}: ${outcome.error.message}`,
        );
      }
      const body = outcome.payload as {
        contracts?: unknown;
        next_cursor?: unknown;
        instructions?: unknown;
        revisions?: unknown;
      };
      if (!Array.isArray(body.contracts))
        throw new BridgeError('CALL_FAILED', `catalog of ${to}: the answer has no contracts array`);
      contracts.push(...(body.contracts as Record<string, unknown>[]));
      if (page === 0 && typeof body.instructions === 'string') instructions = body.instructions;
      // The revisions with a catalog of their own (docs/protocol.md §10.8); unknown ones are ignored.
      if (page === 0 && Array.isArray(body.revisions))
        revisions = body.revisions.filter((r): r is string => typeof r === 'string');
      if (typeof body.next_cursor !== 'string') return { contracts, instructions, revisions };
      cursor = body.next_cursor;
    }
    throw new BridgeError('CALL_FAILED', `catalog of ${to}: more than 1000 pages`);
  }

  /**
   * Routes the events that name `requestId` in their `e` tag to `onEvent` until the returned
   * function is called. Answers come through one subscription (`#p` = this caller) shared by every
   * call, opened before the first request is published and closed after a minute without one: a
   * call costs no `REQ` and `CLOSE` of its own, and the relay no query per call.
   */
  #watch(requestId: string, onEvent: (event: XpEvent) => void): () => void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    this.#waiting.set(requestId, onEvent);
    // `limit: 0`: no stored events, only live ones (nothing stored before the first request is
    // an answer to it); after a reconnect the pool fetches what the window missed.
    this.#answers ??= this.#o.pool.subscribe([{ '#p': [this.#o.identity.keys.ed25519], limit: 0 }], {
      onEvent: (event) => {
        const named = getTag(event, 'e');
        if (named !== undefined) this.#waiting.get(named)?.(event);
      },
    });
    return () => {
      if (this.#waiting.get(requestId) !== onEvent) return;
      this.#waiting.delete(requestId);
      if (this.#waiting.size > 0) return;
      this.#idle = setTimeout(() => {
        this.#idle = undefined;
        if (this.#waiting.size > 0) return;
        this.#answers?.close();
        this.#answers = undefined;
      }, IDLE_ANSWERS_MS);
      this.#idle.unref?.();
    };
  }

  /** Publishes `request` and waits for the answer from `from` that names it in an `e` tag. */
  async #exchange(
    request: XpEvent,
    from: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    readResult: (answer: XpEvent) => unknown,
  ): Promise<CallOutcome> {
    return new Promise<CallOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: CallOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unwatch();
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const timer = setTimeout(
        () =>
          finish({
            ok: false,
            error: xpError('TIMEOUT', `no answer to ${request.kind} within ${timeoutMs} ms`),
            answer: undefined,
          }),
        timeoutMs,
      );
      const onAbort = () =>
        finish({
          ok: false,
          error: xpError('TIMEOUT', `the call of ${request.kind} was cancelled`),
          answer: undefined,
        });
      signal?.addEventListener('abort', onAbort);
      const unwatch = this.#watch(request.id, (answer) => {
        // Only the answer ends the wait: an MCP notification or server request naming the
        // same request in its `e` tag belongs to the session's back channel.
        if (answer.pubkey !== from) return;
        if (answer.kind !== ERROR_KIND && answer.kind !== `${request.kind}.result`) return;
        try {
          if (answer.kind === ERROR_KIND) {
            const opened = decryptVerifiedEvent(answer, this.#o.identity, { cipher: this.#o.cipher });
            const parsed = parseXpErrorPayload(JSON.parse(opened.plaintext));
            const error = parsed.ok
              ? parsed.payload
              : xpError('UPSTREAM_ERROR', `malformed xp.error: ${parsed.reason}`);
            finish({ ok: false, error, answer });
          } else {
            finish({ ok: true, payload: readResult(answer), answer });
          }
        } catch (error) {
          finish({
            ok: false,
            error: xpError('UPSTREAM_ERROR', `cannot open the answer: ${(error as Error).message}`),
            answer,
          });
        }
      });
      // Not in the durable outbox: the request means something only to this process, which
      // waits for its answer (docs/protocol.md §10.6).
      this.#o.pool.publish(request, { durable: false }).catch((error: unknown) => {
        const message =
          error instanceof RelayClientError ? `${error.code}: ${error.message}` : (error as Error).message;
        finish({
          ok: false,
          error: xpError('ENDPOINT_UNAVAILABLE', `the request was not published: ${message}`),
          answer: undefined,
        });
      });
    });
  }

  /**
   * Collects the stored events matching `filters`: stops once every relay open when it started
   * has sent EOSE, or at `timeoutMs`. Finding nothing is an answer here, not a reason to wait.
   */
  #stored(filters: Filter[], timeoutMs: number, into: XpEvent[]): Promise<void> {
    return new Promise((resolve) => {
      const open = this.#o.pool.relays().filter((relay) => relay.state === 'open').length;
      let ended = 0;
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        subscription.close();
        resolve();
      };
      const relayEnded = () => {
        ended += 1;
        if (ended >= Math.max(1, open)) done();
      };
      const timer = setTimeout(done, timeoutMs);
      const subscription = this.#o.pool.subscribe(filters, {
        onEvent: (event) => into.push(event),
        onEose: relayEnded,
        // A relay that refuses the subscription has nothing more to send either.
        onClosed: relayEnded,
      });
    });
  }

  /**
   * Collects events matching `filters`: stops at the first EOSE that has found something, or
   * once every relay sent EOSE with something found. When the stored events hold nothing (an
   * endpoint that is just starting), it keeps listening for a live one until `timeoutMs`.
   */
  #collect(filters: object[], timeoutMs: number, into: XpEvent[]): Promise<void> {
    return new Promise((resolve) => {
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        subscription.close();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      let stored = false;
      const subscription = this.#o.pool.subscribe(filters, {
        onEvent: (event) => {
          into.push(event);
          // A live event after the stored ones were exhausted: nothing better is coming.
          if (stored) done();
        },
        onEose: () => {
          stored = true;
          if (into.length > 0) done();
        },
      });
    });
  }
}
