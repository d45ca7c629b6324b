/**
 * Direction 1: the XProtocol endpoint in front of the wrapped MCP servers.
 *
 * Every event addressed to the adapter runs the checks of docs/protocol.md §4 in this order:
 * size/shape → id → signature → addressing (`p` and `x25519` tags) → dedupe → freshness → kind lookup → authority (a grant, or a
 * delegation chain from a trusted issuer) → rate limit →
 * decrypt → schema, and only then the upstream `tools/call`. What fails early never reaches the
 * MCP server. Refusals that could serve as an oracle or an amplifier (bad shape, id, signature or
 * encryption; duplicates; stale events) are dropped and logged; everything else is answered with
 * a signed, encrypted `xp.error` carrying an `e` tag. Steps 1–4 run here; the rest in
 * inbound-checks.ts, the call itself in tool-call.ts, the answers in endpoint-answers.ts.
 *
 * Calls run at most once: the state database records a call as started before the upstream call
 * and stores every answer before it reaches the outbox (see `StateDatabase`); `recover()`
 * finishes what a crash left behind. Replicas of one key claim each request in a shared journal
 * first, and finish what a replica whose lease lapsed left (state/shared-journal.ts).
 * @module
 */
import { type PublicIdentity, verifyEvent, type XpEvent } from '@xprotocol/crypto';
import type { Subscription } from '@xprotocol/relay-client';
import {
  isUnansweredKind,
  MCP_NOTIFICATION_KIND,
  MCP_SESSION_END_KIND,
  type XpErrorPayload,
  xpError,
} from '@xprotocol/wire';
import { XpCaller } from '../caller/xp-caller.js';
import { _GatewayRoutes } from '../gateway/gateway-routes.js';
import { type BridgeLogger, silentLogger } from '../logger.js';
import { DelegatedAccess } from '../policy/delegated-access.js';
import { RevocationSet } from '../policy/revocation-set.js';
import { _LostClaim, type AdoptedWork } from '../state/shared-journal.js';
import { _addressingProblem } from './addressing.js';
import { _CallerChains } from './caller-authority.js';
import { _EndpointAnswers } from './endpoint-answers.js';
import { _CallSlots, _SourceRateLimits } from './endpoint-limits.js';
import { _EndpointObserver } from './endpoint-observe.js';
import { _resolveOptions, type InboundOutcome, type XpEndpointOptions } from './endpoint-options.js';
import { _EndpointTracing } from './endpoint-trace.js';
import type { _Inbound } from './inbound.js';
import { _processRequest } from './inbound-checks.js';
import { _sessionMessage } from './mcp-requests.js';
import { _RevocationWatch } from './revocation-watch.js';
import { _XpMcpRouter } from './xp-mcp-router.js';
import { _XpMcpSessions } from './xp-mcp-sessions.js';

/** The endpoint's inbound side. */
export class XpEndpoint {
  /** What the inbound handlers share. */
  readonly #inbound: _Inbound;
  #subscription: Subscription | undefined;
  readonly #inflight = new Set<Promise<unknown>>();
  /** Ids being processed right now (before anything about them is stored). */
  /** The ids being processed here, each with a promise that settles when that is over. */
  readonly #processing = new Map<string, Promise<void>>();
  /** Revocations from the relays, for the chains callers present. */
  readonly #revocationWatch: _RevocationWatch;
  readonly #onOutcome: XpEndpointOptions['onOutcome'];

  constructor(options: XpEndpointOptions) {
    const o = _resolveOptions(options);
    this.#onOutcome = options.onOutcome;
    const logger = options.logger ?? silentLogger;
    const now = options.now ?? Date.now;
    o.state.openReplayMemory({
      nowSeconds: Math.floor(now() / 1000),
      windowSeconds: o.retentionSeconds,
      maxFutureSeconds: o.maxFutureSeconds,
      maxIds: o.maxRememberedIds,
      onForget: ({ why, ids, floor }) => {
        // Over capacity, requests still inside the window are refused from now on: worth a warning.
        if (why === 'capacity') {
          logger.warn(
            { forgotten: ids, floor, max_remembered_ids: o.maxRememberedIds },
            'the dedupe memory is full: it forgot its oldest request ids; requests created before the floor are dropped as stale',
          );
        } else logger.debug({ forgotten: ids, floor }, 'the dedupe memory forgot ids older than its window');
      },
    });
    const revocations = _keptRevocations(options, logger);
    this.#revocationWatch = new _RevocationWatch({
      pool: options.pool,
      revocations,
      keep: (revocation) => options.state.saveRevocation(revocation, now()),
      issuers: options.access.trustedIssuers,
      requerySeconds: o.revocationRequerySeconds,
      waitMs: o.revocationWaitMs,
      logger,
    });
    this.#inbound = {
      o,
      logger,
      now,
      answers: new _EndpointAnswers(o, logger, now),
      slots: new _CallSlots(o.maxConcurrentCalls),
      // Replicas split each rate by the number of live leases (state/shared-journal.ts).
      rateLimits: new _SourceRateLimits(
        options.requestsPerMinute ?? new Map(),
        () => options.state.shared?.liveReplicas ?? 1,
      ),
      mcp: new _XpMcpRouter({
        sources:
          options.mcpSources ?? [...options.upstreams.keys()].map((name) => ({ name, namespace: name })),
        upstreams: options.upstreams,
        routes: new _GatewayRoutes(options.identity.keys.ed25519, (data) => options.cipher.sha256(data)),
        logger,
      }),
      observed: options.observer && new _EndpointObserver(options.observer, options.catalog),
      traced:
        options.tracer &&
        new _EndpointTracing(options.tracer, options.identity, options.cipher, options.catalog),
      chains: new _CallerChains({
        identity: options.identity,
        cipher: options.cipher,
        delegated: new DelegatedAccess({
          access: options.access,
          revocations,
          signatures: options.signatures,
        }),
        watch: this.#revocationWatch,
        now,
      }),
      sessions: new _XpMcpSessions({
        ...options.mcpSessions,
        xp: new XpCaller({
          identity: options.identity,
          pool: options.pool,
          signatures: options.signatures,
          cipher: options.cipher,
          now,
        }),
        transportOf: (source) => options.upstreams.get(source)?.transport,
        clientInfo: options.clientInfo ?? { name: 'xprotocol-mcp-adapter', version: '0' },
        timeoutMs: o.callTimeoutMs,
        ttlSeconds: o.answerTtlSeconds,
        logger,
        now,
      }),
    };
  }

  /** The adapter's own public keys. */
  get keys(): PublicIdentity {
    return this.#inbound.o.identity.keys;
  }

  /** How many MCP sessions of callers the endpoint keeps now (docs/protocol.md §10.5). */
  get mcpSessionCount(): number {
    return this.#inbound.sessions.size;
  }

  /**
   * Finishes what a crash left (re-sends stored answers, answers interrupted calls, processes calls
   * that never started), then subscribes to events addressed to the adapter.
   */
  async start(): Promise<void> {
    await this.recover();
    const { o, logger } = this.#inbound;
    // Replicas: adopts the work of a replica whose lease lapsed, now and with each renewal.
    await o.state.shared?.startLeases((adopted) => this.#finishAdopted(adopted));
    this.#revocationWatch.start();
    this.#subscription = o.pool.subscribe([{ '#p': [o.identity.keys.ed25519] }], {
      // The pool delivers only events whose shape, id and signature it verified.
      onEvent: (event) => {
        const started = this.#inbound.observed === undefined ? 0 : performance.now();
        this.#inbound.traced?.begin(event);
        this.#track(this.#reported(this.#handleVerified(event), event, started));
      },
      onClosed: (relay, reason) => logger.warn({ relay, reason }, 'relay closed the inbound subscription'),
    });
  }

  /** Stops receiving, waits for calls in flight to be answered, then ends the callers' MCP sessions. */
  async stop(): Promise<void> {
    this.#subscription?.close();
    this.#subscription = undefined;
    this.#revocationWatch.stop();
    await Promise.allSettled([...this.#inflight]);
    await this.#inbound.sessions.close();
  }

  /** Finishes the calls a crash left unfinished (see `StateDatabase`). */
  async recover(): Promise<void> {
    const { o, logger, answers } = this.#inbound;
    const { state } = o;
    for (const call of state.unfinished()) {
      if (call.status === 'answered' && call.answer) {
        await o.pool.enqueue(call.answer);
        await state.markDone(call.id);
      } else if (call.status === 'started' && call.request) {
        logger.warn(
          { id: call.id, kind: call.request.kind },
          'answering a call interrupted by a restart; it is not re-run',
        );
        await answers.error(call.request, _interrupted('the adapter stopped while this call was running'));
      } else {
        // A row without what it needs cannot be finished: keep it only for dedupe.
        await state.markDone(call.id);
      }
    }
  }

  /**
   * Finishes what a replica whose lease lapsed left (state/shared-journal.ts): its answers go to
   * the relays, a call it started is answered as interrupted (never re-run), and a call it claimed
   * but never started runs here.
   */
  async #finishAdopted(adopted: AdoptedWork): Promise<void> {
    const { o, logger, answers } = this.#inbound;
    // One failure must not strand the rest of what was adopted: each is finished on its own.
    const each = async (id: string, finish: () => Promise<unknown>) => {
      try {
        await finish();
      } catch (error) {
        logger.error(
          { id, error: (error as Error).message },
          'could not finish a call adopted from another replica',
        );
      }
    };
    for (const entry of adopted.answers) await each(entry.event.id, () => o.pool.enqueue(entry.event));
    for (const request of adopted.started) {
      logger.warn(
        { id: request.id, kind: request.kind },
        'answering a call interrupted by the loss of another replica; it is not re-run',
      );
      await each(request.id, () =>
        answers.error(request, _interrupted('another adapter replica stopped while this call was running')),
      );
    }
    for (const request of adopted.claimed) {
      // A copy of it may still be going through this replica (one that had lost the call and has
      // it back now): it either starts the call (this replica owns it again) or fails before; only
      // then is the claim released and the request run again, here or by whichever replica claims it.
      const running = this.#processing.get(request.id);
      this.#track(
        (async () => {
          await running;
          await each(request.id, async () => {
            await o.state.shared?.release(request.id);
            await this.handleEvent(request);
          });
        })(),
      );
    }
  }

  /**
   * Runs one event through the whole pipeline. Public so tests can inject events below the relay;
   * the subscription calls it for everything the relays deliver. Never throws.
   */
  async handleEvent(raw: unknown): Promise<InboundOutcome> {
    const started = this.#inbound.observed === undefined ? 0 : performance.now();
    const verdict = verifyEvent(raw, this.#inbound.o.signatures);
    if (!verdict.ok)
      return this.#reported(
        Promise.resolve(this.#inbound.answers.drop(`${verdict.code}: ${verdict.message}`)),
        undefined,
        started,
      );
    this.#inbound.traced?.begin(verdict.event);
    return this.#reported(this.#handleVerified(verdict.event), verdict.event, started);
  }

  /** `outcome`, once `onOutcome` and the observer heard it (a listener that throws changes nothing). */
  async #reported(
    outcome: Promise<InboundOutcome>,
    request: XpEvent | undefined,
    started: number,
  ): Promise<InboundOutcome> {
    const settled = await outcome;
    try {
      this.#inbound.observed?.settled(
        settled,
        request,
        performance.now() - started,
        this.#inbound.traced?.traceparentOf(request),
      );
      this.#inbound.traced?.settled(settled, request);
      this.#onOutcome?.(settled, request);
    } catch {
      // Counting must never change what the endpoint does.
    }
    return settled;
  }

  /** {@link XpEndpoint.handleEvent} after steps 1–3 (shape, id, signature). Never throws. */
  async #handleVerified(event: XpEvent): Promise<InboundOutcome> {
    const inbound = this.#inbound;
    try {
      const self = inbound.o.identity.keys.ed25519;
      if (event.pubkey === self) return { action: 'ignored', reason: 'our own event' };
      if (event.kind === MCP_NOTIFICATION_KIND || event.kind === MCP_SESSION_END_KIND)
        return await _sessionMessage(inbound, event);
      if (isUnansweredKind(event.kind))
        return { action: 'ignored', reason: `${event.kind} is never answered` };
      // Step 3a, for what may be answered: before anything could be (docs/protocol.md §4).
      const misaddressed = _addressingProblem(event, self);
      if (misaddressed) return inbound.answers.drop(misaddressed, event);
      // One delivery at a time per id: a second copy arriving meanwhile is a duplicate.
      if (this.#processing.has(event.id)) return _duplicate(inbound, event);
      let over = () => {};
      this.#processing.set(event.id, new Promise<void>((resolve) => (over = resolve)));
      try {
        // With replicas, the one whose claim is first acts on it (state/shared-journal.ts).
        if (!(await inbound.o.state.claim(event))) return _duplicate(inbound, event);
        const outcome = await _processRequest(inbound, event);
        if (outcome.action !== 'answered') await inbound.o.state.settle(event.id);
        return outcome;
      } finally {
        this.#processing.delete(event.id);
        over();
      }
    } catch (error) {
      // With replicas: another replica took this call over before it started here, and answers it.
      if (error instanceof _LostClaim) {
        inbound.logger.warn(
          { id: event.id, error: error.message },
          'left a call to the replica that took it over',
        );
        return { action: 'dropped', reason: error.message };
      }
      inbound.logger.error({ error: (error as Error).message }, 'inbound event failed unexpectedly');
      return { action: 'dropped', reason: `internal error: ${(error as Error).message}` };
    }
  }

  #track(promise: Promise<unknown>): void {
    this.#inflight.add(promise);
    void promise.finally(() => this.#inflight.delete(promise));
  }
}

/** A duplicate: dropped, since its answer is on the relays (or coming from the replica that runs it). */
function _duplicate(inbound: _Inbound, event: XpEvent): InboundOutcome {
  return inbound.answers.drop(`duplicate of ${event.id}; its answer is already on the relay`, event);
}

/** The answer to a call that was running when its adapter stopped: it is never run again. */
function _interrupted(why: string): XpErrorPayload {
  return xpError('UPSTREAM_ERROR', `interrupted: ${why}; it was not retried`);
}

/**
 * The revocations this endpoint accepted before (its state database), each verified again: one
 * that no longer verifies (an edited file) is skipped with a warning, never trusted.
 */
function _keptRevocations(options: XpEndpointOptions, logger: BridgeLogger): RevocationSet {
  const revocations = new RevocationSet({ signatures: options.signatures });
  for (const kept of options.state.revocations()) {
    const issuer = (kept as { issuer?: unknown } | null)?.issuer;
    const added = revocations.add(kept, typeof issuer === 'string' ? issuer : '');
    if (!added.ok)
      logger.warn({ reason: added.reason }, 'a kept revocation was skipped: it no longer verifies');
  }
  return revocations;
}
