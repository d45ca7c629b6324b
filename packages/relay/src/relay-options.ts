/**
 * What a relay can be told ({@link RelayOptions}) and the limits it runs with once the defaults
 * are applied and checked ({@link _relaySettings}).
 * @module
 */
import { MAX_EVENT_BYTES } from '@xprotocol/crypto';
import type { FilterLimits } from '@xprotocol/wire';
import { RelayError } from './errors.js';
import type { EventCheckOptions } from './event-checks.js';
import type { MemoryEventStore } from './memory-store.js';
import type { EventStore } from './store.js';

/** Options of `startRelay`. Every limit has a default suited to a local relay. */
export interface RelayOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Where events live. Default: a new {@link MemoryEventStore}. The relay closes it on `close()`. */
  store?: EventStore;
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
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /**
   * Called for each event refused with `OK false`, with the reason its sender was given (for
   * operators and dev tools; the sender's `OK` carries the same reason). Never throws into the relay.
   */
  onRefused?: (refusal: RelayRefusal) => void;
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
  /** What an incoming event is checked against before it is admitted. */
  check: EventCheckOptions;
  onRefused: RelayOptions['onRefused'];
}

/**
 * Applies the defaults of {@link RelayOptions}; throws `INVALID_OPTIONS` when a retention or the
 * event size limit is not a positive integer (before the relay opens anything).
 */
export function _relaySettings(options: RelayOptions): _RelaySettings {
  const maxEventBytes = options.maxEventBytes ?? MAX_EVENT_BYTES;
  const retentionSeconds = options.retentionSeconds ?? 3600;
  const maxRetentionSeconds = options.maxRetentionSeconds ?? 7 * 86_400;
  for (const [name, value] of Object.entries({ retentionSeconds, maxRetentionSeconds, maxEventBytes })) {
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
    check: {
      maxEventBytes,
      maxFutureSeconds: options.maxFutureSeconds ?? 300,
      maxAgeSeconds: retentionSeconds,
    },
    onRefused: options.onRefused,
  };
}
