/**
 * The relay pool: one client over several relays.
 *
 * Publishing: an event goes into the outbox first, then to every relay; `publish` resolves on the
 * first `OK true` and the pool keeps delivering to the other relays (re-sending after each
 * reconnect, retrying rate-limited and transient refusals) until every relay has answered or the
 * event expires. Only then does it leave the outbox — so nothing is lost to a crash or a dead relay
 * while it is unexpired.
 *
 * Subscribing: every received event is verified (id and signature) and deduplicated across relays
 * before it is delivered. After a reconnect, each subscription is re-sent with
 * `since = disconnectedAt − retentionSeconds`: a relay accepts no event whose `created_at` is older
 * than its retention, so every event it accepted while we were away has a `created_at` at or after
 * that bound — the resubscription misses nothing, and deduplication hides what we already had.
 * When a resubscription fills its page, older pages are fetched until one comes back short.
 * @module
 */
import { getExpiration, type SignatureBackend, verifyEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import {
  clientMessage,
  type Filter,
  isRetryableReason,
  type RelayMessage,
  reasonPrefixOf,
  retryAfterOf,
} from '@xprotocol/wire';
import type { PolicyLookup } from './address-policy.js';
import type { BackoffOptions } from './backoff.js';
import { RelayClientError } from './errors.js';
import { MemoryOutbox, type Outbox } from './outbox.js';
import { type ConnectionState, RelayConnection } from './relay-connection.js';
import { SeenIds } from './seen-ids.js';
import { _rememberValidSignatures } from './verified-signatures.js';

/** Options of {@link RelayPool.open}. */
export interface RelayPoolOptions {
  /** Relay URLs (`ws://` or `wss://`); at least one. */
  urls: readonly string[];
  /** Where unacknowledged events wait. Default: a {@link MemoryOutbox} (lost on restart). */
  outbox?: Outbox;
  /** Reconnect backoff. Default 500 ms growing to 30 s. */
  reconnect?: Partial<BackoffOptions>;
  /** A connect attempt that takes longer is abandoned, in ms. Default 10000. */
  connectTimeoutMs?: number;
  /**
   * The relays' retention and freshness window, in seconds: the resubscription window, the default
   * lifetime of an event without `expiration`, and how long ids are remembered. Default 3600.
   */
  retentionSeconds?: number;
  /** Most events in the outbox; `publish` fails with `OUTBOX_FULL` beyond it. Default 10000. */
  maxOutbox?: number;
  /** Most ids each subscription remembers for deduplication. Default 100000. */
  maxSeenPerSubscription?: number;
  /** Page size for resubscription queries. Default 500 (the relays' usual cap). */
  resubscribePageSize?: number;
  /** Largest frame accepted from a relay, in bytes. Default 4 MiB + 64 KiB. */
  maxFrameBytes?: number;
  /** Signature backend for verifying received events. Default node:crypto. */
  signatures?: SignatureBackend;
  /** The clock, in ms. Default `Date.now`. */
  now?: () => number;
  /** Called with a relay's NOTICE. */
  onNotice?: (url: string, message: string) => void;
  /** Called when a relay sends an event that fails verification (it is dropped). */
  onInvalidEvent?: (url: string, reason: string) => void;
  /** Called when a relay cannot be reached or drops the connection; it is retried in `retryInMs`. */
  onConnectionError?: (url: string, reason: string, retryInMs: number) => void;
}

/** One relay connection as {@link RelayPool.relays} reports it. */
export interface RelayStatus {
  url: string;
  state: ConnectionState;
  /** Why the last connect attempt failed or the socket was lost; `''` once open. */
  lastError: string;
  /** True once a connect attempt has ended (opened or failed): the relay's reachability is known. */
  attempted: boolean;
}

/** How a publish ended. */
export interface PublishResult {
  /** The relay whose `OK true` resolved the publish. */
  relay: string;
  /** True when that relay already had the event. */
  duplicate: boolean;
}

/** Options of {@link RelayPool.publish}. */
export interface PublishOptions {
  /**
   * False: the event is tracked in memory only, never written to the outbox. It is still re-sent
   * after reconnects and retried until a relay answers or it expires, while this process lives; a
   * restart forgets it. For an event that means nothing once this process is gone (a request
   * whose waiting caller goes with it). Default true.
   */
  durable?: boolean;
}

/** Callbacks of a subscription. */
export interface SubscriptionHandlers {
  /** A verified event, delivered once per subscription whatever relay sent it. */
  onEvent(event: XpEvent, relay: string): void;
  /** A relay finished sending stored events for this subscription. */
  onEose?(relay: string): void;
  /** A relay refused or ended the subscription for good (bad filter, restricted). */
  onClosed?(relay: string, reason: string): void;
}

/** A live subscription. */
export interface Subscription {
  readonly id: string;
  close(): void;
}

/** Per-relay answer state of one event being published. */
type Delivery = 'pending' | 'acked' | 'refused';

interface Inflight {
  event: XpEvent;
  frame: string;
  expiresAt: number;
  deliveries: Map<string, Delivery>;
  reasons: Record<string, string>;
  retryTimers: Set<ReturnType<typeof setTimeout>>;
  expiryTimer: ReturnType<typeof setTimeout> | undefined;
  waiter:
    | {
        resolve: (result: PublishResult) => void;
        reject: (error: Error) => void;
        promise: Promise<PublishResult>;
      }
    | undefined;
  settled: boolean;
  /** In the outbox (false: in memory only, see {@link PublishOptions.durable}). */
  durable: boolean;
}

interface RelaySubscriptionState {
  /** When the connection carrying this subscription was lost (unix s), until it is re-sent. */
  disconnectedAt: number | undefined;
  /** Page REQs in flight for a resubscription: page sub id → events counted. */
  pages: Map<string, { count: number; oldest: number; since: number }>;
}

interface SubscriptionState {
  id: string;
  filters: Filter[];
  handlers: SubscriptionHandlers;
  seen: SeenIds;
  relays: Map<string, RelaySubscriptionState>;
}

/** A client over several relays. Create with {@link RelayPool.open}. */
export class RelayPool {
  readonly #connections = new Map<string, RelayConnection>();
  readonly #outbox: Outbox;
  readonly #inflight = new Map<string, Inflight>();
  readonly #subscriptions = new Map<string, SubscriptionState>();
  readonly #options: Required<
    Pick<
      RelayPoolOptions,
      'retentionSeconds' | 'maxOutbox' | 'maxSeenPerSubscription' | 'resubscribePageSize'
    >
  >;
  readonly #now: () => number;
  readonly #signatures: SignatureBackend;
  readonly #onNotice: RelayPoolOptions['onNotice'];
  readonly #onInvalidEvent: RelayPoolOptions['onInvalidEvent'];
  readonly #onConnectionError: RelayPoolOptions['onConnectionError'];
  readonly #connectionOptions: ConstructorParameters<typeof RelayConnection>[2];
  /** Called after every connection open or failed attempt (see {@link RelayPool.connect}). */
  readonly #connectionWatchers = new Set<() => void>();
  #nextSubscription = 0;
  #closed = false;

  private constructor(options: RelayPoolOptions) {
    this.#outbox = options.outbox ?? new MemoryOutbox();
    this.#options = {
      retentionSeconds: options.retentionSeconds ?? 3600,
      maxOutbox: options.maxOutbox ?? 10_000,
      maxSeenPerSubscription: options.maxSeenPerSubscription ?? 100_000,
      resubscribePageSize: options.resubscribePageSize ?? 500,
    };
    this.#now = options.now ?? Date.now;
    this.#signatures = _rememberValidSignatures(options.signatures ?? nodeSignatures);
    this.#onNotice = options.onNotice;
    this.#onInvalidEvent = options.onInvalidEvent;
    this.#connectionOptions = {
      backoff: { initialMs: 500, maxMs: 30_000, ...options.reconnect },
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      maxPayload: options.maxFrameBytes ?? 4 * 1024 * 1024 + 64 * 1024,
    };
    this.#onConnectionError = options.onConnectionError;
    for (const url of options.urls) this.#addConnection(url);
  }

  #addConnection(url: string, lookup?: PolicyLookup): RelayConnection {
    const connection = new RelayConnection(
      url,
      {
        onOpen: () => {
          this.#onOpen(url);
          this.#notifyConnectionWatchers();
        },
        onFrame: (frame) => this.#onFrame(url, frame),
        onDisconnect: () => this.#onDisconnect(url),
        onRetry: (reason, retryInMs) => {
          this.#onConnectionError?.(url, reason, retryInMs);
          this.#notifyConnectionWatchers();
        },
      },
      lookup ? { ...this.#connectionOptions, lookup } : this.#connectionOptions,
    );
    this.#connections.set(url, connection);
    return connection;
  }

  /**
   * Adds a relay learned at run time (e.g. from an endpoint's discovery document): events still
   * waiting are delivered to it too, and every subscription is sent to it once it opens. Returns
   * false when the pool already has it. Throws `INVALID_OPTIONS` for a URL that is not ws(s)://.
   * `options.lookup` resolves its host name for every connect (an {@link AddressPolicy}'s lookup
   * checks and pins the addresses).
   */
  addRelay(url: string, options: { lookup?: PolicyLookup } = {}): boolean {
    if (this.#closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
    _checkRelayUrl(url);
    if (this.#connections.has(url)) return false;
    for (const inflight of this.#inflight.values()) inflight.deliveries.set(url, 'pending');
    this.#addConnection(url, options.lookup).start();
    return true;
  }

  /**
   * Creates a pool, starts connecting to every relay (without waiting) and re-publishes what the
   * outbox still holds from an earlier run.
   */
  static async open(options: RelayPoolOptions): Promise<RelayPool> {
    if (options.urls.length === 0) {
      throw new RelayClientError('INVALID_OPTIONS', 'expected at least one relay URL, got none');
    }
    for (const url of options.urls) {
      _checkRelayUrl(url);
    }
    if (new Set(options.urls).size !== options.urls.length) {
      throw new RelayClientError('INVALID_OPTIONS', 'relay URLs must be distinct');
    }
    const pool = new RelayPool(options);
    for (const entry of await pool.#outbox.pending(pool.#nowSeconds()))
      pool.#track(entry.event, entry.expiresAt, false);
    for (const connection of pool.#connections.values()) connection.start();
    return pool;
  }

  /** The state of each relay connection. */
  relays(): RelayStatus[] {
    return [...this.#connections.values()].map((c) => ({
      url: c.url,
      state: c.state,
      lastError: c.lastError,
      attempted: c.attempted,
    }));
  }

  /**
   * Waits for the first connect attempt of every relay to end, at most `timeoutMs`, and resolves
   * with each relay's status (a long-running client logs which relays are unreachable and why; the
   * pool keeps retrying them). Resolves at once when one relay is already open and the others
   * have been tried.
   */
  async attempted(timeoutMs = 10_000): Promise<RelayStatus[]> {
    await this.#watchConnections(
      () => this.relays().every((r) => r.attempted || r.state === 'open'),
      timeoutMs,
    );
    return this.relays();
  }

  /**
   * For one-shot clients: resolves with the relays' status as soon as one relay is open. Rejects
   * with `UNREACHABLE` as soon as every relay has failed a connect attempt (the pool would retry
   * them, but a one-shot command should not wait), or when none opened within `timeoutMs`; the
   * error's `reasons` give each relay's failure, e.g. `connect ECONNREFUSED 127.0.0.1:8765`.
   */
  async connect(timeoutMs = 10_000): Promise<RelayStatus[]> {
    const anyOpen = () => this.relays().some((r) => r.state === 'open');
    await this.#watchConnections(() => anyOpen() || this.relays().every((r) => r.attempted), timeoutMs);
    if (this.#closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
    const relays = this.relays();
    if (anyOpen()) return relays;
    const reasons = Object.fromEntries(
      relays.map((r) => [r.url, r.lastError || `no answer within ${timeoutMs} ms`]),
    );
    const detail = Object.entries(reasons)
      .map(([url, why]) => `${url}: ${why}`)
      .join('; ');
    throw new RelayClientError(
      'UNREACHABLE',
      `cannot connect to ${relays.length === 1 ? 'the relay' : `any of ${relays.length} relays`}: ${detail}`,
      { reasons },
    );
  }

  /** Resolves once `done()` holds (checked after each open or failed attempt), the pool closes, or `timeoutMs` passes. */
  #watchConnections(done: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const check = () => {
        if (!this.#closed && !done()) return;
        this.#connectionWatchers.delete(check);
        clearTimeout(timer);
        resolve();
      };
      this.#connectionWatchers.add(check);
      timer = setTimeout(() => {
        this.#connectionWatchers.delete(check);
        resolve();
      }, timeoutMs);
      timer.unref?.();
      check();
    });
  }

  #notifyConnectionWatchers(): void {
    for (const watcher of [...this.#connectionWatchers]) watcher();
  }

  /** Resolves once at least one relay is open, or rejects after `timeoutMs`. */
  async waitForConnection(timeoutMs = 10_000): Promise<void> {
    const deadline = this.#now() + timeoutMs;
    while (![...this.#connections.values()].some((c) => c.state === 'open')) {
      if (this.#closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
      if (this.#now() > deadline) {
        const detail = this.relays()
          .map((r) => `${r.url}: ${r.lastError || r.state}`)
          .join('; ');
        throw new RelayClientError(
          'PUBLISH_EXPIRED',
          `no relay reachable within ${timeoutMs} ms (${detail})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Number of events not yet answered by every relay. */
  outboxSize(): Promise<number> {
    return this.#outbox.size();
  }

  /**
   * Puts a signed event in the outbox and starts delivering it to every relay. Resolves once the
   * event is durable in the outbox (with a {@link SqliteOutbox}: it survives a crash from here on);
   * delivery goes on in the background until every relay answered or the event expired. Rejects
   * with `PUBLISH_EXPIRED` for an event already expired, `OUTBOX_FULL` when too many events wait.
   * Enqueuing an event already waiting is a no-op.
   */
  async enqueue(event: XpEvent): Promise<void> {
    await this.#enqueue(event, true);
  }

  /**
   * Publishes a signed event: {@link RelayPool.enqueue}, then waits for the first relay's
   * `OK true`. Rejects with `PUBLISH_REFUSED` when every relay refused it for good,
   * `PUBLISH_EXPIRED` when it expired before any relay accepted it, `OUTBOX_FULL` when too many
   * events wait already, `CLOSED` when the pool closes first. Publishing the same event twice
   * returns the same outcome. With `durable: false` the event skips the outbox (no disk write
   * before it is sent; see {@link PublishOptions.durable}).
   */
  async publish(event: XpEvent, options: PublishOptions = {}): Promise<PublishResult> {
    const inflight = await this.#enqueue(event, options.durable ?? true);
    // close() may have run while we awaited: it settled the waiters that existed then, not ours.
    if (this.#closed) {
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

  async #enqueue(event: XpEvent, durable: boolean): Promise<Inflight> {
    if (this.#closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
    const existing = this.#inflight.get(event.id);
    if (existing) return existing;
    const expiresAt = getExpiration(event) ?? this.#nowSeconds() + this.#options.retentionSeconds;
    if (expiresAt < this.#nowSeconds()) {
      throw new RelayClientError(
        'PUBLISH_EXPIRED',
        `event ${event.id} expired at ${expiresAt}, before it was published`,
      );
    }
    const waiting = durable ? await this.#outbox.size() : this.#inflight.size;
    if (waiting >= this.#options.maxOutbox) {
      throw new RelayClientError(
        'OUTBOX_FULL',
        `${this.#options.maxOutbox} events already wait for relays; publish again when they drain`,
      );
    }
    if (!durable) return this.#track(event, expiresAt, false, false);
    await this.#outbox.add({ event, expiresAt });
    if (this.#closed)
      throw new RelayClientError('CLOSED', 'the relay pool closed; the event stays in the outbox');
    // Another caller may have enqueued the same event while we awaited the outbox.
    return this.#inflight.get(event.id) ?? this.#track(event, expiresAt, false);
  }

  /** Subscribes on every relay, now and after each reconnect. */
  subscribe(filters: readonly Filter[], handlers: SubscriptionHandlers): Subscription {
    if (this.#closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
    if (filters.length === 0)
      throw new RelayClientError('INVALID_OPTIONS', 'a subscription needs at least one filter');
    const id = `s${++this.#nextSubscription}`;
    const state: SubscriptionState = {
      id,
      filters: filters.map((f) => ({ ...f })),
      handlers,
      seen: new SeenIds(this.#options.maxSeenPerSubscription),
      relays: new Map(),
    };
    this.#subscriptions.set(id, state);
    for (const connection of this.#connections.values()) {
      state.relays.set(connection.url, { disconnectedAt: undefined, pages: new Map() });
      connection.send(clientMessage.req(id, state.filters));
    }
    return {
      id,
      close: () => {
        if (!this.#subscriptions.delete(id)) return;
        for (const connection of this.#connections.values()) connection.send(clientMessage.close(id));
      },
    };
  }

  /** Stops everything. Unacknowledged events stay in a durable outbox for the next run. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const connection of this.#connections.values()) connection.close();
    this.#notifyConnectionWatchers();
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
    await this.#outbox.close();
  }

  #nowSeconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** Starts delivering an event to every relay. */
  #track(event: XpEvent, expiresAt: number, withWaiter: boolean, durable = true): Inflight {
    const inflight: Inflight = {
      event,
      frame: clientMessage.event(event),
      expiresAt,
      deliveries: new Map([...this.#connections.keys()].map((url) => [url, 'pending' as Delivery])),
      reasons: {},
      retryTimers: new Set(),
      expiryTimer: undefined,
      waiter: withWaiter ? _deferred() : undefined,
      settled: false,
      durable,
    };
    this.#inflight.set(event.id, inflight);
    const untilExpiry = Math.max(0, (expiresAt + 1) * 1000 - this.#now());
    inflight.expiryTimer = setTimeout(() => this.#expire(event.id), Math.min(untilExpiry, 2 ** 31 - 1));
    inflight.expiryTimer.unref?.();
    for (const connection of this.#connections.values()) connection.send(inflight.frame);
    return inflight;
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
    this.#outbox.remove(inflight.event.id).catch(() => {
      // Expired entries are swept by `pending`; a failed remove only means a harmless re-send.
    });
  }

  #clearTimers(inflight: Inflight): void {
    if (inflight.expiryTimer) clearTimeout(inflight.expiryTimer);
    for (const timer of inflight.retryTimers) clearTimeout(timer);
    inflight.retryTimers.clear();
  }

  #onOpen(url: string): void {
    const connection = this.#connections.get(url)!;
    for (const inflight of this.#inflight.values()) {
      if (inflight.deliveries.get(url) === 'pending') connection.send(inflight.frame);
    }
    const nowSeconds = this.#nowSeconds();
    for (const subscription of this.#subscriptions.values()) {
      let relayState = subscription.relays.get(url);
      if (!relayState) {
        relayState = { disconnectedAt: undefined, pages: new Map() };
        subscription.relays.set(url, relayState);
      }
      subscription.seen.forgetBefore(nowSeconds - 2 * this.#options.retentionSeconds);
      const filters =
        relayState.disconnectedAt === undefined
          ? subscription.filters
          : this.#resubscribeFilters(subscription, relayState, relayState.disconnectedAt);
      relayState.disconnectedAt = undefined;
      connection.send(clientMessage.req(subscription.id, filters));
    }
  }

  /** Filters for re-sending a subscription after a loss; registers paging for full pages. */
  #resubscribeFilters(
    subscription: SubscriptionState,
    relayState: RelaySubscriptionState,
    lostAt: number,
  ): Filter[] {
    const windowStart = Math.max(0, lostAt - this.#options.retentionSeconds);
    relayState.pages.set(subscription.id, { count: 0, oldest: Number.POSITIVE_INFINITY, since: windowStart });
    return subscription.filters.map((filter) => {
      const { limit: _limit, ...rest } = filter;
      return {
        ...rest,
        since: Math.max(filter.since ?? 0, windowStart),
        limit: this.#options.resubscribePageSize,
      };
    });
  }

  #onDisconnect(url: string): void {
    const lostAt = this.#nowSeconds();
    for (const subscription of this.#subscriptions.values()) {
      const relayState = subscription.relays.get(url);
      if (relayState) {
        relayState.disconnectedAt = lostAt;
        relayState.pages.clear();
      }
    }
  }

  #onFrame(url: string, message: RelayMessage): void {
    if (message.type === 'OK') this.#onOk(url, message);
    else if (message.type === 'EVENT') this.#onEvent(url, message);
    else if (message.type === 'EOSE') this.#onEose(url, message);
    else if (message.type === 'CLOSED') this.#onClosed(url, message);
    else if (message.type === 'NOTICE') this.#onNotice?.(url, message.reason);
    // AUTH: no relay this pool talks to asks for it (docs/protocol.md §9); the challenge is ignored.
  }

  #onOk(url: string, message: Extract<RelayMessage, { type: 'OK' }>): void {
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
      inflight.reasons[url] = reason;
      const retryAfter = retryAfterOf(reason) ?? 1;
      const timer = setTimeout(() => {
        inflight.retryTimers.delete(timer);
        if (inflight.deliveries.get(url) === 'pending') this.#connections.get(url)?.send(inflight.frame);
      }, retryAfter * 1000);
      timer.unref?.();
      inflight.retryTimers.add(timer);
      return;
    } else {
      inflight.deliveries.set(url, 'refused');
      inflight.reasons[url] = reason;
    }
    if ([...inflight.deliveries.values()].every((d) => d !== 'pending')) {
      this.#finish(inflight);
      if (inflight.waiter && !inflight.settled) {
        inflight.settled = true;
        const detail = Object.entries(inflight.reasons)
          .map(([relay, why]) => `${relay}: ${why}`)
          .join('; ');
        inflight.waiter.reject(
          new RelayClientError('PUBLISH_REFUSED', `every relay refused event ${id}: ${detail}`, {
            reasons: inflight.reasons,
          }),
        );
      }
    }
  }

  /** Resolves a frame's subscription id, including page ids `<sub>~<n>`. */
  #subscriptionOf(subscriptionId: string): { state: SubscriptionState; pageId: string } | undefined {
    const base = subscriptionId.split('~')[0]!;
    const state = this.#subscriptions.get(base);
    return state ? { state, pageId: subscriptionId } : undefined;
  }

  #onEvent(url: string, message: Extract<RelayMessage, { type: 'EVENT' }>): void {
    const found = this.#subscriptionOf(message.subscriptionId);
    if (!found) return;
    const verdict = verifyEvent(message.event, this.#signatures);
    if (!verdict.ok) {
      this.#onInvalidEvent?.(url, verdict.message);
      return;
    }
    const { event } = verdict;
    const page = found.state.relays.get(url)?.pages.get(found.pageId);
    if (page) {
      page.count++;
      page.oldest = Math.min(page.oldest, event.created_at);
    }
    if (found.state.seen.add(event.id, event.created_at)) found.state.handlers.onEvent(event, url);
  }

  #onEose(url: string, message: Extract<RelayMessage, { type: 'EOSE' }>): void {
    const found = this.#subscriptionOf(message.subscriptionId);
    if (!found) return;
    const relayState = found.state.relays.get(url);
    const page = relayState?.pages.get(found.pageId);
    if (relayState && page) {
      relayState.pages.delete(found.pageId);
      const connection = this.#connections.get(url)!;
      if (found.pageId !== found.state.id) connection.send(clientMessage.close(found.pageId));
      if (page.count >= this.#options.resubscribePageSize) {
        // A full page: older events may remain inside the window. Fetch the next page back.
        const nextId = `${found.state.id}~${Number(found.pageId.split('~')[1] ?? 0) + 1}`;
        relayState.pages.set(nextId, { count: 0, oldest: Number.POSITIVE_INFINITY, since: page.since });
        const filters = found.state.filters.map((filter) => {
          const { limit: _limit, ...rest } = filter;
          return {
            ...rest,
            since: Math.max(filter.since ?? 0, page.since),
            until: Math.min(filter.until ?? Number.MAX_SAFE_INTEGER, page.oldest),
            limit: this.#options.resubscribePageSize,
          };
        });
        connection.send(clientMessage.req(nextId, filters));
      }
    }
    if (found.pageId === found.state.id) found.state.handlers.onEose?.(url);
  }

  #onClosed(url: string, message: Extract<RelayMessage, { type: 'CLOSED' }>): void {
    const found = this.#subscriptionOf(message.subscriptionId);
    if (!found) return;
    const { reason } = message;
    if (isRetryableReason(reason)) {
      // A transient refusal: ask again after a pause, from where we are.
      const timer = setTimeout(() => {
        if (this.#subscriptions.get(found.state.id) !== found.state) return;
        this.#connections.get(url)?.send(clientMessage.req(found.state.id, found.state.filters));
      }, 1000);
      timer.unref?.();
      return;
    }
    found.state.handlers.onClosed?.(url, reason);
  }
}

function _checkRelayUrl(url: string): void {
  if (!/^wss?:\/\/[^\s/]+/.test(url)) {
    throw new RelayClientError(
      'INVALID_OPTIONS',
      `expected a ws:// or wss:// relay URL, got ${JSON.stringify(url)}`,
    );
  }
}

function _deferred(): NonNullable<Inflight['waiter']> {
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
