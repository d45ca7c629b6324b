/**
 * The pool's relay connections: one self-healing {@link RelayConnection} per URL, what each
 * reports, and waits on their connect attempts (the first relay open, every relay tried). Closing
 * them closes the pool: no reconnect follows, and every wait ends.
 * @module
 */
import type { RelayMessage } from '@xprotocol/wire';
import type { PolicyLookup } from './address-policy.js';
import { RelayClientError } from './errors.js';
import { type ConnectionOptions, type ConnectionState, RelayConnection } from './relay-connection.js';

/** One relay connection as `RelayPool.relays` reports it. */
export interface RelayStatus {
  url: string;
  state: ConnectionState;
  /** Why the last connect attempt failed or the socket was lost; `''` once open. */
  lastError: string;
  /** True once a connect attempt has ended (opened or failed): the relay's reachability is known. */
  attempted: boolean;
}

/** What the pool hears from its connections, each call naming the relay. */
export interface _PoolConnectionEvents {
  onOpen(url: string): void;
  onFrame(url: string, message: RelayMessage): void;
  onDisconnect(url: string): void;
  onRetry(url: string, reason: string, retryInMs: number): void;
}

/** Throws `INVALID_OPTIONS` for a URL that is not ws:// or wss://. */
export function _checkRelayUrl(url: string): void {
  if (!/^wss?:\/\/[^\s/]+/.test(url)) {
    throw new RelayClientError(
      'INVALID_OPTIONS',
      `expected a ws:// or wss:// relay URL, got ${JSON.stringify(url)}`,
    );
  }
}

/** The relay connections of one pool, by URL. */
export class _PoolConnections {
  /** Every connection, by URL, in the order the relays were added. */
  readonly byUrl = new Map<string, RelayConnection>();
  readonly #events: _PoolConnectionEvents;
  readonly #options: ConnectionOptions;
  readonly #now: () => number;
  /** Called after every connection open or failed attempt (see {@link _PoolConnections.connect}). */
  readonly #watchers = new Set<() => void>();
  #closed = false;

  constructor(events: _PoolConnectionEvents, options: ConnectionOptions, now: () => number) {
    this.#events = events;
    this.#options = options;
    this.#now = now;
  }

  /** True once {@link _PoolConnections.close} ran: the pool is closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Adds a connection to `url` (not started); `lookup` resolves its host name for every connect. */
  add(url: string, lookup?: PolicyLookup): RelayConnection {
    const connection = new RelayConnection(
      url,
      {
        onOpen: () => {
          this.#events.onOpen(url);
          this.#notifyWatchers();
        },
        onFrame: (frame) => this.#events.onFrame(url, frame),
        onDisconnect: () => this.#events.onDisconnect(url),
        onRetry: (reason, retryInMs) => {
          this.#events.onRetry(url, reason, retryInMs);
          this.#notifyWatchers();
        },
      },
      lookup ? { ...this.#options, lookup } : this.#options,
    );
    this.byUrl.set(url, connection);
    return connection;
  }

  /** Sends `frame` on every open connection (the others get it again when they open). */
  sendToAll(frame: string): void {
    for (const connection of this.byUrl.values()) connection.send(frame);
  }

  /** The state of each relay connection. */
  relays(): RelayStatus[] {
    return [...this.byUrl.values()].map((c) => ({
      url: c.url,
      state: c.state,
      lastError: c.lastError,
      attempted: c.attempted,
    }));
  }

  /** See `RelayPool.attempted`. */
  async attempted(timeoutMs: number): Promise<RelayStatus[]> {
    await this.#watch(() => this.relays().every((r) => r.attempted || r.state === 'open'), timeoutMs);
    return this.relays();
  }

  /** See `RelayPool.connect`. */
  async connect(timeoutMs: number): Promise<RelayStatus[]> {
    const anyOpen = () => this.relays().some((r) => r.state === 'open');
    await this.#watch(() => anyOpen() || this.relays().every((r) => r.attempted), timeoutMs);
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

  /** See `RelayPool.waitForConnection`. */
  async waitForConnection(timeoutMs: number): Promise<void> {
    const deadline = this.#now() + timeoutMs;
    while (![...this.byUrl.values()].some((c) => c.state === 'open')) {
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

  /** Closes every connection for good and ends every wait. */
  close(): void {
    this.#closed = true;
    for (const connection of this.byUrl.values()) connection.close();
    this.#notifyWatchers();
  }

  /** Resolves once `done()` holds (checked after each open or failed attempt), the pool closes, or `timeoutMs` passes. */
  #watch(done: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const check = () => {
        if (!this.#closed && !done()) return;
        this.#watchers.delete(check);
        clearTimeout(timer);
        resolve();
      };
      this.#watchers.add(check);
      timer = setTimeout(() => {
        this.#watchers.delete(check);
        resolve();
      }, timeoutMs);
      timer.unref?.();
      check();
    });
  }

  #notifyWatchers(): void {
    for (const watcher of [...this.#watchers]) watcher();
  }
}
