/**
 * The relay pool: one client over several relays. It composes the pool's relay connections
 * (pool-connections.ts: reconnect, status, waits), publishing through the outbox
 * (pool-publisher.ts: first `OK` resolves, delivery to every relay until answered or expired) and
 * subscriptions (pool-subscriptions.ts: verified, deduplicated delivery, gap-free resubscription
 * after a reconnect), and routes each relay's frames to them.
 * @module
 */
import type { SignatureBackend, XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import type { Filter, RelayMessage } from '@xprotocol/wire';
import type { PolicyLookup } from './address-policy.js';
import type { BackoffOptions } from './backoff.js';
import { RelayClientError } from './errors.js';
import { MemoryOutbox, type Outbox } from './outbox.js';
import { _checkRelayUrl, _PoolConnections, type RelayStatus } from './pool-connections.js';
import { _PoolPublisher, type PublishOptions, type PublishResult } from './pool-publisher.js';
import { _PoolSubscriptions, type Subscription, type SubscriptionHandlers } from './pool-subscriptions.js';
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

/** A client over several relays. Create with {@link RelayPool.open}. */
export class RelayPool {
  readonly #connections: _PoolConnections;
  readonly #publisher: _PoolPublisher;
  readonly #subscriptions: _PoolSubscriptions;
  readonly #onNotice: RelayPoolOptions['onNotice'];

  private constructor(options: RelayPoolOptions) {
    const retentionSeconds = options.retentionSeconds ?? 3600;
    const now = options.now ?? Date.now;
    this.#onNotice = options.onNotice;
    const onConnectionError = options.onConnectionError;
    this.#connections = new _PoolConnections(
      {
        onOpen: (url) => this.#onOpen(url),
        onFrame: (url, frame) => this.#onFrame(url, frame),
        onDisconnect: (url) => this.#subscriptions.onDisconnect(url),
        onRetry: (url, reason, retryInMs) => onConnectionError?.(url, reason, retryInMs),
      },
      {
        backoff: { initialMs: 500, maxMs: 30_000, ...options.reconnect },
        connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
        maxPayload: options.maxFrameBytes ?? 4 * 1024 * 1024 + 64 * 1024,
      },
      now,
    );
    this.#publisher = new _PoolPublisher({
      outbox: options.outbox ?? new MemoryOutbox(),
      connections: this.#connections,
      retentionSeconds,
      maxOutbox: options.maxOutbox ?? 10_000,
      now,
    });
    this.#subscriptions = new _PoolSubscriptions({
      connections: this.#connections,
      retentionSeconds,
      maxSeenPerSubscription: options.maxSeenPerSubscription ?? 100_000,
      resubscribePageSize: options.resubscribePageSize ?? 500,
      signatures: _rememberValidSignatures(options.signatures ?? nodeSignatures),
      now,
      onInvalidEvent: options.onInvalidEvent,
    });
    for (const url of options.urls) this.#connections.add(url);
  }

  /**
   * Adds a relay learned at run time (e.g. from an endpoint's discovery document): events still
   * waiting are delivered to it too, and every subscription is sent to it once it opens. Returns
   * false when the pool already has it. Throws `INVALID_OPTIONS` for a URL that is not ws(s)://.
   * `options.lookup` resolves its host name for every connect (an {@link AddressPolicy}'s lookup
   * checks and pins the addresses).
   */
  addRelay(url: string, options: { lookup?: PolicyLookup } = {}): boolean {
    if (this.#connections.closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
    _checkRelayUrl(url);
    if (this.#connections.byUrl.has(url)) return false;
    this.#publisher.addRelay(url);
    this.#connections.add(url, options.lookup).start();
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
    await pool.#publisher.restore();
    for (const connection of pool.#connections.byUrl.values()) connection.start();
    return pool;
  }

  /** The state of each relay connection. */
  relays(): RelayStatus[] {
    return this.#connections.relays();
  }

  /**
   * Waits for the first connect attempt of every relay to end, at most `timeoutMs`, and resolves
   * with each relay's status (a long-running client logs which relays are unreachable and why; the
   * pool keeps retrying them). Resolves at once when one relay is already open and the others
   * have been tried.
   */
  attempted(timeoutMs = 10_000): Promise<RelayStatus[]> {
    return this.#connections.attempted(timeoutMs);
  }

  /**
   * For one-shot clients: resolves with the relays' status as soon as one relay is open. Rejects
   * with `UNREACHABLE` as soon as every relay has failed a connect attempt (the pool would retry
   * them, but a one-shot command should not wait), or when none opened within `timeoutMs`; the
   * error's `reasons` give each relay's failure, e.g. `connect ECONNREFUSED 127.0.0.1:8765`.
   */
  connect(timeoutMs = 10_000): Promise<RelayStatus[]> {
    return this.#connections.connect(timeoutMs);
  }

  /** Resolves once at least one relay is open, or rejects after `timeoutMs`. */
  waitForConnection(timeoutMs = 10_000): Promise<void> {
    return this.#connections.waitForConnection(timeoutMs);
  }

  /** Number of events not yet answered by every relay. */
  outboxSize(): Promise<number> {
    return this.#publisher.outboxSize();
  }

  /**
   * Puts a signed event in the outbox and starts delivering it to every relay. Resolves once the
   * event is durable in the outbox (with a {@link SqliteOutbox}: it survives a crash from here on);
   * delivery goes on in the background until every relay answered or the event expired. Rejects
   * with `PUBLISH_EXPIRED` for an event already expired, `OUTBOX_FULL` when too many events wait.
   * Enqueuing an event already waiting is a no-op.
   */
  enqueue(event: XpEvent): Promise<void> {
    return this.#publisher.enqueue(event);
  }

  /**
   * Publishes a signed event: {@link RelayPool.enqueue}, then waits for the first relay's
   * `OK true`. Rejects with `PUBLISH_REFUSED` when every relay refused it for good,
   * `PUBLISH_EXPIRED` when it expired before any relay accepted it, `OUTBOX_FULL` when too many
   * events wait already, `CLOSED` when the pool closes first. Publishing the same event twice
   * returns the same outcome. With `durable: false` the event skips the outbox (no disk write
   * before it is sent; see {@link PublishOptions.durable}).
   */
  publish(event: XpEvent, options: PublishOptions = {}): Promise<PublishResult> {
    return this.#publisher.publish(event, options);
  }

  /** Subscribes on every relay, now and after each reconnect. */
  subscribe(filters: readonly Filter[], handlers: SubscriptionHandlers): Subscription {
    if (this.#connections.closed) throw new RelayClientError('CLOSED', 'the relay pool is closed');
    if (filters.length === 0)
      throw new RelayClientError('INVALID_OPTIONS', 'a subscription needs at least one filter');
    return this.#subscriptions.subscribe(filters, handlers);
  }

  /** Stops everything. Unacknowledged events stay in a durable outbox for the next run. */
  async close(): Promise<void> {
    if (this.#connections.closed) return;
    this.#connections.close();
    await this.#publisher.close();
  }

  /** A relay (re)opened: what it has not answered is sent again, then every subscription. */
  #onOpen(url: string): void {
    const connection = this.#connections.byUrl.get(url)!;
    this.#publisher.resend(url, connection);
    this.#subscriptions.resubscribe(url, connection);
  }

  #onFrame(url: string, message: RelayMessage): void {
    if (message.type === 'OK') this.#publisher.onOk(url, message);
    else if (message.type === 'EVENT') this.#subscriptions.onEvent(url, message);
    else if (message.type === 'EOSE') this.#subscriptions.onEose(url, message);
    else if (message.type === 'CLOSED') this.#subscriptions.onClosed(url, message);
    else if (message.type === 'NOTICE') this.#onNotice?.(url, message.reason);
    // AUTH: no relay this pool talks to asks for it (docs/protocol.md §9); the challenge is ignored.
  }
}
