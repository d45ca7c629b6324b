/**
 * Group commit for the state database. A commit with `synchronous=FULL` waits for an fsync
 * (milliseconds on a shared disk) and libsql's API is synchronous: committed one call at a time on
 * the adapter's thread, every record would stop the event loop for that long, and concurrent calls
 * would queue behind each other's fsyncs. Writes are therefore queued as entries, and everything
 * queued while one transaction is on the disk goes into the next one: many calls' records share
 * one commit and one fsync. A file database is written by a worker thread on a connection of its
 * own (WAL lets the adapter's connection read meanwhile); `:memory:` has no second connection to
 * the same data, so it is written inline.
 *
 * Each entry runs inside a savepoint: an entry whose guarded statement changes nothing (a refused
 * state transition) or fails is rolled back alone, and the others of its batch still commit. An
 * entry's promise settles only after the transaction holding it committed (or failed as a whole).
 * @module
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'libsql';

/** One SQL statement of an entry. */
export interface _WriteStatement {
  sql: string;
  params: readonly unknown[];
  /** The entry is rolled back, and reported unchanged, when this statement changes no row. */
  mustChange?: boolean;
}

/** Statements that commit together or not at all. */
export interface _WriteEntry {
  statements: readonly _WriteStatement[];
  /** Needs an fsync before it is reported committed (`synchronous=FULL`). */
  sync: boolean;
  /**
   * May wait for the next transaction that something else asks for (at most
   * {@link _DEFER_MS}) instead of starting one of its own: for a write nobody waits on and whose
   * loss to a crash is harmless (an outbox entry removed after a relay's `OK`). It never
   * overtakes an entry queued before it.
   */
  deferred?: boolean;
}

/** What became of one entry. */
export type _EntryResult = { ok: true } | { ok: false; unchanged: number } | { ok: false; error: string };

/** Commits batches of entries, one transaction at a time, in order. */
interface _BatchRunner {
  commit(entries: readonly _WriteEntry[], sync: boolean): Promise<_EntryResult[]>;
  close(): Promise<void>;
}

/**
 * The transaction body, shared by both runners. In the worker it runs from source (below), so it
 * is a self-contained function of a libsql database.
 */
function _batchCommitter(db: Database.Database) {
  const statements = new Map<string, Database.Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<unknown[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const runEntry = (entry: _WriteEntry): _EntryResult => {
    db.exec('SAVEPOINT entry');
    try {
      for (let i = 0; i < entry.statements.length; i++) {
        const statement = entry.statements[i]!;
        const info = prepared(statement.sql).run(...statement.params);
        if (statement.mustChange && info.changes === 0) {
          db.exec('ROLLBACK TO entry');
          db.exec('RELEASE entry');
          return { ok: false, unchanged: i };
        }
      }
      db.exec('RELEASE entry');
      return { ok: true };
    } catch (error) {
      try {
        db.exec('ROLLBACK TO entry');
        db.exec('RELEASE entry');
      } catch {
        // The failed statement may already have ended the savepoint.
      }
      return { ok: false, error: String((error as Error)?.message ?? error) };
    }
  };
  return (entries: readonly _WriteEntry[], sync: boolean): _EntryResult[] => {
    db.pragma(sync ? 'synchronous = FULL' : 'synchronous = NORMAL');
    db.exec('BEGIN IMMEDIATE');
    try {
      const results = entries.map(runEntry);
      db.exec('COMMIT');
      return results;
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // The failed statement may already have ended the transaction.
      }
      throw error;
    } finally {
      // The connection's other users (inline: the adapter's own writes) expect FULL.
      db.pragma('synchronous = FULL');
    }
  };
}

/** Commits on the caller's connection, synchronously (for `:memory:`). */
function _inlineRunner(db: Database.Database): _BatchRunner {
  const commit = _batchCommitter(db);
  return {
    commit: async (entries, sync) => commit(entries, sync),
    close: async () => {},
  };
}

// The worker: its own connection with the state database's durability settings, running the same
// transaction body (inlined as source, so the worker needs no file of its own next to the bundle).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const commit = (${_batchCommitter.toString()})(db);
parentPort.on('message', (message) => {
  try {
    if (message.type === 'commit') parentPort.postMessage({ seq: message.seq, value: commit(message.entries, message.sync) });
    else {
      db.close();
      parentPort.postMessage({ seq: message.seq, value: null });
    }
  } catch (error) {
    parentPort.postMessage({ seq: message.seq, error: String((error && error.message) || error) });
  }
});
`;

/** Commits on a worker thread's own connection to the file at `path`. */
function _workerRunner(path: string): _BatchRunner {
  const libsql = createRequire(import.meta.url).resolve('libsql');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, libsql } });
  const waiting = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  let seq = 0;
  let failure: Error | undefined;
  // An idle writer does not keep the process alive; one with work in flight does.
  worker.unref();
  const fail = (error: Error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(failure);
    waiting.clear();
  };
  worker.on('message', (message: { seq: number; value?: unknown; error?: string }) => {
    const waiter = waiting.get(message.seq);
    waiting.delete(message.seq);
    if (waiting.size === 0) worker.unref();
    if (message.error !== undefined) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.value as never);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the state database writer thread exited (code ${code})`)));
  const send = <T>(message: Record<string, unknown>): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = ++seq;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: never) => void, reject });
      worker.postMessage({ ...message, seq: id });
    });
  };
  let closing: Promise<void> | undefined;
  return {
    commit: (entries, sync) => send<_EntryResult[]>({ type: 'commit', entries, sync }),
    close: () => {
      closing ??= (async () => {
        if (!failure) await send<null>({ type: 'close' }).catch(() => {});
        worker.removeAllListeners('exit');
        await worker.terminate();
      })();
      return closing;
    },
  };
}

interface _Queued {
  entry: _WriteEntry;
  resolve: (result: _EntryResult) => void;
  reject: (error: Error) => void;
}

/** Most entries in one transaction. */
const MAX_BATCH = 512;

/** Longest a deferred entry waits for a transaction to ride on, in ms. */
export const _DEFER_MS = 250;

/**
 * The state database's writer: queues entries and commits them in batches, one transaction on
 * the disk at a time; what arrives meanwhile forms the next batch.
 */
export class _StateWriter {
  readonly #path: string;
  readonly #db: Database.Database;
  /** Made on the first write: a database that is only read starts no thread. */
  #runner: _BatchRunner | undefined;
  #queue: _Queued[] = [];
  /** Entries in the queue that are not deferred: a transaction is wanted now. */
  #urgent = 0;
  #scheduled = false;
  /** Commits what is deferred when nothing else came along in time. */
  #deferTimer: ReturnType<typeof setTimeout> | undefined;
  #committing: Promise<void> | undefined;
  #drained: (() => void)[] = [];
  #closed = false;

  /** On a worker thread for a file; inline on `db` for `:memory:`. */
  constructor(path: string, db: Database.Database) {
    this.#path = path;
    this.#db = db;
  }

  /** True once a write has made the runner (a worker thread, for a file). */
  get running(): boolean {
    return this.#runner !== undefined;
  }

  /** Queues an entry; resolves once the transaction holding it committed. */
  write(entry: _WriteEntry): Promise<_EntryResult> {
    if (this.#closed) return Promise.reject(new Error('the state database writer is closed'));
    return new Promise<_EntryResult>((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject });
      if (entry.deferred) {
        this.#armDeferTimer();
        return;
      }
      this.#urgent++;
      // Entries queued in the same turn of the event loop share the batch.
      if (!this.#scheduled) {
        this.#scheduled = true;
        queueMicrotask(() => {
          this.#scheduled = false;
          this.#flush();
        });
      }
    });
  }

  /** Commits what is queued, then stops the writer. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#queue.length > 0 && !this.#committing) this.#flush(true);
    if (this.#committing || this.#queue.length > 0)
      await new Promise<void>((resolve) => this.#drained.push(resolve));
    await this.#runner?.close();
  }

  /** Commits the queue when something in it is urgent, or when `force`d (timer, close). */
  #flush(force = false): void {
    if (this.#committing) return;
    if (this.#queue.length === 0) {
      for (const resolve of this.#drained.splice(0)) resolve();
      return;
    }
    if (this.#urgent === 0 && !force && !this.#closed) {
      this.#armDeferTimer();
      return;
    }
    if (this.#deferTimer) clearTimeout(this.#deferTimer);
    this.#deferTimer = undefined;
    const batch = this.#queue.splice(0, MAX_BATCH);
    for (const queued of batch) if (!queued.entry.deferred) this.#urgent--;
    const entries = batch.map((queued) => queued.entry);
    this.#runner ??= this.#path === ':memory:' ? _inlineRunner(this.#db) : _workerRunner(this.#path);
    this.#committing = this.#runner
      .commit(
        entries,
        entries.some((entry) => entry.sync),
      )
      .then(
        (results) => {
          for (const [i, queued] of batch.entries()) queued.resolve(results[i]!);
        },
        (error: unknown) => {
          for (const queued of batch) queued.reject(error as Error);
        },
      );
    void this.#committing.finally(() => {
      this.#committing = undefined;
      // What arrived while that batch was on the disk goes at once: it has waited long enough.
      this.#flush();
    });
  }

  #armDeferTimer(): void {
    if (this.#deferTimer) return;
    this.#deferTimer = setTimeout(() => {
      this.#deferTimer = undefined;
      this.#flush(true);
    }, _DEFER_MS);
    // A deferred write may be lost to an exit: by definition nothing depends on it.
    this.#deferTimer.unref?.();
  }
}
