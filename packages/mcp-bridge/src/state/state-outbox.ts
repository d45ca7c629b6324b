/**
 * The relay pool's durable outbox inside the state database: the same table and rows as
 * relay-client's `SqliteOutbox`, but written through the state database's group commit, so that an
 * answer and its outbox entry can share one transaction (and concurrent events one fsync). It
 * reads on the state database's own connection and keeps the ids it holds in memory: `size` and an
 * `add` of an id already held cost no SQL.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import type { Outbox, OutboxEntry } from '@xprotocol/relay-client';
import type Database from 'libsql';
import { BridgeError } from '../errors.js';
import type { _EntryResult, _WriteEntry } from './state-writer.js';

/** One outbox row (the state database also writes it, beside an answer). */
export const _OUTBOX_ADD = `INSERT OR IGNORE INTO relay_outbox (id, json, expires_at, added_seq)
  VALUES (?, ?, ?, (SELECT coalesce(max(added_seq), 0) + 1 FROM relay_outbox))`;
const REMOVE = 'DELETE FROM relay_outbox WHERE id = ?';
const EXPIRE = 'DELETE FROM relay_outbox WHERE expires_at < ?';

/** The state database's outbox (see the module doc). */
export class _StateOutbox implements Outbox {
  readonly #db: Database.Database;
  readonly #write: (entry: _WriteEntry) => Promise<_EntryResult>;
  /** Ids in the table (committed, or committing with an `add` that resolves only then). */
  readonly #ids: Set<string>;

  constructor(db: Database.Database, write: (entry: _WriteEntry) => Promise<_EntryResult>) {
    this.#db = db;
    this.#write = write;
    const rows = db.prepare('SELECT id FROM relay_outbox').all() as { id: string }[];
    this.#ids = new Set(rows.map((row) => row.id));
  }

  /** Stores the event with an fsync; an id already held is a no-op (see `Outbox.add`). */
  async add(entry: OutboxEntry): Promise<void> {
    if (this.#ids.has(entry.event.id)) return;
    await this.#commit({
      statements: [
        { sql: _OUTBOX_ADD, params: [entry.event.id, JSON.stringify(entry.event), entry.expiresAt] },
      ],
      sync: true,
    });
    this.#ids.add(entry.event.id);
  }

  /**
   * Removes an event without an fsync and without a transaction of its own: the removal rides on
   * the next commit (a call's next record, usually) or goes after a short wait. Losing it to a
   * crash only re-sends an event the relays already hold, and `pending()` commits it before it
   * reads.
   */
  async remove(id: string): Promise<void> {
    this.#ids.delete(id);
    await this.#commit({ statements: [{ sql: REMOVE, params: [id] }], sync: false, deferred: true });
  }

  async pending(nowSeconds: number): Promise<OutboxEntry[]> {
    await this.#commit({ statements: [{ sql: EXPIRE, params: [nowSeconds] }], sync: false });
    const rows = this.#db.prepare('SELECT json, expires_at FROM relay_outbox ORDER BY added_seq').all() as {
      json: string;
      expires_at: number;
    }[];
    const entries = rows.map((row) => ({
      event: JSON.parse(row.json) as XpEvent,
      expiresAt: row.expires_at,
    }));
    this.#ids.clear();
    for (const entry of entries) this.#ids.add(entry.event.id);
    return entries;
  }

  async size(): Promise<number> {
    return this.#ids.size;
  }

  /** The state database owns the connection and closes it. */
  async close(): Promise<void> {}

  /** The state database committed `id` into this table in a transaction of its own. */
  _present(id: string): void {
    this.#ids.add(id);
  }

  async #commit(entry: _WriteEntry): Promise<void> {
    let result: _EntryResult;
    try {
      result = await this.#write(entry);
    } catch (error) {
      throw new BridgeError('STATE_DATABASE', `outbox write failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!result.ok && 'error' in result)
      throw new BridgeError('STATE_DATABASE', `outbox write failed: ${result.error}`);
  }
}
