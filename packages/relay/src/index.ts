/**
 * `@xprotocol/relay` — a real XProtocol relay: NIP-01 style messages over WebSocket, verified
 * events (id, signature, freshness, expiry), filters, a durable SQLite store with group commit
 * (or a Postgres store several relay processes share),
 * retention, dedupe and per-key token buckets. The frames, filters and buckets themselves are
 * `@xprotocol/wire`'s. See docs/protocol.md §9. It also runs the relay vector files against any
 * relay by URL (`runRelayFrameCase`, `runRelayFilterVectors`), for its tests and the conformance suite.
 * @module
 */
export { RelayError, type RelayErrorCode } from './errors.js';
export { checkIncomingEvent, type EventCheck, type EventCheckOptions } from './event-checks.js';
export { MemoryEventStore } from './memory-store.js';
export { PostgresEventStore, type PostgresStoreOptions } from './postgres-store.js';
export type { RelayStats } from './relay-context.js';
export type { RelayAdminOptions, RelayOptions, RelayRefusal } from './relay-options.js';
export { type Relay, startRelay } from './relay-server.js';
export { SqliteEventStore, type SqliteStoreOptions } from './sqlite-store.js';
export type { EventStore, PutOutcome, RelayEvent } from './store.js';
export type { VectorEventSpec, VectorKey } from './vector-events.js';
export { type RelayFiltersFile, runRelayFilterVectors, type StoredEntry } from './vector-filters.js';
export {
  type ExpectedFrame,
  type FrameCase,
  type FrameStep,
  type RelayFramesFile,
  type RelayVectorOptions,
  type RelayVectorResult,
  runRelayFrameCase,
} from './vector-frames.js';
