/**
 * Recorded calls (docs/operating.md, "Idempotency and replay"): a face `tools/call` made with an
 * idempotency key is kept in the state database's `recorded_calls` table — who called, the key,
 * the tool, its arguments and their hash, the result — for the idempotency window. A retry with
 * the same key is answered from the record; `xprotocol-adapter calls` and `replay` read the table
 * with {@link readRecordedCalls} on a read-only connection of their own, never running anything.
 * @module
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'libsql';
import { BridgeError } from '../errors.js';

/** One recorded call. Times are Unix milliseconds. */
export interface RecordedCall {
  /** 32 hex digits, the call's own id. */
  readonly id: string;
  readonly recordedAt: number;
  /** The face principal; `null` without one (no authentication, or the shared static token). */
  readonly principal: string | null;
  readonly idempotencyKey: string;
  /** The face's tool name. */
  readonly tool: string;
  /** The version of the tool's contract the call ran against, when the catalog knows it. */
  readonly contractVersion: string | null;
  /** `sha256:` and the SHA-256 of the arguments' canonical JSON. */
  readonly argumentsSha256: string;
  readonly arguments: Record<string, unknown>;
  readonly result: Record<string, unknown>;
}

export const _RECORDED_CALLS_SCHEMA = `
CREATE TABLE IF NOT EXISTS recorded_calls (
  id TEXT PRIMARY KEY,
  recorded_at INTEGER NOT NULL,
  principal TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  tool TEXT NOT NULL,
  contract_version TEXT,
  arguments_sha256 TEXT NOT NULL,
  arguments_json TEXT NOT NULL,
  result_json TEXT NOT NULL,
  UNIQUE (principal, idempotency_key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS recorded_calls_time ON recorded_calls (recorded_at);
`;

/** Replaces a record of the same principal and key (one older than the window, by then). */
export const _RECORD_CALL = `INSERT OR REPLACE INTO recorded_calls
  (id, recorded_at, principal, idempotency_key, tool, contract_version, arguments_sha256, arguments_json, result_json)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export const _FIND_CALL = `SELECT * FROM recorded_calls WHERE principal = ? AND idempotency_key = ? AND recorded_at >= ?`;

export const _EXPIRE_CALLS = 'DELETE FROM recorded_calls WHERE recorded_at < ?';

/** The parameters of {@link _RECORD_CALL} for `call`. The empty principal stands for none (a key must be unique). */
export function _recordParams(call: RecordedCall): unknown[] {
  return [
    call.id,
    call.recordedAt,
    call.principal ?? '',
    call.idempotencyKey,
    call.tool,
    call.contractVersion,
    call.argumentsSha256,
    JSON.stringify(call.arguments),
    JSON.stringify(call.result),
  ];
}

/** A row of the table as a {@link RecordedCall}. */
export function _recordedCallOf(row: Record<string, unknown>): RecordedCall {
  return {
    id: row.id as string,
    recordedAt: row.recorded_at as number,
    principal: row.principal === '' ? null : (row.principal as string),
    idempotencyKey: row.idempotency_key as string,
    tool: row.tool as string,
    contractVersion: (row.contract_version as string | null) ?? null,
    argumentsSha256: row.arguments_sha256 as string,
    arguments: JSON.parse(row.arguments_json as string) as Record<string, unknown>,
    result: JSON.parse(row.result_json as string) as Record<string, unknown>,
  };
}

/**
 * The calls recorded in the state database at `path`, newest first (read-only; `[]` when the
 * adapter never recorded one). Throws `STATE_DATABASE` when the file is missing or unreadable.
 */
export function readRecordedCalls(path: string): RecordedCall[] {
  if (!existsSync(path)) throw new BridgeError('STATE_DATABASE', `no state database at ${path}`);
  let db: Database.Database | undefined;
  try {
    db = new Database(`${pathToFileURL(resolve(path)).href}?mode=ro`);
    db.pragma('busy_timeout = 5000');
    const table = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'recorded_calls'")
      .get();
    if (table === undefined) return [];
    const rows = db.prepare('SELECT * FROM recorded_calls ORDER BY recorded_at DESC, id').all() as Record<
      string,
      unknown
    >[];
    return rows.map(_recordedCallOf);
  } catch (error) {
    throw new BridgeError(
      'STATE_DATABASE',
      `cannot read the state database ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  } finally {
    db?.close();
  }
}
