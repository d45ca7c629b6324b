/**
 * A durable {@link Outbox} in a SQLite file (WAL, `synchronous=FULL`). It can live in another
 * component's database (the adapter's state database), on that component's connection: it only
 * touches its own table.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import Database from 'libsql';
import { RelayClientError } from './errors.js';
import type { Outbox, OutboxEntry } from './outbox.js';

/** An outbox that survives restarts. */
export class SqliteOutbox implements Outbox {
  readonly #db: Database.Database;
  /** False when the database belongs to someone else (who closes it). */
  readonly #ownsDatabase: boolean;
  #closed = false;

  /**
   * Opens (or creates) the outbox table in the database file at `path`, or in an already open
   * `libsql` database whose owner keeps it (the adapter's state database hands its own connection
   * here, so the file has one owner); {@link SqliteOutbox.close} then leaves it open.
   */
  constructor(database: string | Database.Database) {
    this.#ownsDatabase = typeof database === 'string';
    const where = typeof database === 'string' ? database : database.name;
    try {
      if (typeof database === 'string') {
        this.#db = new Database(database);
        this.#db.pragma('journal_mode = WAL');
        this.#db.pragma('synchronous = FULL');
        this.#db.pragma('busy_timeout = 5000');
      } else {
        this.#db = database;
      }
      this.#db.exec(`CREATE TABLE IF NOT EXISTS relay_outbox (
        id TEXT PRIMARY KEY,
        json TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        added_seq INTEGER NOT NULL
      ) WITHOUT ROWID`);
    } catch (error) {
      throw new RelayClientError(
        'OUTBOX_FAILED',
        `cannot open the outbox database ${where}: ${(error as Error).message}`,
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
    if (this.#ownsDatabase) this.#db.close();
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
