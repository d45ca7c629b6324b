/**
 * The call journal and relay outbox that adapter replicas with one key share, in Postgres
 * (docs/architecture.md, "Adapter replicas on Postgres"). Every replica receives every request
 * event; this journal decides which one acts on it and keeps each answer until a relay took it.
 *
 * - **Claim.** Before a request goes down the pipeline, its id is inserted with the replica as
 *   owner (`INSERT … ON CONFLICT DO NOTHING`): exactly one replica gets the row, the others drop
 *   their copy as a duplicate. The claim keeps the request, so a survivor can finish it.
 * - **Started.** Like the single-machine journal: durable before the upstream call, and from then on
 *   the request is never run again.
 * - **Answered.** The answer goes into the shared outbox in the statement that ends the call, and
 *   only while the replica still owns it: a replica that lost its lease cannot answer twice.
 * - **Leases.** Each replica renews a lease (on the database's clock). When one lapses, a survivor
 *   deletes the replica's row and adopts its outbox rows and unfinished calls in one transaction,
 *   so exactly one survivor adopts each: it sends the answers, answers a started call
 *   `UPSTREAM_ERROR` (interrupted, never re-run), and runs a claimed call that never started.
 * - **Dedupe memory.** Finished ids are forgotten once they leave the freshness window, the shared
 *   floor raised above them in the same statement.
 *
 * `pg` is loaded only when a shared journal is opened. The URL is only ever shown redacted.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { XpEvent } from '@xprotocol/crypto';
import type { Outbox, OutboxEntry } from '@xprotocol/relay-client';
import type { Pool, PoolClient } from 'pg';
import { BridgeError } from '../errors.js';
import { type BridgeLogger, silentLogger } from '../logger.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS xp_adapter_replicas (
  endpoint TEXT NOT NULL,
  replica TEXT NOT NULL,
  lease_until TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (endpoint, replica)
);
CREATE TABLE IF NOT EXISTS xp_adapter_calls (
  endpoint TEXT NOT NULL,
  id TEXT NOT NULL,
  owner TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  request_json TEXT,
  PRIMARY KEY (endpoint, id)
);
CREATE INDEX IF NOT EXISTS xp_adapter_calls_owner ON xp_adapter_calls (endpoint, owner, status);
CREATE TABLE IF NOT EXISTS xp_adapter_outbox (
  endpoint TEXT NOT NULL,
  id TEXT NOT NULL,
  owner TEXT NOT NULL,
  json TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  seq BIGSERIAL,
  PRIMARY KEY (endpoint, id)
);
CREATE TABLE IF NOT EXISTS xp_adapter_floor (
  endpoint TEXT PRIMARY KEY,
  floor BIGINT NOT NULL
);
`;

/** How often a statement waits again for a connection of a busy pool before it fails. */
const BUSY_RETRIES = 6;

/** One advisory lock key for creating the tables: replicas starting together do not race. */
const SCHEMA_LOCK = 7_336_104_201;

/** How a shared journal is opened. */
export interface SharedJournalOptions {
  /** `postgres://user:password@host:port/database`. */
  url: string;
  /** The adapter's ed25519 key: the replicas of one key share its rows. */
  endpoint: string;
  /** A replica whose lease is not renewed for this long is taken over, in s. */
  leaseSeconds: number;
  logger?: BridgeLogger;
  connectTimeoutMs?: number;
}

/** What a survivor adopted from replicas whose lease lapsed. */
export interface AdoptedWork {
  /** Answers not yet acknowledged by a relay: send them. */
  answers: OutboxEntry[];
  /** Requests that reached the server: answer them as interrupted, never run them again. */
  started: XpEvent[];
  /** Requests claimed but not yet sent to the server: run them (their claim is now this replica's). */
  claimed: XpEvent[];
}

/** The shared journal of one replica (see the module doc). */
export class SharedJournal {
  /** This replica's id in the lease table (new for every process). */
  readonly replica = randomUUID();
  /** The database URL with its password replaced by `***`. */
  readonly shown: string;
  readonly #pool: Pool;
  readonly #endpoint: string;
  readonly #leaseSeconds: number;
  readonly #logger: BridgeLogger;
  readonly #outbox: _SharedOutbox;
  #floor = 0;
  #live = 1;
  #windowSeconds: number | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closing: Promise<void> | undefined;

  private constructor(pool: Pool, options: SharedJournalOptions, shown: string) {
    this.#pool = pool;
    this.#endpoint = options.endpoint;
    this.#leaseSeconds = options.leaseSeconds;
    this.#logger = options.logger ?? silentLogger;
    this.shown = shown;
    this.#outbox = new _SharedOutbox(this);
  }

  /**
   * Connects, creates the tables when the database has none, and registers this replica's lease.
   * Throws `STATE_DATABASE` (the URL redacted) when the URL is not a Postgres URL or the database
   * cannot be reached.
   */
  static async open(options: SharedJournalOptions): Promise<SharedJournal> {
    const shown = redactedDatabaseUrl(options.url);
    if (!/^postgres(ql)?:\/\//i.test(options.url)) {
      throw new BridgeError(
        'STATE_DATABASE',
        `the shared state database must be a postgres://user:password@host:port/database URL, got ${JSON.stringify(shown.slice(0, 200))}`,
      );
    }
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: options.url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      application_name: 'xprotocol-adapter',
      max: 16,
    });
    // An idle connection the server closed: the pool drops it and opens another when needed.
    pool.on('error', () => {});
    const journal = new SharedJournal(pool, options, shown);
    try {
      await journal.#transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        await client.query(SCHEMA);
      });
      await journal.#renewLease();
      const { rows } = await pool.query('SELECT floor FROM xp_adapter_floor WHERE endpoint = $1', [
        options.endpoint,
      ]);
      journal.#floor = Number(rows[0]?.floor ?? 0);
      await journal.#outbox._load();
    } catch (error) {
      await pool.end().catch(() => {});
      throw new BridgeError(
        'STATE_DATABASE',
        `cannot open the shared state database ${shown}: ${secretFree((error as Error).message, options.url)}`,
        { cause: error },
      );
    }
    return journal;
  }

  /** The relay pool's outbox: this replica's rows of the shared outbox table. */
  get outbox(): Outbox {
    return this.#outbox;
  }

  /**
   * Replicas of this key whose lease was live at the last renewal, this one included (at least 1):
   * the endpoint splits each source's rate limit between them.
   */
  get liveReplicas(): number {
    return this.#live;
  }

  /** The shared dedupe memory's floor (unix seconds): older requests are refused as stale. */
  get floor(): number {
    return this.#floor;
  }

  /**
   * Claims `request` for this replica; resolves false when a replica (this one included) claimed
   * it before: a duplicate.
   */
  async claim(request: XpEvent): Promise<boolean> {
    const { rowCount } = await this.query(
      `INSERT INTO xp_adapter_calls (endpoint, id, owner, status, created_at, request_json)
       VALUES ($1, $2, $3, 'claimed', $4, $5) ON CONFLICT DO NOTHING`,
      [this.#endpoint, request.id, this.replica, request.created_at, JSON.stringify(request)],
    );
    return rowCount === 1;
  }

  /** Marks a claimed request started (before its upstream call); throws when this replica lost it. */
  async started(id: string): Promise<void> {
    const { rowCount } = await this.query(
      `UPDATE xp_adapter_calls SET status = 'started'
        WHERE endpoint = $1 AND id = $2 AND owner = $3 AND status = 'claimed'`,
      [this.#endpoint, id, this.replica],
    );
    if (rowCount !== 1) this.#lost(id, 'start');
  }

  /**
   * Ends the call with its answer in the shared outbox, in one statement, while this replica still
   * owns the call; throws when it does not (a survivor took it over and answers it).
   */
  async answered(requestId: string, answer: XpEvent, expiresAt: number): Promise<void> {
    const { rows } = await this.query(
      `WITH done AS (
         UPDATE xp_adapter_calls SET status = 'done', request_json = NULL
          WHERE endpoint = $1 AND id = $2 AND owner = $3 AND status IN ('claimed', 'started')
          RETURNING id),
       queued AS (
         INSERT INTO xp_adapter_outbox (endpoint, id, owner, json, expires_at)
         SELECT $1, $4, $3, $5, $6 FROM done ON CONFLICT DO NOTHING)
       SELECT count(*)::int AS n FROM done`,
      [this.#endpoint, requestId, this.replica, answer.id, JSON.stringify(answer), expiresAt],
    );
    if (rows[0]?.n !== 1) this.#lost(requestId, 'answer');
    this.#outbox._present(answer.id);
  }

  /** A claimed request was dropped or ignored, not answered: keep its id for dedupe only. */
  async settled(id: string): Promise<void> {
    await this.query(
      `UPDATE xp_adapter_calls SET status = 'done', request_json = NULL
        WHERE endpoint = $1 AND id = $2 AND owner = $3 AND status = 'claimed'`,
      [this.#endpoint, id, this.replica],
    );
  }

  /** Gives up this replica's claim of a request it adopted but never started, so it can run again. */
  async release(id: string): Promise<void> {
    await this.query(
      `DELETE FROM xp_adapter_calls WHERE endpoint = $1 AND id = $2 AND owner = $3 AND status = 'claimed'`,
      [this.#endpoint, id, this.replica],
    );
  }

  /** Starts forgetting ids that left the window `windowSeconds` (checked with each lease renewal). */
  openReplayMemory(windowSeconds: number): void {
    this.#windowSeconds = windowSeconds;
  }

  /**
   * Renews this replica's lease every third of it and adopts the work of replicas whose lease
   * lapsed, handing it to `onAdopted`. Resolves after the first adoption was handed over.
   */
  async startLeases(onAdopted: (adopted: AdoptedWork) => Promise<void>): Promise<void> {
    const tick = async () => {
      try {
        await this.#renewLease();
        await this.#forget();
        const adopted = await this.#takeOver();
        if (adopted) await onAdopted(adopted);
      } catch (error) {
        if (this.#closing) return;
        this.#logger.warn(
          { database: this.shown, error: secretFree((error as Error).message, '') },
          'the shared state database did not answer the lease renewal; retrying',
        );
      }
    };
    await tick();
    let running = false;
    this.#timer = setInterval(
      () => {
        if (running) return;
        running = true;
        void tick().finally(() => {
          running = false;
        });
      },
      Math.max(200, (this.#leaseSeconds * 1000) / 3),
    );
    this.#timer.unref?.();
  }

  /**
   * Stops renewing and ends this replica's lease at once, so a survivor adopts what its outbox
   * still holds without waiting; then disconnects.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#timer) clearInterval(this.#timer);
      await this.#pool
        .query(`UPDATE xp_adapter_replicas SET lease_until = now() WHERE endpoint = $1 AND replica = $2`, [
          this.#endpoint,
          this.replica,
        ])
        .catch(() => {});
      await this.#pool.end().catch(() => {});
    })();
    return this.#closing;
  }

  /** Runs one statement; a failure is a `STATE_DATABASE` error with no secret in it. */
  async query(
    sql: string,
    params: unknown[],
  ): Promise<{ rowCount: number; rows: Record<string, unknown>[] }> {
    try {
      const result = await this.#queryOnce(sql, params);
      return { rowCount: result.rowCount ?? 0, rows: result.rows };
    } catch (error) {
      throw new BridgeError(
        'STATE_DATABASE',
        `shared state database ${this.shown}: ${secretFree((error as Error).message, '')}`,
        { cause: error },
      );
    }
  }

  /**
   * Runs a statement, waiting again while every connection is busy: the pool gave up waiting for
   * one before the statement was sent, so sending it now cannot make it run twice.
   */
  async #queryOnce(sql: string, params: unknown[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#pool.query(sql, params);
      } catch (error) {
        const waited = /timeout exceeded when trying to connect/i.test((error as Error).message);
        if (!waited || attempt >= BUSY_RETRIES || this.#closing) throw error;
      }
    }
  }

  /** This replica's endpoint key and id, for the outbox's statements. */
  get _owner(): { endpoint: string; replica: string } {
    return { endpoint: this.#endpoint, replica: this.replica };
  }

  #lost(id: string, step: string): never {
    throw new _LostClaim(
      'STATE_DATABASE',
      `inbound call ${id}: cannot ${step} it, this replica no longer owns it (its lease lapsed and another replica took it over)`,
    );
  }

  /** Renews the lease; a row a survivor deleted (this replica was taken for dead) is made again. */
  async #renewLease(): Promise<void> {
    const { rows } = await this.query(
      `INSERT INTO xp_adapter_replicas (endpoint, replica, lease_until)
       VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (endpoint, replica) DO UPDATE SET lease_until = excluded.lease_until
       RETURNING (xmax = 0) AS inserted,
         (SELECT count(*)::int FROM xp_adapter_replicas
           WHERE endpoint = $1 AND replica <> $2 AND lease_until >= now()) AS others`,
      [this.#endpoint, this.replica, this.#leaseSeconds],
    );
    this.#live = 1 + Number(rows[0]?.others ?? 0);
    // Inserted again while renewing: a survivor took this replica for dead and adopted its work;
    // what this replica still runs can no longer be answered by it (see `answered`).
    if (this.#timer !== undefined && rows[0]?.inserted === true) {
      this.#logger.warn(
        { replica: this.replica },
        'this replica missed its lease renewal and was taken over; its calls in flight are answered by another replica',
      );
    }
  }

  /** Forgets finished ids older than the window and raises the shared floor above them. */
  async #forget(): Promise<void> {
    if (this.#windowSeconds === undefined) return;
    const { rows } = await this.query(
      `WITH cutoff AS (SELECT extract(epoch FROM now())::bigint - $2 AS at),
       raised AS (
         INSERT INTO xp_adapter_floor (endpoint, floor) SELECT $1, at FROM cutoff
         ON CONFLICT (endpoint) DO UPDATE SET floor = greatest(xp_adapter_floor.floor, excluded.floor)
         RETURNING floor),
       gone AS (
         DELETE FROM xp_adapter_calls WHERE endpoint = $1 AND status = 'done'
           AND created_at < (SELECT at FROM cutoff))
       SELECT floor FROM raised`,
      [this.#endpoint, this.#windowSeconds],
    );
    this.#floor = Math.max(this.#floor, Number(rows[0]?.floor ?? 0));
  }

  /**
   * Deletes the rows of replicas whose lease lapsed and adopts their outbox rows and unfinished
   * calls, in one transaction: a second survivor finds the rows gone and adopts nothing.
   */
  async #takeOver(): Promise<AdoptedWork | undefined> {
    return this.#transaction(async (client) => {
      const dead = await client.query(
        `DELETE FROM xp_adapter_replicas WHERE endpoint = $1 AND lease_until < now() AND replica <> $2
         RETURNING replica`,
        [this.#endpoint, this.replica],
      );
      if (dead.rows.length === 0) return undefined;
      const owners = dead.rows.map((row) => row.replica as string);
      const answers = await client.query(
        `UPDATE xp_adapter_outbox SET owner = $2 WHERE endpoint = $1 AND owner = ANY($3)
         RETURNING id, json, expires_at, seq`,
        [this.#endpoint, this.replica, owners],
      );
      const calls = await client.query(
        `UPDATE xp_adapter_calls SET owner = $2 WHERE endpoint = $1 AND owner = ANY($3)
           AND status IN ('claimed', 'started') RETURNING status, request_json`,
        [this.#endpoint, this.replica, owners],
      );
      this.#logger.warn(
        { replicas: owners, answers: answers.rows.length, calls: calls.rows.length },
        'took over the work of adapter replicas whose lease lapsed',
      );
      const requests = (status: string) =>
        calls.rows
          .filter((row) => row.status === status && row.request_json)
          .map((row) => JSON.parse(row.request_json as string) as XpEvent);
      const entries = answers.rows
        .sort((a, b) => Number(a.seq) - Number(b.seq))
        .map((row) => ({
          event: JSON.parse(row.json as string) as XpEvent,
          expiresAt: Number(row.expires_at),
        }));
      for (const entry of entries) this.#outbox._present(entry.event.id);
      return { answers: entries, started: requests('started'), claimed: requests('claimed') };
    });
  }

  async #transaction<T>(body: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await body(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}

/**
 * A replica no longer owns a call (its lease lapsed and another replica took the call over): the
 * owner answers it, so this replica must not, not even with an error.
 */
export class _LostClaim extends BridgeError {}

/** This replica's rows of the shared outbox, as the relay pool's `Outbox`. */
class _SharedOutbox implements Outbox {
  readonly #journal: SharedJournal;
  readonly #ids = new Set<string>();

  constructor(journal: SharedJournal) {
    this.#journal = journal;
  }

  async add(entry: OutboxEntry): Promise<void> {
    if (this.#ids.has(entry.event.id)) return;
    const { endpoint, replica } = this.#journal._owner;
    await this.#journal.query(
      `INSERT INTO xp_adapter_outbox (endpoint, id, owner, json, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [endpoint, entry.event.id, replica, JSON.stringify(entry.event), entry.expiresAt],
    );
    this.#ids.add(entry.event.id);
  }

  async remove(id: string): Promise<void> {
    this.#ids.delete(id);
    await this.#journal.query('DELETE FROM xp_adapter_outbox WHERE endpoint = $1 AND id = $2', [
      this.#journal._owner.endpoint,
      id,
    ]);
  }

  async pending(nowSeconds: number): Promise<OutboxEntry[]> {
    const { endpoint, replica } = this.#journal._owner;
    await this.#journal.query('DELETE FROM xp_adapter_outbox WHERE endpoint = $1 AND expires_at < $2', [
      endpoint,
      nowSeconds,
    ]);
    const { rows } = await this.#journal.query(
      'SELECT json, expires_at FROM xp_adapter_outbox WHERE endpoint = $1 AND owner = $2 ORDER BY seq',
      [endpoint, replica],
    );
    const entries = rows.map((row) => ({
      event: JSON.parse(row.json as string) as XpEvent,
      expiresAt: Number(row.expires_at),
    }));
    for (const entry of entries) this.#ids.add(entry.event.id);
    return entries;
  }

  async size(): Promise<number> {
    return this.#ids.size;
  }

  /** The journal owns the connections and closes them. */
  async close(): Promise<void> {}

  /** Ids already in the table, with this replica as owner. */
  async _load(): Promise<void> {
    await this.pending(0);
  }

  _present(id: string): void {
    this.#ids.add(id);
  }
}

/** `url` with the password of its user-info part replaced by `***` (also on text that is no URL). */
function redactedDatabaseUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#]*@/i, '$1:***@');
}

/** `message` with every URL in it redacted, and the password of `url` (when it has one) removed. */
function secretFree(message: string, url: string): string {
  let clean = message.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, (found) => redactedDatabaseUrl(found));
  let password = '';
  try {
    password = url ? decodeURIComponent(new URL(url).password) : '';
  } catch {
    // Not a URL: nothing more to remove.
  }
  if (password) clean = clean.split(password).join('***');
  return clean;
}
