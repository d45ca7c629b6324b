/**
 * The adapter's state database (SQLite via `libsql`, WAL, `synchronous=FULL`): what must survive a
 * crash so that nothing is lost and nothing runs twice.
 *
 * An inbound call is written only once the pipeline decides to act on it:
 * - `started`: recorded (with the request) *before* the upstream call, and the upstream call waits
 *   until that record is durable. A crash after it cannot know whether the server acted, so on
 *   restart the call is answered `UPSTREAM_ERROR` (interrupted) — never re-run. A crash *before*
 *   it leaves nothing behind: the call never reached the server, and the relays deliver it again
 *   when the adapter resubscribes.
 * - `answered`: the signed answer (a result or an error) is stored *before* it is handed to the
 *   relay outbox; on restart it is handed over again (relays deduplicate by id).
 * - `done`: the answer is durably in the outbox. Its id stays, for dedupe, until the dedupe memory
 *   forgets it (replay-memory.ts): only after raising its floor above the request's `created_at`.
 * When this database's own outbox is the relay pool's ({@link StateDatabase.outbox}), the answer
 * and its outbox entry are written in ONE transaction that leaves the call `done` at once: there is
 * no moment where one is durable without the other, and nothing reaches a relay before it is.
 *
 * **Replicas.** Given a {@link SharedJournal} ({@link StateDatabase.share}), the call journal, the
 * dedupe memory and the outbox live in the Postgres database the replicas of one key share
 * instead: {@link StateDatabase.claim} is then the replicas' atomic claim, and the records above
 * are written there (shared-journal.ts); this file keeps the rest.
 *
 * **Group commit.** These records are written by a {@link _StateWriter}: on a worker thread with
 * its own connection (for a file), in transactions that take every record queued while the
 * previous one was on the disk. Concurrent calls share one fsync, and the adapter's event loop
 * never waits for the disk. Each record still resolves only once its transaction committed; a
 * `done` (or an outbox removal) alone is committed without an fsync, since losing it to a power
 * cut only re-sends an answer the relays already have.
 *
 * The same file also holds Direction 2's assigned MCP tool names (it is the registry's
 * `NameStore`), the registry's schema versions, the tool pins, the revocations the endpoint
 * accepted, the sealed OAuth grants of upstream sources, the relay outbox and the running
 * adapter's status record: this class is the file's one writer, nothing else opens it for writing
 * (its writer thread's connection is its own; `readStatusRecord` of state-status.ts only reads).
 * @module
 */
import type { Revocation, XpEvent } from '@xprotocol/crypto';
import { getExpiration } from '@xprotocol/crypto';
import type { NameStore } from '@xprotocol/registry';
import type { Outbox } from '@xprotocol/relay-client';
import Database from 'libsql';
import { BridgeError } from '../errors.js';
import type { DescriptionFinding } from '../policy/description-lint.js';
import type { ToolPin, ToolPinStore } from '../policy/tool-pins.js';
import { _PostgresTables } from './postgres-tables.js';
import {
  _EXPIRE_CALLS,
  _FIND_CALL,
  _RECORD_CALL,
  _RECORDED_CALLS_SCHEMA,
  _recordedCallOf,
  _recordParams,
  type RecordedCall,
} from './recorded-calls.js';
import { _ReplayMemory, type ReplayMemoryOptions } from './replay-memory.js';
import type { SharedJournal } from './shared-journal.js';
import { _OUTBOX_ADD, _StateOutbox } from './state-outbox.js';
import { _STATUS_SAVE, _STATUS_SCHEMA, _statusParams, type StatusRecord } from './state-status.js';
import { _SqliteTables, type _StateTables } from './state-tables.js';
import { type _EntryResult, _StateWriter, type _WriteEntry } from './state-writer.js';

/** Where an inbound call is. */
export type InboundStatus = 'started' | 'answered' | 'done';

/** A call found unfinished at startup. */
export interface UnfinishedCall {
  id: string;
  status: 'started' | 'answered';
  /** The request, for `started` rows. */
  request: XpEvent | undefined;
  /** The stored answer, for `answered` rows. */
  answer: XpEvent | undefined;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS inbound_calls (
  id TEXT PRIMARY KEY,
  sender TEXT NOT NULL,
  kind TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  request_json TEXT,
  answer_json TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS mcp_tool_names (
  source TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (source, kind)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS upstream_grants (
  source TEXT PRIMARY KEY,
  sealed TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS schema_versions (
  kind TEXT PRIMARY KEY,
  version TEXT NOT NULL,
  contract_json TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tool_pins (
  source TEXT NOT NULL,
  tool TEXT NOT NULL,
  hash TEXT,
  definition_json TEXT,
  pinned_at INTEGER,
  pending_hash TEXT,
  pending_json TEXT,
  pending_findings_json TEXT,
  pending_since INTEGER,
  PRIMARY KEY (source, tool)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS revocations (
  id TEXT PRIMARY KEY,
  json TEXT NOT NULL,
  received_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS relay_outbox (
  id TEXT PRIMARY KEY,
  json TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  added_seq INTEGER NOT NULL
) WITHOUT ROWID;
-- Every add reads max(added_seq): without this index, one scan per add (quadratic in a backlog).
CREATE INDEX IF NOT EXISTS relay_outbox_seq ON relay_outbox (added_seq);
`;

const RECORD_STARTED = `INSERT OR IGNORE INTO inbound_calls (id, sender, kind, received_at, created_at, status, request_json)
  VALUES (?, ?, ?, ?, ?, 'started', ?)`;
/** An answer after `started`, or directly (a refusal): `status` is 'answered' or 'done'. */
const RECORD_ANSWER = `INSERT INTO inbound_calls (id, sender, kind, received_at, created_at, status, answer_json)
  VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET status = excluded.status, request_json = NULL, answer_json = excluded.answer_json
  WHERE inbound_calls.status = 'started'`;
const MARK_DONE = `UPDATE inbound_calls SET status = 'done', request_json = NULL, answer_json = NULL WHERE id = ?`;

/** Seconds an outbox entry of an answer without an `expiration` lives (the relay pool's default). */
const DEFAULT_OUTBOX_SECONDS = 3600;

/**
 * The adapter's durable state. The inbound-call journal and the outbox are written by group
 * commit (their methods resolve once committed); the rest is written synchronously, committed
 * before the method returns.
 */
export class StateDatabase implements NameStore, ToolPinStore {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #writer: _StateWriter;
  readonly #replay: _ReplayMemory;
  readonly #tables: _StateTables;
  #outbox: _StateOutbox | undefined;
  #shared: SharedJournal | undefined;
  readonly #statements = new Map<string, Database.Statement<unknown[]>>();
  #closed = false;
  #closing: Promise<void> | undefined;

  /**
   * Opens (or creates) the database at `path` (`:memory:` for tests that need no durability), or,
   * for a `postgres://` URL, see {@link StateDatabase.openPostgres}.
   */
  constructor(path: string, postgres?: { namespace: string }) {
    if (postgres) {
      // The tables are in Postgres; this connection keeps only what is this process's own (the
      // status record), in memory. Its dedupe memory starts with no floor: the journal of the
      // replicas (shared-journal.ts) is the one that remembers, and has a floor of its own.
      const tables = new _PostgresTables(path, postgres.namespace);
      this.#tables = tables;
      this.path = tables.shown;
      try {
        this.#db = new Database(':memory:');
        this.#db.exec(SCHEMA);
        this.#db.exec(_STATUS_SCHEMA);
        _ReplayMemory._prepare(this.#db, false, false);
        this.#writer = new _StateWriter(':memory:', this.#db);
        this.#replay = new _ReplayMemory(this.#db, (entry) => this.#writer.write(entry));
      } catch (error) {
        this.#tables.close();
        throw error;
      }
      return;
    }
    this.path = path;
    try {
      this.#db = new Database(path);
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = FULL');
      this.#db.pragma('busy_timeout = 5000');
      const existed =
        this.#db
          .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'inbound_calls'`)
          .get() !== undefined;
      this.#db.exec(SCHEMA);
      this.#db.exec(_STATUS_SCHEMA);
      this.#db.exec(_RECORDED_CALLS_SCHEMA);
      _ReplayMemory._prepare(this.#db, existed, path === ':memory:');
      this.#writer = new _StateWriter(path, this.#db);
      this.#replay = new _ReplayMemory(this.#db, (entry) => this.#writer.write(entry));
      this.#tables = new _SqliteTables(this.#db);
    } catch (error) {
      throw new BridgeError(
        'STATE_DATABASE',
        `cannot open the state database ${path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  /**
   * The state database of `namespace` (the adapter's key, or its state stem) in the Postgres
   * database at `url`: tool names, schema versions, pins and approvals, grants and revocations are
   * there, shared by every process that opens the same namespace (postgres-tables.ts). The call
   * journal and the outbox are there too once a journal of the replicas is handed over
   * ({@link StateDatabase.share}); until then they are in memory only.
   */
  static openPostgres(url: string, namespace: string): StateDatabase {
    if (!isPostgresUrl(url)) {
      throw new BridgeError(
        'STATE_DATABASE',
        'a Postgres state database must be a postgres://user:password@host:port/database URL',
      );
    }
    return new StateDatabase(url, { namespace });
  }

  /** True when the call was acted on before (also by an earlier run): a duplicate. */
  isKnown(id: string): boolean {
    return this.status(id) !== undefined;
  }

  /**
   * Hands the call journal, the dedupe memory and the outbox to a journal shared by the replicas
   * of this key (shared-journal.ts); this file keeps the rest. Before the endpoint or the relay
   * pool uses this database.
   */
  share(journal: SharedJournal): void {
    this.#shared = journal;
  }

  /** The shared journal, when replicas share one (see {@link StateDatabase.share}). */
  get shared(): SharedJournal | undefined {
    return this.#shared;
  }

  /**
   * Takes the request for this process before the pipeline acts on it; false: a duplicate. With a
   * shared journal this is the replicas' atomic claim; alone, it is {@link StateDatabase.isKnown}.
   */
  async claim(request: XpEvent): Promise<boolean> {
    if (this.#shared) return this.#shared.claim(request);
    return !this.isKnown(request.id);
  }

  /** A claimed request ended without an answer (dropped or ignored): kept for dedupe only. */
  async settle(id: string): Promise<void> {
    await this.#shared?.settled(id);
  }

  /**
   * Records that the upstream call is about to start; resolves once that is durable. From then on
   * the call is never re-run.
   */
  async recordStarted(request: XpEvent, nowSeconds: number): Promise<void> {
    if (this.#shared) return this.#shared.started(request.id);
    await this.#write('started', request.id, {
      statements: [
        {
          sql: RECORD_STARTED,
          params: [
            request.id,
            request.pubkey,
            request.kind,
            nowSeconds,
            request.created_at,
            JSON.stringify(request),
          ],
          mustChange: true,
        },
      ],
      sync: true,
    });
    this.#replay.remembered(nowSeconds, 1);
  }

  /**
   * Stores the signed answer (after `started`, or directly for a refusal); resolves once it is
   * durable. When this database's outbox is in use ({@link StateDatabase.outbox}), the answer goes
   * into that outbox in the same transaction and the call is `done` at once: resolves
   * `{ inOutbox: true }`, and handing the answer to the relay pool then adds nothing. Otherwise
   * the call is `answered`: hand the answer to the pool, then {@link StateDatabase.markDone}.
   */
  async recordAnswer(request: XpEvent, answer: XpEvent, nowSeconds: number): Promise<{ inOutbox: boolean }> {
    const expiresAt = getExpiration(answer) ?? nowSeconds + DEFAULT_OUTBOX_SECONDS;
    if (this.#shared) {
      await this.#shared.answered(request.id, answer, expiresAt);
      return { inOutbox: true };
    }
    const outbox = this.#outbox;
    const answerJson = JSON.stringify(answer);
    // A refusal is a new row; the answer of a started call is not.
    const added = this.isKnown(request.id) ? 0 : 1;
    const record = {
      sql: RECORD_ANSWER,
      params: [
        request.id,
        request.pubkey,
        request.kind,
        nowSeconds,
        request.created_at,
        outbox ? 'done' : 'answered',
        outbox ? null : answerJson,
      ],
      mustChange: true,
    };
    await this.#write('answered', request.id, {
      statements: outbox
        ? [record, { sql: _OUTBOX_ADD, params: [answer.id, answerJson, expiresAt] }]
        : [record],
      sync: true,
    });
    outbox?._present(answer.id);
    this.#replay.remembered(nowSeconds, added);
    return { inOutbox: outbox !== undefined };
  }

  /** The answer is durably in the outbox: forget it, keep the id for dedupe. */
  async markDone(id: string): Promise<void> {
    // Not fsynced: losing this to a power cut only re-sends an answer the relays already have.
    await this.#write('done', id, {
      statements: [{ sql: MARK_DONE, params: [id], mustChange: true }],
      sync: false,
    });
  }

  /** The status of an inbound call, if known. */
  status(id: string): InboundStatus | undefined {
    const row = this.#prepared('SELECT status FROM inbound_calls WHERE id = ?').get(id) as
      | { status: InboundStatus }
      | undefined;
    return row?.status;
  }

  /** Calls a crash left unfinished, oldest first. */
  unfinished(): UnfinishedCall[] {
    this.#assertOpen();
    const rows = this.#prepared(
      `SELECT id, status, request_json, answer_json FROM inbound_calls
         WHERE status IN ('started', 'answered') ORDER BY received_at, id`,
    ).all() as {
      id: string;
      status: UnfinishedCall['status'];
      request_json: string | null;
      answer_json: string | null;
    }[];
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      request: row.request_json ? (JSON.parse(row.request_json) as XpEvent) : undefined,
      answer: row.answer_json ? (JSON.parse(row.answer_json) as XpEvent) : undefined,
    }));
  }

  /**
   * The dedupe memory's floor (unix seconds): a request created before it is refused as stale,
   * since the memory may have forgotten its id (docs/protocol.md §4).
   */
  get replayFloor(): number {
    return this.#shared ? Math.max(this.#shared.floor, this.#replay.floor) : this.#replay.floor;
  }

  /**
   * Starts the dedupe memory on the endpoint's clock (once, by the endpoint that reads this
   * database): the floor of a `:memory:` database becomes now (it remembers no earlier run), and
   * from then on ids are forgotten when they leave the window or pass the capacity — each only
   * after the floor went above it.
   */
  openReplayMemory(options: ReplayMemoryOptions): void {
    this.#assertOpen();
    this.#shared?.openReplayMemory(options.windowSeconds);
    try {
      this.#replay.open(options);
    } catch (error) {
      throw new BridgeError('STATE_DATABASE', `state database write failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** The MCP tool names assigned for a face source, by kind (the registry's `NameStore.load`). */
  load(source: string): Map<string, string> {
    this.#assertOpen();
    const rows = this.#tables.all('SELECT kind, name FROM mcp_tool_names WHERE source = ?', [source]) as {
      kind: string;
      name: string;
    }[];
    return new Map(rows.map((row) => [row.kind, row.name]));
  }

  /** Persists a tool name so a refresh never renames the tool (the registry's `NameStore.save`). */
  save(source: string, kind: string, name: string): void {
    this.#run(
      `INSERT INTO mcp_tool_names (source, kind, name) VALUES (?, ?, ?)
       ON CONFLICT (source, kind) DO UPDATE SET name = excluded.name`,
      source,
      kind,
      name,
    );
  }

  /** The sealed OAuth grant of an upstream source (upstream-auth/sealed-grant-store.ts seals it). */
  upstreamGrant(source: string): string | undefined {
    this.#assertOpen();
    const row = this.#tables.all('SELECT sealed FROM upstream_grants WHERE source = ?', [source])[0] as
      | { sealed: string }
      | undefined;
    return row?.sealed;
  }

  /** Replaces the sealed OAuth grant of `source`; committed before this returns. */
  saveUpstreamGrant(source: string, sealed: string): void {
    this.#run(
      `INSERT INTO upstream_grants (source, sealed) VALUES (?, ?)
       ON CONFLICT (source) DO UPDATE SET sealed = excluded.sealed`,
      source,
      sealed,
    );
  }

  /** The stored version and contract of `kind`. */
  schemaVersion(kind: string): { version: string; contractJson: string } | undefined {
    this.#assertOpen();
    const row = this.#tables.all('SELECT version, contract_json FROM schema_versions WHERE kind = ?', [
      kind,
    ])[0] as { version: string; contract_json: string } | undefined;
    return row && { version: row.version, contractJson: row.contract_json };
  }

  /** Stores the version and contract of `kind`. */
  saveSchemaVersion(kind: string, version: string, contractJson: string): void {
    this.#run(
      `INSERT INTO schema_versions (kind, version, contract_json) VALUES (?, ?, ?)
       ON CONFLICT (kind) DO UPDATE SET version = excluded.version, contract_json = excluded.contract_json`,
      kind,
      version,
      contractJson,
    );
  }

  /**
   * Keeps a revocation the endpoint verified and accepted (docs/protocol.md §11.2): relays hold one
   * only for so long, the endpoint for good. Committed before this returns; a second copy of the
   * same revocation changes nothing.
   */
  saveRevocation(revocation: Revocation, nowMs: number): void {
    this.#run(
      'INSERT INTO revocations (id, json, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      revocation.id,
      JSON.stringify(revocation),
      nowMs,
    );
  }

  /**
   * Keeps `call` (recorded-calls.ts), replacing an older record of the same principal and key, and
   * forgets the records older than `expireBeforeMs`. Committed before it returns.
   */
  recordCall(call: RecordedCall, expireBeforeMs: number): void {
    this.#run(_EXPIRE_CALLS, expireBeforeMs);
    this.#run(_RECORD_CALL, ..._recordParams(call));
  }

  /** The call recorded for `principal` (null: none) under `key` at or after `sinceMs`; undefined when none. */
  recordedCall(principal: string | null, key: string, sinceMs: number): RecordedCall | undefined {
    this.#assertOpen();
    const row = this.#prepared(_FIND_CALL).get(principal ?? '', key, sinceMs) as
      | Record<string, unknown>
      | undefined;
    return row && _recordedCallOf(row);
  }

  /**
   * Every revocation kept by {@link StateDatabase.saveRevocation}, oldest first, as stored: the
   * reader verifies each again before it counts (a file can be edited).
   */
  revocations(): unknown[] {
    this.#assertOpen();
    const rows = this.#tables.all('SELECT json FROM revocations ORDER BY received_at, id', []) as {
      json: string;
    }[];
    return rows.map((row) => JSON.parse(row.json) as unknown);
  }

  /** Every tool pin of `source`, by tool name (docs/security.md, "Tool pinning"). */
  toolPins(source: string): Map<string, ToolPin> {
    this.#assertOpen();
    const rows = this.#tables.all(
      `SELECT tool, hash, definition_json, pending_hash, pending_json, pending_findings_json, pending_since
         FROM tool_pins WHERE source = ? ORDER BY tool`,
      [source],
    ) as {
      tool: string;
      hash: string | null;
      definition_json: string | null;
      pending_hash: string | null;
      pending_json: string | null;
      pending_findings_json: string | null;
      pending_since: number | string | null;
    }[];
    return new Map(
      rows.map((row) => [
        row.tool,
        {
          source,
          tool: row.tool,
          hash: row.hash ?? undefined,
          definition: row.definition_json === null ? undefined : JSON.parse(row.definition_json),
          pending:
            row.pending_hash === null || row.pending_json === null
              ? undefined
              : {
                  hash: row.pending_hash,
                  definition: JSON.parse(row.pending_json),
                  findings: JSON.parse(row.pending_findings_json ?? '[]') as DescriptionFinding[],
                  // Postgres returns a BIGINT as a string.
                  since: Number(row.pending_since ?? 0),
                },
        },
      ]),
    );
  }

  /** Pins a tool definition as approved; a change that waited is cleared. */
  pinTool(source: string, tool: string, hash: string, definition: Record<string, unknown>): void {
    this.#run(
      `INSERT INTO tool_pins (source, tool, hash, definition_json, pinned_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (source, tool) DO UPDATE SET hash = excluded.hash, definition_json = excluded.definition_json,
         pinned_at = excluded.pinned_at, pending_hash = NULL, pending_json = NULL,
         pending_findings_json = NULL, pending_since = NULL`,
      source,
      tool,
      hash,
      JSON.stringify(definition),
      Date.now(),
    );
  }

  /** Holds a changed (or flagged new) definition for approval; the pinned one stays. */
  holdTool(
    source: string,
    tool: string,
    hash: string,
    definition: Record<string, unknown>,
    findings: readonly DescriptionFinding[],
    nowMs: number,
  ): void {
    this.#run(
      `INSERT INTO tool_pins (source, tool, pending_hash, pending_json, pending_findings_json, pending_since)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (source, tool) DO UPDATE SET pending_hash = excluded.pending_hash,
         pending_json = excluded.pending_json, pending_findings_json = excluded.pending_findings_json,
         pending_since = excluded.pending_since`,
      source,
      tool,
      hash,
      JSON.stringify(definition),
      JSON.stringify(findings),
      nowMs,
    );
  }

  /**
   * Approves exactly the definitions a reviewer was shown: each `{ tool, hash }` pins the pending
   * definition of `tool` only while its hash is still `hash`. All of them or none, in one
   * transaction: when one no longer waits with that hash (the server changed it again since it was
   * shown), nothing is approved and that tool is returned with the hash that waits now (`undefined`
   * when nothing waits).
   */
  approveTools(
    source: string,
    reviewed: readonly { tool: string; hash: string }[],
  ): { ok: true } | { ok: false; tool: string; waiting: string | undefined } {
    this.#assertOpen();
    const pin = `UPDATE tool_pins SET hash = pending_hash, definition_json = pending_json, pinned_at = ?,
         pending_hash = NULL, pending_json = NULL, pending_findings_json = NULL, pending_since = NULL
       WHERE source = ? AND tool = ? AND pending_hash = ? AND pending_json IS NOT NULL`;
    let outcome: { ok: true } | { ok: false; failedAt: number };
    try {
      outcome = this.#tables.transaction(
        reviewed.map(({ tool, hash }) => ({
          sql: pin,
          params: [Date.now(), source, tool, hash],
          mustChange: true,
        })),
      );
    } catch (error) {
      throw new BridgeError('STATE_DATABASE', `state database write failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (outcome.ok) return outcome;
    const tool = reviewed[outcome.failedAt]!.tool;
    return { ok: false, tool, waiting: this.toolPins(source).get(tool)?.pending?.hash };
  }

  /**
   * Replaces the adapter's status record (state-status.ts); resolves once committed. Without an
   * fsync: losing the last record to a power cut loses nothing, the adapter writes it again every
   * few seconds. Through the writer thread once it runs, so the event loop never waits behind a
   * batch's fsync; until then on this connection, so an adapter that writes nothing else there (a
   * pure MCP gateway) starts no thread for its status.
   */
  async saveStatus(record: StatusRecord): Promise<void> {
    this.#assertOpen();
    const statement = { sql: _STATUS_SAVE, params: _statusParams(record) };
    let result: _EntryResult;
    try {
      if (!this.#writer.running) {
        this.#db.pragma('synchronous = NORMAL');
        try {
          this.#prepared(statement.sql).run(...statement.params);
        } finally {
          this.#db.pragma('synchronous = FULL');
        }
        return;
      }
      result = await this.#writer.write({ statements: [statement], sync: false });
    } catch (error) {
      throw new BridgeError('STATE_DATABASE', `status write failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!result.ok && 'error' in result)
      throw new BridgeError('STATE_DATABASE', `status write failed: ${result.error}`);
  }

  /** The journal mode and synchronous level in force (synchronous 2 is FULL). */
  durability(): { journalMode: string; synchronous: number } {
    this.#assertOpen();
    const journal = this.#db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
    const sync = this.#db.prepare('PRAGMA synchronous').get() as { synchronous: number };
    return { journalMode: journal.journal_mode, synchronous: sync.synchronous };
  }

  /**
   * The relay pool's durable outbox, kept in this database (its own table) and written by the same
   * group commit as the call journal, so an answer and its outbox entry share one transaction.
   * Closing the outbox leaves the database open; {@link StateDatabase.close} closes both.
   */
  outbox(): Outbox {
    if (this.#shared) return this.#shared.outbox;
    this.#outbox ??= new _StateOutbox(this.#db, (entry) => this.#writer.write(entry));
    return this.#outbox;
  }

  /** Commits what is queued, stops the writer and closes the file. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      try {
        await this.#writer.close();
        await this.#shared?.close();
      } finally {
        this.#tables.close();
        this.#db.close();
      }
    })();
    return this.#closing;
  }

  /** Queues an entry of the call journal and fails with what went wrong when it did not commit. */
  async #write(to: InboundStatus, id: string, entry: _WriteEntry): Promise<void> {
    this.#assertOpen();
    let result: _EntryResult;
    try {
      result = await this.#writer.write(entry);
    } catch (error) {
      throw new BridgeError('STATE_DATABASE', `state database write failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (result.ok) return;
    if ('unchanged' in result) this.#badTransition(id, to);
    throw new BridgeError('STATE_DATABASE', `state database write failed: ${result.error}`);
  }

  #badTransition(id: string, to: InboundStatus): never {
    throw new BridgeError(
      'STATE_DATABASE',
      `inbound call ${id}: cannot move to "${to}" from "${this.status(id) ?? 'unknown'}"`,
    );
  }

  /** A prepared statement of the adapter's connection, made once per SQL text. */
  #prepared(sql: string): Database.Statement<unknown[]> {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare<unknown[]>(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run(sql: string, ...params: unknown[]): { changes: number } {
    this.#assertOpen();
    try {
      return this.#tables.run(sql, params);
    } catch (error) {
      throw new BridgeError('STATE_DATABASE', `state database write failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new BridgeError('CLOSED', 'the state database is closed');
  }
}

/** True for a `postgres://` (or `postgresql://`) URL: a state database in Postgres. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}
