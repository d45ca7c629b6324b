/**
 * What one running relay shares across its connections: its settings and store, the rate limit,
 * the storage quota, the ids already committed, the events in flight (fanned out, not yet
 * committed), the open connections and the counters (those its metrics read, docs/operating.md).
 * @module
 */
import { TokenBuckets } from '@xprotocol/wire';
import type { _ClientConnection } from './client-connection.js';
import { MemoryEventStore } from './memory-store.js';
import { RecentIds } from './recent-ids.js';
import type { _RelaySettings } from './relay-options.js';
import { _StorageQuota } from './storage-quota.js';
import type { EventStore, PutOutcome, RelayEvent } from './store.js';

/** Counters a running relay exposes (for tests, logs and benchmarks). */
export interface RelayStats {
  connections: number;
  accepted: number;
  duplicates: number;
  refused: number;
  delivered: number;
}

/** Why an event was refused `OK false`, as its metrics count it (docs/operating.md, "The relay"). */
export type _RefusalReason =
  | 'invalid'
  | 'too_large'
  | 'rate_limit'
  | 'storage_quota'
  | 'store_error'
  | 'error';

/**
 * Why a connection was turned away before it became a WebSocket, as its metrics count it
 * (docs/operating.md, "The relay"): a browser `Origin` not allowed (403), its address at its
 * connection limit (429), the relay at its total (503), a TCP socket over the limits that the
 * upgrade allowances leave (closed at once), an upgrade request not in by the handshake timeout.
 */
export type _ConnectionRefusalReason = 'origin' | 'per_address' | 'total' | 'sockets' | 'handshake_timeout';

/** What a store failed at: storing an event, reading for a REQ or a dedupe lookup, the expiry sweep. */
export type _StoreOperation = 'put' | 'query' | 'expire';

/**
 * Counts the relay keeps beyond {@link RelayStats}: plain integers added to where things happen,
 * read only when metrics are scraped. `admission` is told the milliseconds from an EVENT frame to
 * its `OK true` only when metrics are served; otherwise it is absent and the path pays nothing.
 */
export interface _RelayCounts {
  refusals: Record<_RefusalReason, number>;
  connectionRefusals: Record<_ConnectionRefusalReason, number>;
  storeErrors: Record<_StoreOperation, number>;
  admission: ((milliseconds: number) => void) | undefined;
}

/** A checked event delivered to live subscriptions whose commit is still pending. */
export interface _InFlightEvent {
  event: RelayEvent;
  put: Promise<PutOutcome>;
}

/** The state of a running relay, handed to each step that needs it. */
export interface _RelayContext {
  settings: _RelaySettings;
  store: EventStore;
  buckets: TokenBuckets;
  /** Bytes of events held per key and in all (storage-quota.ts). */
  quota: _StorageQuota;
  /** Ids known to be committed: duplicates are answered without touching the store or a bucket. */
  recent: RecentIds;
  /** Checked events delivered to live subscriptions whose commit is still pending, by id. */
  inFlight: Map<string, _InFlightEvent>;
  connections: Set<_ClientConnection>;
  stats: RelayStats;
  counts: _RelayCounts;
}

/** The state of a relay about to start: `store`, or a new {@link MemoryEventStore}, and empty rest. */
export function _relayContext(settings: _RelaySettings, store: EventStore | undefined): _RelayContext {
  return {
    settings,
    store: store ?? new MemoryEventStore(),
    buckets: new TokenBuckets(settings.eventsPerMinutePerKey),
    quota: new _StorageQuota({
      perKey: settings.maxStoredBytesPerKey,
      total: settings.maxStoredBytes,
      sweepSeconds: Math.ceil(settings.sweepIntervalMs / 1000),
    }),
    recent: new RecentIds(100_000),
    inFlight: new Map(),
    connections: new Set(),
    stats: { connections: 0, accepted: 0, duplicates: 0, refused: 0, delivered: 0 },
    counts: {
      refusals: { invalid: 0, too_large: 0, rate_limit: 0, storage_quota: 0, store_error: 0, error: 0 },
      connectionRefusals: { origin: 0, per_address: 0, total: 0, sockets: 0, handshake_timeout: 0 },
      storeErrors: { put: 0, query: 0, expire: 0 },
      admission: undefined,
    },
  };
}
