/**
 * A durable {@link EventStore} on Postgres, which several relay processes can share
 * (docs/architecture.md, "The relay on Postgres"). Group commit as in the SQLite store: the puts
 * of one event-loop turn (or of `batchWindowMs`) form a batch, batches that arrive while one is
 * being committed share the next transaction, and a put resolves only once its transaction has
 * committed — `'duplicate'` when the id was already stored, by this process or another. The
 * expiry sweep runs in one process at a time. {@link PostgresEventStore.watch} hands the relay
 * the events the other processes stored (postgres-feed.ts).
 *
 * `pg` is loaded when a store is opened, so a relay on SQLite or memory never loads it.
 * @module
 */
import type { Filter } from '@xprotocol/wire';
import type { Pool, PoolClient } from 'pg';
import { RelayError } from './errors.js';
import { _eventJson } from './event-json.js';
import { _PostgresFeed } from './postgres-feed.js';
import { _INDEXED_TAGS, _postgresQuery } from './postgres-query.js';
import { _EVENTS_CHANNEL, _EVENTS_TABLE, _LOCKS, _preparePostgresSchema } from './postgres-schema.js';
import { _databaseTarget, _redactedUrl } from './postgres-url.js';
import { type _PendingPut, _PutQueue } from './put-queue.js';
import type { EventStore, PutOutcome, RelayEvent } from './store.js';

/** Options of {@link PostgresEventStore.open}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://`). */
  url: string;
  /** How long puts gather before their batch is written, in ms. Default 0 (the end of the turn). */
  batchWindowMs?: number;
  /** Most events in one transaction. Default 1024. */
  maxBatch?: number;
  /** Connections to the database besides the listening one. Default 8. */
  poolSize?: number;
  /** How long connecting may take, in ms. Default 10000. */
  connectTimeoutMs?: number;
  /**
   * How often the other processes' events are read when no notification arrives, in ms (the
   * bound on the delay a lost notification can cause). Default 1000.
   */
  pollIntervalMs?: number;
}

// One statement inserts a whole batch; sequence numbers are drawn in the batch's order. A tag
// list travels as a JSON array of `name:value` strings.
const INSERT_BATCH = `
INSERT INTO ${_EVENTS_TABLE} (id, pubkey, kind, created_at, expires_at, tags, json)
SELECT u.id, u.pubkey, u.kind, u.created_at, u.expires_at,
       ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)), u.json
FROM unnest($1::bytea[], $2::bytea[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[])
  AS u(id, pubkey, kind, created_at, expires_at, tags, json)
ON CONFLICT (id) DO NOTHING
RETURNING seq, encode(id, 'hex') AS id`;

/** A Postgres-backed event store with group commit, shared safely by several relay processes. */
export class PostgresEventStore implements EventStore {
  readonly #pool: Pool;
  readonly #shown: string;
  readonly #feed: _PostgresFeed;
  readonly #queue: _PutQueue;
  /** The batch being committed (one at a time: the next gathers meanwhile). */
  #writing: Promise<void> | undefined;
  /** Ids of this process's batches not committed yet, and sequence numbers it committed. */
  readonly #writingIds = new Set<string>();
  readonly #ownSeqs = new Set<number>();
  #watching = false;
  #closed = false;

  private constructor(
    pool: Pool,
    shown: string,
    feed: (store: PostgresEventStore) => _PostgresFeed,
    options: PostgresStoreOptions,
  ) {
    this.#pool = pool;
    this.#shown = shown;
    this.#queue = new _PutQueue(options.maxBatch ?? 1024, options.batchWindowMs ?? 0, () => this.#send());
    this.#feed = feed(this);
  }

  /**
   * Connects to the database at `options.url`, creates the relay's tables when it has none, and
   * resolves the store. Throws `INVALID_OPTIONS` for a URL it cannot read and `STORE_FAILED` when
   * the database cannot be reached or holds another layout; the URL in a message never shows the
   * password.
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresEventStore> {
    const target = _databaseTarget(options.url, 'url');
    if (target.kind !== 'postgres') {
      throw new RelayError(
        'INVALID_OPTIONS',
        `url expects a postgres:// (postgresql://) URL, got ${JSON.stringify(target.path.slice(0, 200))}`,
      );
    }
    const { default: pg } = await import('pg');
    const config = {
      connectionString: target.url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      application_name: 'xprotocol-relay',
    };
    const pool = new pg.Pool({ ...config, max: options.poolSize ?? 8 });
    // An idle connection the server closed: the pool drops it and opens another when needed.
    pool.on('error', () => {});
    let after: number;
    try {
      after = await _connectAndPrepare(pool, target.shown);
    } catch (error) {
      await pool.end().catch(() => {});
      if (error instanceof RelayError) throw error;
      const reason = _secretFree((error as Error).message, target.url);
      throw new RelayError(
        'STORE_FAILED',
        `cannot connect to the Postgres database ${target.shown}: ${reason}`,
        {
          cause: error,
        },
      );
    }
    return new PostgresEventStore(
      pool,
      target.shown,
      (store) =>
        new _PostgresFeed({
          pool,
          listener: () => new pg.Client(config),
          after,
          pollIntervalMs: options.pollIntervalMs ?? 1000,
          reconnectMs: 1000,
          isOwn: (seq, id) => store.#isOwn(seq, id),
        }),
      options,
    );
  }

  put(event: RelayEvent, expiresAt: number): Promise<PutOutcome> {
    if (this.#closed) return Promise.reject(new RelayError('STORE_CLOSED', 'the event store is closed'));
    return this.#queue.add(event, expiresAt);
  }

  /** Writes the pending puts as one batch, unless a batch is being committed (then after it). */
  #send(): void {
    if (this.#writing || this.#queue.length === 0) return;
    const batch = this.#queue.take(this.#queue.maxBatch);
    this.#writing = this.#write(batch).finally(() => {
      this.#writing = undefined;
      this.#send();
    });
  }

  /** Commits `batch` in one transaction and settles its puts. */
  async #write(batch: _PendingPut[]): Promise<void> {
    for (const { event } of batch) this.#writingIds.add(event.id);
    let committed: { seq: string; id: string }[];
    try {
      committed = await this.#transaction(batch);
    } catch (error) {
      for (const { event } of batch) this.#writingIds.delete(event.id);
      const reason = _secretFree((error as Error).message, '');
      const failure = new RelayError('STORE_FAILED', `event batch not stored: ${reason}`, { cause: error });
      for (const pending of batch) pending.reject(failure);
      return;
    }
    const stored = new Set<string>();
    for (const row of committed) {
      stored.add(row.id);
      // Remembered until the feed passes them, so the relay does not get its own events back.
      if (this.#watching) this.#ownSeqs.add(Number(row.seq));
    }
    for (const pending of batch) {
      this.#writingIds.delete(pending.event.id);
      // The first put of an id in the batch stored it; any other is its duplicate.
      const first = stored.delete(pending.event.id);
      pending.resolve(first ? 'stored' : 'duplicate');
    }
  }

  /**
   * The insert transaction: the write lock (so sequence numbers become visible in order), the
   * batch, and a notification carrying its highest number, sent by Postgres at the commit.
   */
  async #transaction(batch: _PendingPut[]): Promise<{ seq: string; id: string }[]> {
    const columns: unknown[][] = [[], [], [], [], [], [], []];
    for (const { event, expiresAt } of batch) {
      const tags = event.tags.flatMap(([name, value]) =>
        name !== undefined && value !== undefined && _INDEXED_TAGS.has(name) ? [`${name}:${value}`] : [],
      );
      const row = [
        Buffer.from(event.id, 'hex'),
        Buffer.from(event.pubkey.slice(8), 'hex'),
        event.kind,
        event.created_at,
        expiresAt,
        JSON.stringify(tags),
        _eventJson(event),
      ];
      for (const [i, value] of row.entries()) columns[i]!.push(value);
    }
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [_LOCKS.tag, _LOCKS.write]);
      const { rows } = await client.query<{ seq: string; id: string }>(INSERT_BATCH, columns);
      if (rows.length > 0) {
        const highest = Math.max(...rows.map((row) => Number(row.seq)));
        await client.query('SELECT pg_notify($1, $2)', [_EVENTS_CHANNEL, String(highest)]);
      }
      await client.query('COMMIT');
      return rows;
    } catch (error) {
      broken = error as Error;
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async query(filter: Filter, nowSeconds: number): Promise<RelayEvent[]> {
    this.#assertOpen();
    const query = _postgresQuery(filter, nowSeconds);
    if (query === undefined) return [];
    const { rows } = await this.#run(() => this.#pool.query<{ json: string }>(query.text, query.values));
    return rows.map((row) => JSON.parse(row.json) as RelayEvent);
  }

  /**
   * Deletes the events expired at `nowSeconds`, unless another process is sweeping right now
   * (an advisory lock): then resolves 0 and leaves the work to it.
   */
  async expire(nowSeconds: number): Promise<number> {
    this.#assertOpen();
    return this.#run(async () => {
      const client = await this.#pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const lock = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS got', [
          _LOCKS.tag,
          _LOCKS.sweep,
        ]);
        const deleted = lock.rows[0]?.got
          ? ((await client.query(`DELETE FROM ${_EVENTS_TABLE} WHERE expires_at <= $1`, [nowSeconds]))
              .rowCount ?? 0)
          : 0;
        await client.query('COMMIT');
        return deleted;
      } catch (error) {
        broken = error as Error;
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  async count(): Promise<number> {
    this.#assertOpen();
    const { rows } = await this.#run(() =>
      this.#pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${_EVENTS_TABLE}`),
    );
    return Number(rows[0]?.n ?? 0);
  }

  async forEachStored(visit: (pubkey: string, expiresAt: number, bytes: number) => void): Promise<void> {
    this.#assertOpen();
    const { rows } = await this.#run(() =>
      this.#pool.query<{ pubkey: string; expires_at: string; bytes: number }>(
        `SELECT encode(pubkey, 'hex') AS pubkey, expires_at, octet_length(json) AS bytes FROM ${_EVENTS_TABLE}`,
      ),
    );
    for (const row of rows) visit(`ed25519:${row.pubkey}`, Number(row.expires_at), row.bytes);
  }

  /**
   * Calls `deliver` with each event another relay process stores in this database from now on,
   * once it has committed, in commit order, until `close`.
   */
  watch(deliver: (event: RelayEvent, expiresAt: number) => void): void {
    this.#assertOpen();
    this.#watching = true;
    this.#feed.start(deliver);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Every pending put is committed (and settled) before the connections close.
    this.#send();
    while (this.#writing) await this.#writing;
    await this.#feed.close();
    await this.#pool.end();
  }

  /** True for a row this process stored or is storing; forgets the numbers the feed has passed. */
  #isOwn(seq: number, id: string): boolean {
    if (this.#ownSeqs.delete(seq)) return true;
    for (const own of this.#ownSeqs) if (own < seq) this.#ownSeqs.delete(own);
    return this.#writingIds.has(id);
  }

  /** Runs a read or a sweep; a failure becomes `STORE_FAILED` naming the database. */
  async #run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const reason = _secretFree((error as Error).message, '');
      throw new RelayError('STORE_FAILED', `the Postgres database ${this.#shown} failed: ${reason}`, {
        cause: error,
      });
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('STORE_CLOSED', 'the event store is closed');
  }
}

/** Connects once, brings the tables to the current layout, and resolves the highest sequence number. */
async function _connectAndPrepare(pool: Pool, shown: string): Promise<number> {
  const client: PoolClient = await pool.connect();
  try {
    await _preparePostgresSchema(client, shown);
    const { rows } = await client.query<{ seq: string }>(
      `SELECT coalesce(max(seq), 0) AS seq FROM ${_EVENTS_TABLE}`,
    );
    return Number(rows[0]?.seq ?? 0);
  } finally {
    client.release();
  }
}

/** `message` with any URL in it redacted, and the password of `url` (when it has one) removed. */
function _secretFree(message: string, url: string): string {
  let clean = message.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, (found) => _redactedUrl(found));
  const password = url ? _passwordOf(url) : '';
  if (password) clean = clean.split(password).join('***');
  return clean;
}

function _passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}
