/**
 * What a relay can be told ({@link RelayOptions}) and the limits it runs with once the defaults
 * are applied and checked ({@link _relaySettings}).
 * @module
 */
import { MAX_EVENT_BYTES } from '@xprotocol/crypto';
import type { FilterLimits } from '@xprotocol/wire';
import { isLoopbackHost } from '@xprotocol/wire/admin';
import { RelayError } from './errors.js';
import type { EventCheckOptions } from './event-checks.js';
import type { MemoryEventStore } from './memory-store.js';
import { _allowedOrigins } from './origin-check.js';
import type { EventStore } from './store.js';

/** Options of `startRelay`. Every limit has a default suited to a local relay. */
export interface RelayOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Where events live. Default: a new {@link MemoryEventStore}. The relay closes it on `close()`. */
  store?: EventStore;
  /**
   * Where events live, by name, instead of `store`: a SQLite file path, or a Postgres database as
   * a `postgres://user:password@host:port/database` (or `postgresql://`) URL, which several relay
   * processes can share (docs/architecture.md, "The relay on Postgres"). The relay opens the store
   * when it starts and closes it on `close()`.
   */
  db?: string;
  /** How long an event without `expiration` is kept, in seconds. Default 3600. */
  retentionSeconds?: number;
  /** Upper bound on how long any event is kept, whatever its `expiration`. Default 7 days. */
  maxRetentionSeconds?: number;
  /** Largest event accepted, in bytes of its JSON. Default {@link MAX_EVENT_BYTES} (4 MiB). */
  maxEventBytes?: number;
  /** How far in the future `created_at` may be, in seconds. Default 300. */
  maxFutureSeconds?: number;
  /** Events per minute per signing key (token bucket). Default 6000. */
  eventsPerMinutePerKey?: number;
  /** Open subscriptions per connection. Default 64. */
  maxSubscriptionsPerConnection?: number;
  /** Filters in one REQ. Default 16. */
  maxFiltersPerRequest?: number;
  /** Values in one filter array. Default 1000. */
  maxFilterValues?: number;
  /** Largest `limit` honoured (and the default). Default 500. */
  maxLimit?: number;
  /** A connection whose unsent output exceeds this is closed as a slow consumer. Default 32 MiB. */
  maxBufferedBytes?: number;
  /** Live events buffered per subscription while its stored events load. Default 10000. */
  maxPendingPerSubscription?: number;
  /** How often expired events are swept, in ms. Default 30000. */
  sweepIntervalMs?: number;
  /** Keep-alive ping interval in ms; a peer that misses one is dropped. Default 30000. */
  pingIntervalMs?: number;
  /**
   * Browser origins (`scheme://host[:port]`, exactly as a browser sends them) whose pages may open
   * a WebSocket to the relay. An upgrade with any other `Origin` is refused with 403; one without
   * `Origin` (a program, not a page) is served. Default: none.
   */
  allowedOrigins?: readonly string[];
  /** Open connections from one client address (an IPv6 /64); past it, 429. Default 128. */
  maxConnectionsPerIp?: number;
  /** Open connections in all; past it, 503. Default 1024. */
  maxConnections?: number;
  /**
   * Milliseconds a new TCP connection has to deliver its whole upgrade request; past it the socket
   * is closed. Default 10000.
   */
  handshakeTimeoutMs?: number;
  /**
   * Bytes of events (their JSON in UTF-8) held for one signing key; past it, `OK false
   * "rate-limited: storage quota …"`. Default 16 MiB.
   */
  maxStoredBytesPerKey?: number;
  /** Bytes of events held in all; past it, `OK false "rate-limited: …storage is full…"`. Default 128 MiB. */
  maxStoredBytes?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /**
   * Called for each event refused with `OK false`, with the reason its sender was given (for
   * operators and dev tools; the sender's `OK` carries the same reason). Never throws into the relay.
   */
  onRefused?: (refusal: RelayRefusal) => void;
  /**
   * Serve Prometheus metrics on an admin listener of their own (docs/operating.md, "The relay").
   * Default: none.
   */
  admin?: RelayAdminOptions;
}

/** The relay's admin listener: `GET /metrics` (docs/security.md, "The admin listener"). */
export interface RelayAdminOptions {
  /** TCP port; 0 picks a free one (`Relay.adminUrl` has it). */
  port: number;
  /** Interface to bind. Default `127.0.0.1`; an address other than loopback needs `allowRemote`. */
  host?: string;
  /** The bearer token a scraper must send. Required with `allowRemote`. */
  token?: string;
  /** Allow a bind address other than loopback (then `token` is required). Default false. */
  allowRemote?: boolean;
}

/** An event the relay refused, as {@link RelayOptions.onRefused} reports it. */
export interface RelayRefusal {
  /** The event's id, as far as it could be read ("" when none). */
  id: string;
  /** The reason, with its prefix (`invalid: …`, `rate-limited: …`, `error: …`). */
  reason: string;
  /** The claimed signing key and kind, when the event had them as strings (unverified). */
  pubkey?: string;
  kind?: string;
}

/** The limits of a running relay: {@link RelayOptions} with every default filled in. */
export interface _RelaySettings {
  host: string;
  port: number;
  now: () => number;
  maxEventBytes: number;
  retentionSeconds: number;
  maxRetentionSeconds: number;
  eventsPerMinutePerKey: number;
  maxSubscriptions: number;
  maxFilters: number;
  filterLimits: FilterLimits;
  maxBuffered: number;
  maxPending: number;
  sweepIntervalMs: number;
  pingIntervalMs: number;
  allowedOrigins: ReadonlySet<string>;
  maxConnectionsPerIp: number;
  maxConnections: number;
  handshakeTimeoutMs: number;
  maxStoredBytesPerKey: number;
  maxStoredBytes: number;
  /** What an incoming event is checked against before it is admitted. */
  check: EventCheckOptions;
  onRefused: RelayOptions['onRefused'];
  admin: RelayAdminOptions | undefined;
}

/**
 * The default limits on connections and stored bytes (docs/security.md, "The relay"). Every local
 * program shares the address 127.0.0.1, so the per-address limit leaves room for a test harness or
 * a benchmark with a hundred subscribers while one address holds at most an eighth of the total.
 * 1024 sockets stay well below a process's usual descriptor limit. 128 MiB bounds the in-memory
 * store to a few hundred MB of process memory; 16 MiB per key (four events of the largest size, or
 * some 11,000 answers of 1.5 KiB within the retention) keeps one key from taking more than an
 * eighth of it.
 */
const DEFAULT_LIMITS = {
  maxConnectionsPerIp: 128,
  maxConnections: 1024,
  handshakeTimeoutMs: 10_000,
  maxStoredBytesPerKey: 16 * 1024 * 1024,
  maxStoredBytes: 128 * 1024 * 1024,
};

/**
 * Applies the defaults of {@link RelayOptions}; throws `INVALID_OPTIONS` when a retention, a size,
 * a connection or storage limit is not a positive integer, or an allowed origin is not an origin
 * (before the relay opens anything).
 */
export function _relaySettings(options: RelayOptions): _RelaySettings {
  const maxEventBytes = options.maxEventBytes ?? MAX_EVENT_BYTES;
  const retentionSeconds = options.retentionSeconds ?? 3600;
  const maxRetentionSeconds = options.maxRetentionSeconds ?? 7 * 86_400;
  const limits = {
    maxConnectionsPerIp: options.maxConnectionsPerIp ?? DEFAULT_LIMITS.maxConnectionsPerIp,
    maxConnections: options.maxConnections ?? DEFAULT_LIMITS.maxConnections,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? DEFAULT_LIMITS.handshakeTimeoutMs,
    maxStoredBytesPerKey: options.maxStoredBytesPerKey ?? DEFAULT_LIMITS.maxStoredBytesPerKey,
    maxStoredBytes: options.maxStoredBytes ?? DEFAULT_LIMITS.maxStoredBytes,
  };
  if (options.db !== undefined && options.store !== undefined) {
    throw new RelayError('INVALID_OPTIONS', 'give either store or db, not both');
  }
  _checkAdmin(options.admin);
  const positive = { retentionSeconds, maxRetentionSeconds, maxEventBytes, ...limits };
  for (const [name, value] of Object.entries(positive)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RelayError('INVALID_OPTIONS', `${name} must be a positive integer, got ${value}`);
    }
  }
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    now: options.now ?? Date.now,
    maxEventBytes,
    retentionSeconds,
    maxRetentionSeconds,
    eventsPerMinutePerKey: options.eventsPerMinutePerKey ?? 6000,
    maxSubscriptions: options.maxSubscriptionsPerConnection ?? 64,
    maxFilters: options.maxFiltersPerRequest ?? 16,
    filterLimits: { maxValues: options.maxFilterValues ?? 1000, maxLimit: options.maxLimit ?? 500 },
    maxBuffered: options.maxBufferedBytes ?? 32 * 1024 * 1024,
    maxPending: options.maxPendingPerSubscription ?? 10_000,
    sweepIntervalMs: options.sweepIntervalMs ?? 30_000,
    pingIntervalMs: options.pingIntervalMs ?? 30_000,
    allowedOrigins: _allowedOrigins(options.allowedOrigins ?? []),
    ...limits,
    check: {
      maxEventBytes,
      maxFutureSeconds: options.maxFutureSeconds ?? 300,
      maxAgeSeconds: retentionSeconds,
    },
    onRefused: options.onRefused,
    admin: options.admin,
  };
}

/**
 * The admin listener's rules, the adapter's `admin` ones: loopback unless `allowRemote`, which
 * needs a token; a given token is not empty.
 */
function _checkAdmin(admin: RelayAdminOptions | undefined): void {
  if (admin === undefined) return;
  if (!Number.isSafeInteger(admin.port) || admin.port < 0 || admin.port > 65_535)
    throw new RelayError(
      'INVALID_OPTIONS',
      `admin.port must be an integer from 0 to 65535, got ${admin.port}`,
    );
  const host = admin.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && admin.allowRemote !== true)
    throw new RelayError(
      'INVALID_OPTIONS',
      `admin.host ${host} is not a loopback address: give admin.allowRemote (with admin.token) to serve metrics beyond this machine`,
    );
  if (admin.token !== undefined && admin.token === '')
    throw new RelayError('INVALID_OPTIONS', 'admin.token must not be empty');
  if (admin.allowRemote === true && admin.token === undefined)
    throw new RelayError(
      'INVALID_OPTIONS',
      'admin.allowRemote needs admin.token: metrics reachable from other machines must ask for a bearer token',
    );
}
