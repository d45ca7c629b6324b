/**
 * A durable {@link EventStore} on SQLite (`libsql`, the better-sqlite3 API): WAL journal,
 * `synchronous=FULL`, and group commit. The puts of one event-loop turn (or of `batchWindowMs`)
 * form a batch that goes to the writer at once; only when its transaction has committed are its
 * puts resolved — so the relay's `OK` always follows a durable write. A file database is written
 * by a worker thread (sqlite-writer.ts) while the relay thread goes on checking events; batches
 * that arrive while a transaction waits for its fsync share the next one, so one fsync serves many
 * events under load and a lone event is not held back.
 * @module
 */

import type { Filter } from '@xprotocol/wire';
import Database from 'libsql';
import { RelayError } from './errors.js';
import { _eventJson } from './event-json.js';
import { _PutQueue } from './put-queue.js';
import { _prepareSchema } from './sqlite-schema.js';
import { type _EventRow, _inlineWriter, type _SqliteWriter, _workerWriter } from './sqlite-writer.js';
import type { EventStore, PutOutcome, RelayEvent } from './store.js';
import { _idBytes, _keyBytes } from './stored-keys.js';

/** Options of {@link SqliteEventStore}. */
export interface SqliteStoreOptions {
  /** Database file path, or `:memory:`. */
  path: string;
  /**
   * How long puts gather before they are sent to the writer, in ms. Default 0: at the end of the
   * current event-loop turn (batches sent while a commit is on disk are grouped by the writer).
   */
  batchWindowMs?: number;
  /** Most events in one transaction. Default 1024. */
  maxBatch?: number;
}

/** Tags indexed for `#x` filters. */
const INDEXED_TAGS = new Set(['p', 'e']);

/**
 * The SELECT of one filter, or `undefined` when the filter cannot match (an empty list).
 *
 * With `ids` or `#e` (an answer's request id) the filter names a handful of events: the lookup
 * must start from the id or the tag index. SQLite without statistics would rather walk the
 * `authors` or `kinds` index, which reads every event of that key or kind (tens of milliseconds
 * once a busy endpoint has stored 50,000 answers, for each call's answer subscription). A unary
 * `+` keeps those columns out of the index choice (sqlite.org/optoverview.html, "Disqualifying
 * WHERE clause terms").
 * @internal
 */
export function _eventQuery(
  filter: Filter,
  nowSeconds: number,
): { sql: string; params: (string | number | Uint8Array)[] } | undefined {
  // Ids and keys are stored as bytes; a value that is not an id or a key matches no stored event.
  const ids = filter.ids?.flatMap((id) => _idBytes(id) ?? []);
  const authors = filter.authors?.flatMap((key) => _keyBytes(key) ?? []);
  // An empty IN list can never match; SQLite rejects `IN ()`, so answer directly.
  if ([ids, authors, filter.kinds, filter['#p'], filter['#e']].some((v) => v?.length === 0)) {
    return undefined;
  }
  const narrow = ids !== undefined || filter['#e'] !== undefined;
  const column = (name: string) => (narrow ? `+${name}` : name);
  const where: string[] = [`${column('expires_at')} > ?`];
  const params: (string | number | Uint8Array)[] = [nowSeconds];
  const inList = (name: string, values: (string | Uint8Array)[]) => {
    where.push(`${name} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  if (ids) inList('id', ids);
  if (authors) inList(column('pubkey'), authors);
  if (filter.kinds) inList(column('kind'), filter.kinds);
  if (filter.since !== undefined) {
    where.push(`${column('created_at')} >= ?`);
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    where.push(`${column('created_at')} <= ?`);
    params.push(filter.until);
  }
  for (const name of ['p', 'e'] as const) {
    const values = filter[`#${name}`];
    if (!values) continue;
    where.push(
      `seq IN (SELECT event_seq FROM tags WHERE name = ? AND value IN (${values.map(() => '?').join(',')}))`,
    );
    params.push(name, ...values);
  }
  let sql = `SELECT json FROM events WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id ASC`;
  if (filter.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(filter.limit);
  }
  return { sql, params };
}

/** A SQLite-backed event store with group commit. */
export class SqliteEventStore implements EventStore {
  readonly #db: Database.Database;
  readonly #queue: _PutQueue;
  readonly #writer: _SqliteWriter;
  /** Batches sent and not settled yet (close() waits for them). */
  readonly #sent = new Set<Promise<void>>();
  #closed = false;

  constructor(options: SqliteStoreOptions) {
    this.#queue = new _PutQueue(options.maxBatch ?? 1024, options.batchWindowMs ?? 0, () => this.#send());
    let db: Database.Database | undefined;
    try {
      db = new Database(options.path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('busy_timeout = 5000');
      _prepareSchema(db, options.path);
    } catch (error) {
      db?.close();
      if (error instanceof RelayError) throw error;
      throw new RelayError(
        'STORE_FAILED',
        `cannot open the event database ${options.path}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.#db = db;
    this.#writer =
      options.path === ':memory:'
        ? _inlineWriter(this.#db)
        : _workerWriter(options.path, this.#queue.maxBatch);
  }

  put(event: RelayEvent, expiresAt: number): Promise<PutOutcome> {
    if (this.#closed) return Promise.reject(new RelayError('STORE_CLOSED', 'the event store is closed'));
    return this.#queue.add(event, expiresAt);
  }

  /** Sends the pending puts to the writer as one batch; they settle when it has committed. */
  #send(): void {
    const batch = this.#queue.take();
    if (batch.length === 0) return;
    // The ids and keys of the batch, as bytes, in one buffer of its own (it moves to the writer).
    const keys = new Uint8Array(64 * batch.length);
    const bytes = Buffer.from(keys.buffer);
    const rows = batch.map(
      ({ event, expiresAt }, i): _EventRow => [
        _into(bytes, 64 * i, event.id),
        _into(bytes, 64 * i + 32, event.pubkey.slice(8)),
        event.kind,
        event.created_at,
        expiresAt,
        _eventJson(event),
        event.tags.flatMap(([name, value]) =>
          name !== undefined && value !== undefined && INDEXED_TAGS.has(name)
            ? [[name, value] as [string, string]]
            : [],
        ),
      ],
    );
    const settled = this.#writer.commit(rows).then(
      ({ stored }) => {
        for (const [i, pending] of batch.entries()) pending.resolve(stored[i] ? 'stored' : 'duplicate');
      },
      (error: unknown) => {
        const failure = new RelayError(
          'STORE_FAILED',
          `event batch not stored: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
        for (const pending of batch) pending.reject(failure);
      },
    );
    this.#sent.add(settled);
    void settled.finally(() => this.#sent.delete(settled));
  }

  async query(filter: Filter, nowSeconds: number): Promise<RelayEvent[]> {
    this.#assertOpen();
    const query = _eventQuery(filter, nowSeconds);
    if (query === undefined) return [];
    const rows = this.#db.prepare(query.sql).all(query.params) as { json: string }[];
    return rows.map((row) => JSON.parse(row.json) as RelayEvent);
  }

  async expire(nowSeconds: number): Promise<number> {
    this.#assertOpen();
    try {
      return await this.#writer.expire(nowSeconds);
    } catch (error) {
      throw new RelayError('STORE_FAILED', `expiry sweep failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /**
   * The journal mode and synchronous level in force on this store's connection, read back from
   * SQLite (`synchronous` 2 is FULL): proof that durability settings took effect.
   */
  durability(): { journalMode: string; synchronous: number } {
    this.#assertOpen();
    const journal = this.#db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
    const sync = this.#db.prepare('PRAGMA synchronous').get() as { synchronous: number };
    return { journalMode: journal.journal_mode, synchronous: sync.synchronous };
  }

  async count(): Promise<number> {
    this.#assertOpen();
    const row = this.#db.prepare('SELECT count(*) AS n FROM events').get() as { n: number };
    return row.n;
  }

  /**
   * Reads the key, expiry and JSON size of every stored row. `octet_length` of a column is read
   * from the row's header, so the events' text (overflow pages for a large one) is not loaded.
   */
  async forEachStored(visit: (pubkey: string, expiresAt: number, bytes: number) => void): Promise<void> {
    this.#assertOpen();
    const rows = this.#db
      .prepare('SELECT pubkey, expires_at, octet_length(json) FROM events')
      .raw(true)
      .iterate() as IterableIterator<[Uint8Array, number, number]>;
    for (const [pubkey, expiresAt, bytes] of rows) {
      visit(`ed25519:${Buffer.from(pubkey).toString('hex')}`, expiresAt, bytes);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Every batch still pending is committed (and its puts settled) before the writer stops.
    this.#send();
    await Promise.all(this.#sent);
    await this.#writer.close();
    this.#db.close();
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('STORE_CLOSED', 'the event store is closed');
  }
}

/** Writes the 32 bytes of `hex` (checked by `put`) at `at` and returns a view of them. */
function _into(bytes: Buffer, at: number, hex: string): Uint8Array {
  bytes.write(hex, at, 32, 'hex');
  return bytes.subarray(at, at + 32);
}
