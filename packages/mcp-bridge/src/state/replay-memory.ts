/**
 * The dedupe memory of docs/protocol.md §4: the ids of the requests the endpoint acted on (the
 * rows of the call journal), and the **floor**, the oldest `created_at` it still answers for.
 *
 * The memory forgets an id only after raising the floor above that id's `created_at`, so a request
 * it no longer remembers is refused as stale, never taken for new. It forgets what its window no
 * longer covers (`created_at` before now − window) and, past its capacity, the oldest ids first,
 * whole seconds of `created_at` at a time. The floor is raised in memory before the rows are
 * deleted, and written to the file in the same transaction as the deletion: after a crash either
 * both happened or neither did.
 *
 * An in-memory database (`:memory:`) forgets everything when its process ends, and a request
 * created before it began may have been run by the one that is gone: its floor starts at the time
 * it began. A new file starts at 0 (a new adapter has run nothing; one whose file was deleted has
 * forgotten what it ran, which docs/security.md warns about). Rows written before `created_at`
 * was recorded get the latest `created_at` their request could have had: received_at + the clock
 * skew.
 * @module
 */
import type Database from 'libsql';
import type { _EntryResult, _WriteEntry } from './state-writer.js';

/** The floor's own table (one row); `floor` NULL: a new memory whose clock has not started yet. */
const _REPLAY_SCHEMA = `
CREATE TABLE IF NOT EXISTS replay_memory (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  floor INTEGER
);
`;

/** How the memory forgets: its window, its capacity, and who hears that it did. */
export interface ReplayMemoryOptions {
  /** The endpoint's clock when the memory opens, in unix seconds. */
  nowSeconds: number;
  /** Ids are kept while `created_at` ≥ now − window (the freshness window, in s). */
  windowSeconds: number;
  /** The clock skew allowed for `created_at`, in s (bounds `created_at` of rows from before it was recorded). */
  maxFutureSeconds: number;
  /** Most ids remembered; past it the oldest are forgotten and the floor raised above them. */
  maxIds: number;
  /** Told each time ids were forgotten (after the floor went up). */
  onForget?: (forgot: ReplayForgetting) => void;
}

/** What one forgetting did. */
export interface ReplayForgetting {
  /** `window`: the ids had left the window; `capacity`: the memory was full. */
  why: 'window' | 'capacity';
  /** Ids forgotten (approximately: calls finishing meanwhile may add a few). */
  ids: number;
  /** The new floor: requests created before it are refused as stale. */
  floor: number;
}

/** How often, at most, ids that left the window are looked for, in s of the endpoint's clock. */
const SWEEP_SECONDS = 60;

/** The statements that forget every finished id created at or before `?1` and raise the floor to `?2`. */
function _forgetEntry(through: number, floor: number): _WriteEntry {
  return {
    statements: [
      { sql: `DELETE FROM inbound_calls WHERE status = 'done' AND created_at <= ?`, params: [through] },
      {
        sql: `INSERT INTO replay_memory (one, floor) VALUES (1, ?)
              ON CONFLICT (one) DO UPDATE SET floor = max(coalesce(floor, 0), excluded.floor)`,
        params: [floor],
      },
    ],
    // Losing it to a power cut brings back both the rows and the old floor: nothing is forgotten.
    sync: false,
  };
}

/** The dedupe memory of one state database (the file's `inbound_calls` and `replay_memory`). */
export class _ReplayMemory {
  readonly #db: Database.Database;
  readonly #write: (entry: _WriteEntry) => Promise<_EntryResult>;
  #floor: number;
  #options: ReplayMemoryOptions | undefined;
  /** Rows in `inbound_calls` not yet on their way out (counted when the memory opens, then kept up to date). */
  #count = 0;
  #lastSweep = Number.NEGATIVE_INFINITY;

  constructor(db: Database.Database, write: (entry: _WriteEntry) => Promise<_EntryResult>) {
    this.#db = db;
    this.#write = write;
    const row = db.prepare('SELECT floor FROM replay_memory WHERE one = 1').get() as
      | { floor: number | null }
      | undefined;
    this.#floor = row?.floor ?? 0;
  }

  /**
   * Adds what the memory needs to a file of an earlier version, and gives a new database its floor
   * row (called before its writer opens, with whether `inbound_calls` existed before and whether
   * the database lives in memory only).
   */
  static _prepare(db: Database.Database, existed: boolean, inMemory: boolean): void {
    const columns = db.prepare('PRAGMA table_info(inbound_calls)').all() as { name: string }[];
    if (!columns.some((column) => column.name === 'created_at')) {
      db.exec('ALTER TABLE inbound_calls ADD COLUMN created_at INTEGER');
    }
    // One index serves the forgetting (finished ids by created_at) and the calls left unfinished;
    // the two of earlier versions only cost space.
    db.exec(`CREATE INDEX IF NOT EXISTS inbound_calls_done ON inbound_calls (status, created_at);
      DROP INDEX IF EXISTS inbound_calls_received; DROP INDEX IF EXISTS inbound_calls_status;`);
    db.exec(_REPLAY_SCHEMA);
    // In memory only: the floor is the endpoint's clock when it opens the memory (NULL until then).
    // A new file: 0. A file of an earlier version has no row: it never forgot anything, so its
    // floor is 0 too (written at open).
    if (!existed) {
      db.exec(`INSERT OR IGNORE INTO replay_memory (one, floor) VALUES (1, ${inMemory ? 'NULL' : '0'})`);
    }
  }

  /** Requests created before this are refused as stale: the memory may have forgotten them. */
  get floor(): number {
    return this.#floor;
  }

  /**
   * Starts the memory's clock and forgetting: an in-memory database's floor becomes now; rows
   * without a `created_at` get their upper bound; then what is out of the window or over capacity
   * goes.
   */
  open(options: ReplayMemoryOptions): void {
    this.#options = options;
    const row = this.#db.prepare('SELECT floor FROM replay_memory WHERE one = 1').get() as
      | { floor: number | null }
      | undefined;
    if (!row || row.floor === null) {
      this.#floor = row ? options.nowSeconds : 0;
      this.#db.prepare('INSERT OR REPLACE INTO replay_memory (one, floor) VALUES (1, ?)').run(this.#floor);
    }
    this.#db
      .prepare(
        `UPDATE inbound_calls SET created_at = received_at + ?
           WHERE status IN ('started', 'answered', 'done') AND created_at IS NULL`,
      )
      .run(options.maxFutureSeconds);
    this.#count = (this.#db.prepare('SELECT COUNT(*) AS n FROM inbound_calls').get() as { n: number }).n;
    this.remembered(options.nowSeconds, 0);
  }

  /** `added` rows were written at `nowSeconds`: forgets what has to go (once open). */
  remembered(nowSeconds: number, added: number): void {
    this.#count += added;
    const options = this.#options;
    if (!options) return;
    if (this.#count > options.maxIds) this.#forgetOldest(options);
    else if (nowSeconds - this.#lastSweep >= SWEEP_SECONDS) this.#forgetOutOfWindow(nowSeconds, options);
  }

  /** Forgets finished ids created before now − window; the floor goes just above the newest of them. */
  #forgetOutOfWindow(nowSeconds: number, options: ReplayMemoryOptions): void {
    this.#lastSweep = nowSeconds;
    const cutoff = nowSeconds - options.windowSeconds;
    if (cutoff <= this.#floor) return;
    // Ids below the floor are already on their way out (a forgetting not committed yet).
    const found = this.#db
      .prepare(
        `SELECT max(created_at) AS newest, count(*) AS n FROM inbound_calls
           WHERE status = 'done' AND created_at >= ? AND created_at < ?`,
      )
      .get(this.#floor, cutoff) as { newest: number | null; n: number };
    if (found.newest === null) return;
    this.#forget(found.newest, found.n, 'window', options);
  }

  /** Forgets the oldest finished ids, whole seconds at a time, down to 99% of the capacity. */
  #forgetOldest(options: ReplayMemoryOptions): void {
    const target = options.maxIds - Math.max(1, Math.floor(options.maxIds / 100));
    const excess = this.#count - target;
    const floor = this.#floor;
    // The created_at of the excess-th oldest finished id: it and every id of its second go.
    const row = this.#db
      .prepare(
        `SELECT created_at FROM inbound_calls WHERE status = 'done' AND created_at >= ?
           ORDER BY created_at LIMIT 1 OFFSET ?`,
      )
      .get(floor, excess - 1) as { created_at: number } | undefined;
    const through =
      row?.created_at ??
      (
        this.#db
          .prepare(
            `SELECT max(created_at) AS newest FROM inbound_calls WHERE status = 'done' AND created_at >= ?`,
          )
          .get(floor) as { newest: number | null }
      ).newest;
    // Every id left is a call still in progress: those are never forgotten.
    if (through === null || through === undefined) return;
    const ids = (
      this.#db
        .prepare(
          `SELECT count(*) AS n FROM inbound_calls WHERE status = 'done' AND created_at >= ? AND created_at <= ?`,
        )
        .get(floor, through) as { n: number }
    ).n;
    this.#forget(through, ids, 'capacity', options);
  }

  /**
   * Raises the floor above `through` at once, then deletes the finished ids at or below it in the
   * commit that writes the floor. They are no longer counted from now on: the next forgetting
   * does not wait for this one.
   */
  #forget(through: number, ids: number, why: ReplayForgetting['why'], options: ReplayMemoryOptions): void {
    this.#floor = Math.max(this.#floor, through + 1);
    const floor = this.#floor;
    this.#count = Math.max(0, this.#count - ids);
    void this.#write(_forgetEntry(through, floor)).then(
      (result) => {
        if (result.ok) options.onForget?.({ why, ids, floor });
        else this.#count += ids;
      },
      () => {
        // Not committed (the database is closing): the rows stay, and the floor, already raised,
        // only refuses more.
        this.#count += ids;
      },
    );
  }
}
