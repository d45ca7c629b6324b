/**
 * Publishing through the pool: an event goes into the outbox first, then to every relay; its
 * publish resolves on the first `OK true` while delivery to the other relays goes on (re-sent
 * after each reconnect, rate-limited and transient refusals retried after the hint) until every
 * relay has answered or the event expires. Only then does it leave the outbox — so nothing is lost
 * to a crash or a dead relay while it is unexpired.
 * @module
 */
import { getExpiration, type XpEvent } from '@xprotocol/crypto';
import {
  clientMessage,
  isRetryableReason,
  type RelayMessage,
  reasonPrefixOf,
  retryAfterOf,
} from '@xprotocol/wire';
import { RelayClientError } from './errors.js';
import type { Outbox } from './outbox.js';
import type { _PoolConnections } from './pool-connections.js';
import type { RelayConnection } from './relay-connection.js';

/** How a publish ended. */
export interface PublishResult {
  /** The relay whose `OK true` resolved the publish. */
  relay: string;
  /** True when that relay already had the event. */
  duplicate: boolean;
}

/** Options of `RelayPool.publish`. */
export interface PublishOptions {
  /**
   * False: the event is tracked in memory only, never written to the outbox. It is still re-sent
   * after reconnects and retried until a relay answers or it expires, while this process lives; a
   * restart forgets it. For an event that means nothing once this process is gone (a request
   * whose waiting caller goes with it). Default true.
   */
  durable?: boolean;
}

/** What the publisher needs from its pool. */
export interface _PublisherOptions {
  outbox: Outbox;
  connections: _PoolConnections;
  /** The default lifetime of an event without `expiration`, in seconds. */
  retentionSeconds: number;
  /** Most events waiting at once. */
  maxOutbox: number;
  now: () => number;
}

/** Per-relay answer state of one event being published. */
type Delivery = 'pending' | 'acked' | 'refused';

/** The promise a publish returns, with its settling functions. */
interface Waiter {
  resolve: (result: PublishResult) => void;
  reject: (error: Error) => void;
  promise: Promise<PublishResult>;
}

/** One event being delivered. */
interface Inflight {
  event: XpEvent;
  frame: string;
  expiresAt: number;
  deliveries: Map<string, Delivery>;
  reasons: Record<string, string>;
  retryTimers: Set<ReturnType<typeof setTimeout>>;
  expiryTimer: ReturnType<typeof setTimeout> | undefined;
  waiter: Waiter | undefined;
  settled: boolean;
  /** In the outbox (false: in memory only, see {@link PublishOptions.durable}). */
  durable: boolean;
}

/** The events a pool is delivering, each until every relay answered or it expired. */
export class _PoolPublisher {
  readonly #inflight = new Map<string, Inflight>();
  readonly #o: _PublisherOptions;

  constructor(options: _PublisherOptions) {
    this.#o = options;
  }

  /** Starts delivering what the outbox still holds from an earlier run. */
  async restore(): Promise<void> {
    for (const entry of await this.#o.outbox.pending(this.#nowSeconds()))
      this.#track(entry.event, entry.expiresAt, false);
  }

  /** Events still waiting will be delivered to the relay at `url` too. */
  addRelay(url: string): void {
    for (const inflight of this.#inflight.values()) inflight.deliveries.set(url, 'pending');
  }

  /** Number of events in the outbox. */
  outboxSize(): Promise<number> {
    return this.#o.outbox.size();
  }

  /** See `RelayPool.enqueue`. */
  async enqueue(event: XpEvent): Promise<void> {
    await this.#enqueue(event, true);
  }

  /** See `RelayPool.publish`. */
  async publish(event: XpEvent, options: PublishOptions): Promise<PublishResult> {
    const inflight = await this.#enqueue(event, options.durable ?? true);
    // close() may have run while we awaited: it settled the waiters that existed then, not ours.
    if (this.#o.connections.closed) {
      throw new RelayClientError('CLOSED', 'the relay pool closed before any relay accepted the event');
    }
    if (!inflight.waiter) {
      // Restored from the outbox (or only enqueued) and maybe already accepted by a relay.
      inflight.waiter = _deferred();
      const acked = [...inflight.deliveries].find(([, delivery]) => delivery === 'acked');
      if (acked) {
        inflight.settled = true;
        inflight.waiter.resolve({ relay: acked[0], duplicate: false });
      }
    }
    return inflight.waiter.promise;
  }

  /**
   * Starts delivering `event` (written to the outbox first when `durable`), or returns the
   * delivery already under way. See `RelayPool.enqueue` for the refusals.
   */
  async #enqueue(event: XpEvent, durable: boolean): Promise<Inflight> {
    if (this.#o.connections.closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
    const existing = this.#inflight.get(event.id);
    if (existing) return existing;
    const expiresAt = getExpiration(event) ?? this.#nowSeconds() + this.#o.retentionSeconds;
    if (expiresAt < this.#nowSeconds()) {
      throw new RelayClientError(
        'PUBLISH_EXPIRED',
        `event ${event.id} expired at ${expiresAt}, before it was published`,
      );
    }
    const waiting = durable ? await this.#o.outbox.size() : this.#inflight.size;
    if (waiting >= this.#o.maxOutbox) {
      throw new RelayClientError(
        'OUTBOX_FULL',
        `${this.#o.maxOutbox} events already wait for relays; publish again when they drain`,
      );
    }
    if (!durable) return this.#track(event, expiresAt, false, false);
    await this.#o.outbox.add({ event, expiresAt });
    if (this.#o.connections.closed)
      throw new RelayClientError('CLOSED', 'the relay pool closed; the event stays in the outbox');
    // Another caller may have enqueued the same event while we awaited the outbox.
    return this.#inflight.get(event.id) ?? this.#track(event, expiresAt, false);
  }

  /** Re-sends to a relay that (re)opened every event it has not answered. */
  resend(url: string, connection: RelayConnection): void {
    for (const inflight of this.#inflight.values()) {
      if (inflight.deliveries.get(url) === 'pending') connection.send(inflight.frame);
    }
  }

  /** A relay's `OK`: the event accepted, retried after a transient refusal, or refused for good. */
  onOk(url: string, message: Extract<RelayMessage, { type: 'OK' }>): void {
    const { eventId: id, accepted, reason } = message;
    const inflight = this.#inflight.get(id);
    if (inflight === undefined) return;
    // Already answered by this relay (a late duplicate OK after a re-send): nothing changes.
    if (inflight.deliveries.get(url) !== 'pending') return;
    if (accepted) {
      inflight.deliveries.set(url, 'acked');
      if (inflight.waiter && !inflight.settled) {
        inflight.settled = true;
        inflight.waiter.resolve({ relay: url, duplicate: reasonPrefixOf(reason) === 'duplicate' });
      }
    } else if (isRetryableReason(reason)) {
      this.#retryLater(inflight, url, reason);
      return;
    } else {
      inflight.deliveries.set(url, 'refused');
      inflight.reasons[url] = reason;
    }
    if ([...inflight.deliveries.values()].every((d) => d !== 'pending')) this.#answeredByAll(inflight);
  }

  /** Stops every delivery; a publish still waiting fails with `CLOSED`. The outbox keeps its events. */
  async close(): Promise<void> {
    for (const inflight of this.#inflight.values()) {
      this.#clearTimers(inflight);
      if (inflight.waiter && !inflight.settled) {
        inflight.settled = true;
        inflight.waiter.reject(
          new RelayClientError('CLOSED', 'the relay pool closed before any relay accepted the event'),
        );
      }
    }
    this.#inflight.clear();
    await this.#o.outbox.close();
  }

  #nowSeconds(): number {
    return Math.floor(this.#o.now() / 1000);
  }

  /** Starts delivering an event to every relay. */
  #track(event: XpEvent, expiresAt: number, withWaiter: boolean, durable = true): Inflight {
    const { connections } = this.#o;
    const inflight: Inflight = {
      event,
      frame: clientMessage.event(event),
      expiresAt,
      deliveries: new Map([...connections.byUrl.keys()].map((url) => [url, 'pending' as Delivery])),
      reasons: {},
      retryTimers: new Set(),
      expiryTimer: undefined,
      waiter: withWaiter ? _deferred() : undefined,
      settled: false,
      durable,
    };
    this.#inflight.set(event.id, inflight);
    const untilExpiry = Math.max(0, (expiresAt + 1) * 1000 - this.#o.now());
    inflight.expiryTimer = setTimeout(() => this.#expire(event.id), Math.min(untilExpiry, 2 ** 31 - 1));
    inflight.expiryTimer.unref?.();
    connections.sendToAll(inflight.frame);
    return inflight;
  }

  /** Re-sends to `url` after the pause its transient refusal asked for (1 s when it named none). */
  #retryLater(inflight: Inflight, url: string, reason: string): void {
    inflight.reasons[url] = reason;
    const retryAfter = retryAfterOf(reason) ?? 1;
    const timer = setTimeout(() => {
      inflight.retryTimers.delete(timer);
      if (inflight.deliveries.get(url) === 'pending')
        this.#o.connections.byUrl.get(url)?.send(inflight.frame);
    }, retryAfter * 1000);
    timer.unref?.();
    inflight.retryTimers.add(timer);
  }

  /** Every relay answered: the event is done, and a publish no relay accepted is refused. */
  #answeredByAll(inflight: Inflight): void {
    this.#finish(inflight);
    if (inflight.waiter && !inflight.settled) {
      inflight.settled = true;
      const detail = Object.entries(inflight.reasons)
        .map(([relay, why]) => `${relay}: ${why}`)
        .join('; ');
      inflight.waiter.reject(
        new RelayClientError('PUBLISH_REFUSED', `every relay refused event ${inflight.event.id}: ${detail}`, {
          reasons: inflight.reasons,
        }),
      );
    }
  }

  #expire(id: string): void {
    const inflight = this.#inflight.get(id);
    if (!inflight) return;
    this.#finish(inflight);
    if (inflight.waiter && !inflight.settled) {
      inflight.settled = true;
      const detail = Object.entries(inflight.reasons)
        .map(([url, why]) => `${url}: ${why}`)
        .join('; ');
      inflight.waiter.reject(
        new RelayClientError(
          'PUBLISH_EXPIRED',
          `event ${id} expired at ${inflight.expiresAt} before any relay accepted it${detail ? ` (${detail})` : ''}`,
          { reasons: inflight.reasons },
        ),
      );
    }
  }

  #finish(inflight: Inflight): void {
    this.#clearTimers(inflight);
    this.#inflight.delete(inflight.event.id);
    if (!inflight.durable) return;
    this.#o.outbox.remove(inflight.event.id).catch(() => {
      // Expired entries are swept by `pending`; a failed remove only means a harmless re-send.
    });
  }

  #clearTimers(inflight: Inflight): void {
    if (inflight.expiryTimer) clearTimeout(inflight.expiryTimer);
    for (const timer of inflight.retryTimers) clearTimeout(timer);
    inflight.retryTimers.clear();
  }
}

function _deferred(): Waiter {
  let resolve!: (result: PublishResult) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<PublishResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A publish nobody awaits must not crash the process with an unhandled rejection.
  promise.catch(() => {});
  return { resolve, reject, promise };
}
