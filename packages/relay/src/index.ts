/**
 * `@xprotocol/relay` — a real XProtocol relay: NIP-01 style messages over WebSocket, verified
 * events (id, signature, freshness, expiry), filters, a durable SQLite store with group commit,
 * retention, dedupe and per-key token buckets. See docs/protocol.md §9.
 * @module
 */
export { RelayError, type RelayErrorCode } from './errors.js';
export { checkIncomingEvent, type EventCheck, type EventCheckOptions } from './event-checks.js';
export {
  type Filter,
  type FilterLimits,
  type FilterParse,
  matchesAny,
  matchesFilter,
  parseFilter,
} from './filter.js';
export { MemoryEventStore } from './memory-store.js';
export {
  type ClientMessage,
  type ClientMessageParse,
  parseClientMessage,
  type ReasonPrefix,
  reason,
  relayMessage,
} from './messages.js';
export { type Relay, type RelayOptions, type RelayStats, startRelay } from './relay-server.js';
export { SqliteEventStore, type SqliteStoreOptions } from './sqlite-store.js';
export type { EventStore, PutOutcome, RelayEvent } from './store.js';
export { type TakeResult, TokenBuckets } from './token-bucket.js';
