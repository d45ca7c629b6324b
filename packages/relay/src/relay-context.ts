/**
 * What one running relay shares across its connections: its settings and store, the rate limit,
 * the storage quota, the ids already committed, the events in flight (fanned out, not yet
 * committed), the open connections and the counters.
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
  };
}
