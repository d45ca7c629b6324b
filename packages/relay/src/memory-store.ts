/**
 * An in-memory {@link EventStore}: for tests and for relays that need no durability.
 * @module
 */

import { type Filter, matchesFilter } from '@xprotocol/wire';
import { RelayError } from './errors.js';
import { _eventJson } from './event-json.js';
import { _compareNewestFirst, type EventStore, type PutOutcome, type RelayEvent } from './store.js';

interface Entry {
  event: RelayEvent;
  expiresAt: number;
}

/** Keeps events in a Map; everything is lost when the process ends. */
export class MemoryEventStore implements EventStore {
  readonly #entries = new Map<string, Entry>();
  #closed = false;

  async put(event: RelayEvent, expiresAt: number): Promise<PutOutcome> {
    this.#assertOpen();
    if (this.#entries.has(event.id)) return 'duplicate';
    this.#entries.set(event.id, { event, expiresAt });
    return 'stored';
  }

  async query(filter: Filter, nowSeconds: number): Promise<RelayEvent[]> {
    this.#assertOpen();
    const found: RelayEvent[] = [];
    for (const { event, expiresAt } of this.#entries.values()) {
      if (expiresAt > nowSeconds && matchesFilter(event, filter)) found.push(event);
    }
    found.sort(_compareNewestFirst);
    return filter.limit === undefined ? found : found.slice(0, filter.limit);
  }

  async expire(nowSeconds: number): Promise<number> {
    this.#assertOpen();
    let removed = 0;
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt <= nowSeconds) {
        this.#entries.delete(id);
        removed++;
      }
    }
    return removed;
  }

  async count(): Promise<number> {
    return this.#entries.size;
  }

  async forEachStored(visit: (pubkey: string, expiresAt: number, bytes: number) => void): Promise<void> {
    this.#assertOpen();
    for (const { event, expiresAt } of this.#entries.values()) {
      visit(event.pubkey, expiresAt, Buffer.byteLength(_eventJson(event)));
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('STORE_CLOSED', 'the event store is closed');
  }
}
