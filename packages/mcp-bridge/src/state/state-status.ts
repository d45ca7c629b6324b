/**
 * The running adapter's status record in the state database (the `adapter_status` table, one
 * row): its pid, when it started, when it last wrote, when it stopped, and a snapshot whose shape
 * is the adapter's. The adapter writes it through {@link StateDatabase.saveStatus}; another
 * process (`xprotocol-adapter status`) reads it with {@link readStatusRecord} on a read-only
 * connection of its own, which never creates, changes or locks out the file.
 * @module
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'libsql';
import { BridgeError } from '../errors.js';

/** What a running adapter last recorded about itself. Times are Unix milliseconds. */
export interface StatusRecord {
  /** The adapter's process id. */
  pid: number;
  startedAt: number;
  /** When the record was written: an adapter that runs rewrites it every few seconds. */
  writtenAt: number;
  /** Set by a clean stop. */
  stoppedAt?: number | undefined;
  /** The adapter's own snapshot (JSON). */
  snapshot: unknown;
}

export const _STATUS_SCHEMA = `
CREATE TABLE IF NOT EXISTS adapter_status (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  written_at INTEGER NOT NULL,
  stopped_at INTEGER,
  snapshot_json TEXT NOT NULL
);
`;

/**
 * An upsert, not a replace: rewriting the row in place lets SQLite write only the pages that
 * changed, so a snapshot that did not change costs one page of WAL, not the whole row.
 */
export const _STATUS_SAVE = `INSERT INTO adapter_status
  (id, pid, started_at, written_at, stopped_at, snapshot_json) VALUES (1, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, started_at = excluded.started_at,
    written_at = excluded.written_at, stopped_at = excluded.stopped_at, snapshot_json = excluded.snapshot_json`;

/** The parameters of {@link _STATUS_SAVE} for `record`. */
export function _statusParams(record: StatusRecord): unknown[] {
  return [
    record.pid,
    record.startedAt,
    record.writtenAt,
    record.stoppedAt ?? null,
    JSON.stringify(record.snapshot),
  ];
}

/**
 * The status record in the state database at `path`, read on a read-only connection; `undefined`
 * when no adapter has written one (also a database from before the table existed). Throws
 * `STATE_DATABASE` when there is no file at `path` (it is never created) or it cannot be read.
 */
export function readStatusRecord(path: string): StatusRecord | undefined {
  if (!existsSync(path)) throw new BridgeError('STATE_DATABASE', `no state database at ${path}`);
  let db: Database.Database | undefined;
  try {
    // A file: URI (percent-encoded, so any character of the path survives) opened with mode=ro.
    db = new Database(`${pathToFileURL(resolve(path)).href}?mode=ro`);
    db.pragma('busy_timeout = 5000');
    const table = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'adapter_status'")
      .get();
    if (table === undefined) return undefined;
    const row = db
      .prepare(
        'SELECT pid, started_at, written_at, stopped_at, snapshot_json FROM adapter_status WHERE id = 1',
      )
      .get() as
      | {
          pid: number;
          started_at: number;
          written_at: number;
          stopped_at: number | null;
          snapshot_json: string;
        }
      | undefined;
    return (
      row && {
        pid: row.pid,
        startedAt: row.started_at,
        writtenAt: row.written_at,
        stoppedAt: row.stopped_at ?? undefined,
        snapshot: JSON.parse(row.snapshot_json),
      }
    );
  } catch (error) {
    throw new BridgeError(
      'STATE_DATABASE',
      `cannot read the state database ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    db?.close();
  }
}
