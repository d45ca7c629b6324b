/**
 * A durable {@link Outbox} in a SQLite file (WAL, `synchronous=FULL`). It can share the file with
 * other state (the adapter's state database): it only touches its own table.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import Database from 'libsql';
import { RelayClientError } from './errors.js';
import type { Outbox, OutboxEntry } from './outbox.js';

/** An outbox that survives restarts. */
export class SqliteOutbox implements Outbox {
  readonly #db: Database.Database;
  #closed = false;

  /** Opens (or creates) the outbox table in the database at `path`. */
  constructor(path: string) {
    try {
      this.#db = new Database(path);
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = FULL');
      this.#db.pragma('busy_timeout = 5000');
      this.#db.exec(`CREATE TABLE IF NOT EXISTS relay_outbox (
        id TEXT PRIMARY KEY,
        json TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        added_seq INTEGER NOT NULL
      ) WITHOUT ROWID`);
    } catch (error) {
      throw new RelayClientError(
        'OUTBOX_FAILED',
        `cannot open the outbox database ${path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  async add(entry: OutboxEntry): Promise<void> {
    this.#assertOpen();
    this.#db
      .prepare<unknown[]>(
        `INSERT OR IGNORE INTO relay_outbox (id, json, expires_at, added_seq)
         VALUES (?, ?, ?, (SELECT coalesce(max(added_seq), 0) + 1 FROM relay_outbox))`,
      )
      .run(entry.event.id, JSON.stringify(entry.event), entry.expiresAt);
  }

  async remove(id: string): Promise<void> {
    this.#assertOpen();
    this.#unsynced(() => this.#db.prepare<unknown[]>('DELETE FROM relay_outbox WHERE id = ?').run(id));
  }

  async pending(nowSeconds: number): Promise<OutboxEntry[]> {
    this.#assertOpen();
    this.#unsynced(() =>
      this.#db.prepare<unknown[]>('DELETE FROM relay_outbox WHERE expires_at < ?').run(nowSeconds),
    );
    const rows = this.#db.prepare('SELECT json, expires_at FROM relay_outbox ORDER BY added_seq').all() as {
      json: string;
      expires_at: number;
    }[];
    return rows.map((row) => ({ event: JSON.parse(row.json) as XpEvent, expiresAt: row.expires_at }));
  }

  async size(): Promise<number> {
    this.#assertOpen();
    return (this.#db.prepare('SELECT count(*) AS n FROM relay_outbox').get() as { n: number }).n;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /**
   * Runs a deletion without an fsync (`synchronous=NORMAL`): losing it to a power cut only
   * re-sends an event the relays already have, so it need not wait for the disk. Additions stay
   * `FULL`.
   */
  #unsynced(run: () => unknown): void {
    this.#db.pragma('synchronous = NORMAL');
    try {
      run();
    } finally {
      this.#db.pragma('synchronous = FULL');
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayClientError('CLOSED', 'the outbox is closed');
  }
}
