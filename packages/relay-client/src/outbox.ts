/**
 * The outbox: events waiting for relays to acknowledge them. `RelayPool.publish` adds an event
 * before it sends it and removes it once every relay has answered (or it expired), so a crash or a
 * lost connection never loses an event while it is unexpired. A durable outbox survives restarts.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';

/** One waiting event. */
export interface OutboxEntry {
  event: XpEvent;
  /** Unix seconds after which the event is no longer worth delivering. */
  expiresAt: number;
}

/** Storage for unacknowledged events. */
export interface Outbox {
  /** Stores the event; resolves once it is durable. Adding an id already present is a no-op. */
  add(entry: OutboxEntry): Promise<void>;
  /** Removes an event (acknowledged everywhere, refused, or expired). */
  remove(id: string): Promise<void>;
  /** Unexpired entries at `nowSeconds`, oldest first; expired ones are deleted. */
  pending(nowSeconds: number): Promise<OutboxEntry[]>;
  /** Number of entries held. */
  size(): Promise<number>;
  close(): Promise<void>;
}

/** An outbox in memory: survives reconnects, not restarts. */
export class MemoryOutbox implements Outbox {
  readonly #entries = new Map<string, OutboxEntry>();

  async add(entry: OutboxEntry): Promise<void> {
    if (!this.#entries.has(entry.event.id)) this.#entries.set(entry.event.id, entry);
  }

  async remove(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  async pending(nowSeconds: number): Promise<OutboxEntry[]> {
    const live: OutboxEntry[] = [];
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt < nowSeconds) this.#entries.delete(id);
      else live.push(entry);
    }
    return live;
  }

  async size(): Promise<number> {
    return this.#entries.size;
  }

  async close(): Promise<void> {}
}
