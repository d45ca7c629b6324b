/**
 * The relay's storage interface. A store keeps verified events until their `expiresAt` and answers
 * filter queries; `put` resolves only once the event is durable (for the SQLite and Postgres
 * stores: committed).
 * @module
 */
import type { Filter, FilterableEvent } from '@xprotocol/wire';

/** A complete event as the relay stores and serves it (shape checked and signature verified). */
export interface RelayEvent extends FilterableEvent {
  content: string;
  sig: string;
}

/** What happened to a `put`. */
export type PutOutcome = 'stored' | 'duplicate';

/** Storage for verified events. */
export interface EventStore {
  /**
   * Stores `event` until `expiresAt` (unix seconds). Resolves `'stored'` once durable, or
   * `'duplicate'` when an event with the same id is already stored (or is being stored in the same
   * batch — then it resolves after that batch is durable).
   */
  put(event: RelayEvent, expiresAt: number): Promise<PutOutcome>;
  /**
   * Events matching `filter` that have not expired at `nowSeconds`: newest first (ties by id), at
   * most `filter.limit`.
   */
  query(filter: Filter, nowSeconds: number): Promise<RelayEvent[]>;
  /** Deletes every event whose `expiresAt` is at or before `nowSeconds`; resolves the count. */
  expire(nowSeconds: number): Promise<number>;
  /** Number of events held (expired ones not yet swept included). */
  count(): Promise<number>;
  /**
   * Calls `visit` with the signing key, `expiresAt` and size of every event held (expired ones not
   * yet swept included); the size is the event's JSON in UTF-8 bytes. Optional: the relay calls it
   * once when it starts, to count what the store already holds against its storage quota (a store
   * without it — a wrapper that does not pass it on — starts each run with nothing counted).
   */
  forEachStored?(visit: (pubkey: string, expiresAt: number, bytes: number) => void): Promise<void>;
  /**
   * For a store several relay processes share: calls `deliver` with each event another process
   * stores from now on, once committed, until `close`. Optional; the relay fans those events out to
   * its own live subscriptions (a store only this process writes has nothing to deliver).
   */
  watch?(deliver: (event: RelayEvent, expiresAt: number) => void): void;
  /** Flushes pending writes and releases resources. */
  close(): Promise<void>;
}

/** @internal Newest first, ties broken by id so results are deterministic. */
export function _compareNewestFirst(a: RelayEvent, b: RelayEvent): number {
  if (a.created_at !== b.created_at) return b.created_at - a.created_at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
