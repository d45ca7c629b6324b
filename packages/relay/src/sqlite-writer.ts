/**
 * Where the SQLite store's writes run. A commit with `synchronous=FULL` waits for an fsync
 * (milliseconds), and libsql's API is synchronous: on the relay's thread every commit would stop
 * verification, fan-out and every socket for that long. A file database is therefore written by a
 * worker thread on a connection of its own (WAL lets the relay's connection read meanwhile), and
 * the relay thread keeps checking events while a batch is on disk. `:memory:` has no second
 * connection to the same data, so it is written inline.
 * @module
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'libsql';

/**
 * One event row: id and key (32 bytes each; views of one buffer per batch, which moves to the
 * writer thread without a copy), kind, created_at, expires_at, JSON, and its indexed tags.
 */
export type _EventRow = [Uint8Array, Uint8Array, string, number, number, string, [string, string][]];

/** What a commit did: per row whether it was new, and which transaction took it (1, 2, …). */
export interface _Committed {
  stored: boolean[];
  transaction: number;
}

/** Commits batches of event rows and expiry sweeps, in order. */
export interface _SqliteWriter {
  /**
   * Inserts the rows, durably, in one transaction (perhaps shared with other batches sent
   * meanwhile); resolves per row whether it was new (false: a duplicate).
   */
  commit(rows: readonly _EventRow[]): Promise<_Committed>;
  /** Deletes events (and their tags) expired at `nowSeconds`; resolves how many. */
  expire(nowSeconds: number): Promise<number>;
  /** Finishes what was sent and releases the writer. */
  close(): Promise<void>;
}

// The layout is sqlite-schema.ts's. A duplicate id inserts nothing (changes 0); parameters are
// always passed as one array: libsql reads a lone Buffer argument as named parameters and aborts.
const INSERT_EVENT =
  'INSERT INTO events (id, pubkey, kind, created_at, expires_at, json) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING';
const INSERT_TAG = 'INSERT OR IGNORE INTO tags (event_seq, name, value) VALUES (?, ?, ?)';
const EXPIRE_TAGS = 'DELETE FROM tags WHERE event_seq IN (SELECT seq FROM events WHERE expires_at <= ?)';
const EXPIRE_EVENTS = 'DELETE FROM events WHERE expires_at <= ?';

/**
 * The transaction bodies, shared by both writers. In the worker they run from source (below), so
 * they are written as a self-contained function of a libsql database.
 */
function _operations(db: Database.Database) {
  const insertEvent = db.prepare<unknown[]>(INSERT_EVENT);
  const insertTag = db.prepare<unknown[]>(INSERT_TAG);
  const inTransaction = <T>(work: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // The failed statement may already have ended the transaction.
      }
      throw error;
    }
  };
  return {
    commit: (rows: readonly _EventRow[]): boolean[] =>
      inTransaction(() =>
        rows.map((row) => {
          const inserted = insertEvent.run([row[0], row[1], row[2], row[3], row[4], row[5]]);
          const stored = inserted.changes > 0;
          if (stored)
            for (const [name, value] of row[6]) insertTag.run([inserted.lastInsertRowid, name, value]);
          return stored;
        }),
      ),
    expire: (nowSeconds: number): number =>
      inTransaction(() => {
        db.prepare<unknown[]>(EXPIRE_TAGS).run([nowSeconds]);
        return db.prepare<unknown[]>(EXPIRE_EVENTS).run([nowSeconds]).changes;
      }),
  };
}

/** Writes on the caller's connection, synchronously (for `:memory:`). */
export function _inlineWriter(db: Database.Database): _SqliteWriter {
  const operations = _operations(db);
  let transactions = 0;
  return {
    commit: async (rows) => ({ stored: operations.commit(rows), transaction: ++transactions }),
    expire: async (nowSeconds) => operations.expire(nowSeconds),
    close: async () => {},
  };
}

// The worker: opens its own connection with the store's durability settings and runs the same
// operations (their source is inlined, so the worker needs no file of its own next to the bundle).
// Group commit happens here: while a transaction waits for its fsync the thread is blocked and
// new batches queue on its port; once it returns, the event loop reads every queued message before
// the setImmediate fires, and one transaction takes them all. The writer never waits for the relay
// thread to notice a commit, and a lone event commits at once.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const INSERT_EVENT = ${JSON.stringify(INSERT_EVENT)};
const INSERT_TAG = ${JSON.stringify(INSERT_TAG)};
const EXPIRE_TAGS = ${JSON.stringify(EXPIRE_TAGS)};
const EXPIRE_EVENTS = ${JSON.stringify(EXPIRE_EVENTS)};
const operations = (${_operations.toString()})(db);
const queue = [];
let scheduled = false;
let transactions = 0;
const reply = (seq, run) => {
  try {
    parentPort.postMessage({ seq, value: run() });
  } catch (error) {
    parentPort.postMessage({ seq, error: String((error && error.message) || error) });
  }
};
const drain = () => {
  scheduled = false;
  while (queue.length > 0) {
    if (queue[0].type !== 'commit') {
      const message = queue.shift();
      if (message.type === 'expire') reply(message.seq, () => operations.expire(message.now));
      else reply(message.seq, () => { db.close(); return null; });
      continue;
    }
    // Consecutive commits, up to maxBatch rows, share one transaction and one fsync.
    const group = [queue.shift()];
    let size = group[0].rows.length;
    while (queue.length > 0 && queue[0].type === 'commit' && size + queue[0].rows.length <= workerData.maxBatch) {
      size += queue[0].rows.length;
      group.push(queue.shift());
    }
    let stored;
    try {
      stored = operations.commit(group.length === 1 ? group[0].rows : group.flatMap((m) => m.rows));
      transactions++;
    } catch (error) {
      const reason = String((error && error.message) || error);
      for (const message of group) parentPort.postMessage({ seq: message.seq, error: reason });
      continue;
    }
    let at = 0;
    for (const message of group) {
      const value = { stored: stored.slice(at, at + message.rows.length), transaction: transactions };
      parentPort.postMessage({ seq: message.seq, value });
      at += message.rows.length;
    }
  }
};
parentPort.on('message', (message) => {
  queue.push(message);
  if (!scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
});
`;

/**
 * The buffers under the rows' ids and keys, to move rather than copy. Only buffers that hold
 * nothing else may move (a Buffer from Node's shared pool may not): the store gives each batch one
 * buffer of its own, exactly as long as the ids and keys in it.
 */
function _buffersOf(rows: readonly _EventRow[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  let bytes = 0;
  for (const row of rows) {
    for (const view of [row[0], row[1]]) {
      if (!(view.buffer instanceof ArrayBuffer)) return [];
      buffers.add(view.buffer);
      bytes += view.byteLength;
    }
  }
  let total = 0;
  for (const buffer of buffers) total += buffer.byteLength;
  return total === bytes ? [...buffers] : [];
}

/**
 * Writes on a worker thread's own connection to the file at `path`. Batches sent while one is
 * being committed are committed together (up to `maxBatch` rows per transaction).
 */
export function _workerWriter(path: string, maxBatch: number): _SqliteWriter {
  const libsql = createRequire(import.meta.url).resolve('libsql');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, libsql, maxBatch } });
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
  worker.on('exit', (code) => fail(new Error(`the SQLite writer thread exited (code ${code})`)));
  const send = <T>(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = ++seq;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: never) => void, reject });
      worker.postMessage({ ...message, seq: id }, transfer);
    });
  };
  let closing: Promise<void> | undefined;
  return {
    commit: (rows) => send<_Committed>({ type: 'commit', rows }, _buffersOf(rows)),
    expire: (nowSeconds) => send<number>({ type: 'expire', now: nowSeconds }),
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
