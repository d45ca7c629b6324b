/**
 * `@xprotocol/relay-client` — one client over several XProtocol relays: publish resolving on the
 * first `OK`, a durable outbox, reconnect with backoff and jitter, gap-free resubscription,
 * verification and deduplication of what arrives, bounded memory.
 * @module
 */
export {
  type AddressCategory,
  type AddressDecision,
  AddressPolicy,
  type AddressPolicyOptions,
  type CidrRange,
  type PolicyLookup,
  parseCidr,
} from './address-policy.js';
export { type BackoffOptions, reconnectDelay } from './backoff.js';
export { RelayClientError, type RelayClientErrorCode } from './errors.js';
export { MemoryOutbox, type Outbox, type OutboxEntry } from './outbox.js';
export type { RelayStatus } from './pool-connections.js';
export type { PublishOptions, PublishResult } from './pool-publisher.js';
export type { Subscription, SubscriptionHandlers } from './pool-subscriptions.js';
export type { ConnectionState } from './relay-connection.js';
export { RelayPool, type RelayPoolOptions } from './relay-pool.js';
export { SeenIds } from './seen-ids.js';
export { SqliteOutbox } from './sqlite-outbox.js';
