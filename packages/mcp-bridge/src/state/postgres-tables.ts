/**
 * The state tables (state-tables.ts) in Postgres, for adapter replicas of one key that share one
 * `state_database: postgres://…` (docs/deploy.md): tool names assigned once are the same on every
 * replica, a tool approved through one is approved for all, and so on.
 *
 * The stores these tables serve are synchronous (the registry reads names while it builds a
 * catalog; a pin is decided while a tool list is read), and Postgres answers asynchronously. A
 * worker thread therefore holds the connection, and the adapter's thread waits for its answer
 * (`Atomics.wait`): each read and write is done, and each write committed, before the method
 * returns, exactly as on SQLite. These statements are rare (a catalog change, an approval), never
 * one per call, so the wait costs the event loop nothing that matters.
 *
 * The tables of one key live in a schema of their own (`xp_state_<hash of the key>`), so the SQL
 * is the same as on SQLite and several keys may share one database. The URL is never shown with
 * its password.
 * @module
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { BridgeError } from '../errors.js';
import type { _StateTables, _TableStep } from './state-tables.js';

/** The tables, as state-database.ts has them on SQLite, with 64-bit integers for times in ms. */
const _SCHEMA = `
CREATE TABLE IF NOT EXISTS mcp_tool_names (
  source TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (source, kind));
CREATE TABLE IF NOT EXISTS upstream_grants (source TEXT PRIMARY KEY, sealed TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS schema_versions (
  kind TEXT PRIMARY KEY, version TEXT NOT NULL, contract_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tool_pins (
  source TEXT NOT NULL, tool TEXT NOT NULL, hash TEXT, definition_json TEXT, pinned_at BIGINT,
  pending_hash TEXT, pending_json TEXT, pending_findings_json TEXT, pending_since BIGINT,
  PRIMARY KEY (source, tool));
CREATE TABLE IF NOT EXISTS revocations (id TEXT PRIMARY KEY, json TEXT NOT NULL, received_at BIGINT NOT NULL);
`;

/** One advisory lock key for creating a schema: replicas starting together do not race. */
const _SCHEMA_LOCK = 7_336_104_202;

/** The worker: one connection, one request at a time; `flag` says which request was answered. */
const _WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pg);
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
let client;
const toPg = (sql) => { let n = 0; return sql.replace(/\\?/g, () => '$' + ++n); };
async function connected() {
  if (client) return client;
  const next = new pg.Client({ connectionString: workerData.url, application_name: 'xprotocol-adapter',
    connectionTimeoutMillis: workerData.connectTimeoutMs });
  next.on('error', () => { if (client === next) client = undefined; });
  await next.connect();
  await next.query('SET search_path TO ' + workerData.schema);
  client = next;
  return client;
}
async function handle(message) {
  if (message.op === 'close') { await client?.end().catch(() => {}); return {}; }
  const db = await connected();
  if (message.op === 'open') {
    await db.query('BEGIN');
    try {
      await db.query('SELECT pg_advisory_xact_lock($1)', [workerData.lock]);
      await db.query('CREATE SCHEMA IF NOT EXISTS ' + workerData.schema);
      await db.query(workerData.ddl);
      await db.query('COMMIT');
    } catch (error) { await db.query('ROLLBACK').catch(() => {}); throw error; }
    return {};
  }
  if (message.op === 'query') {
    const result = await db.query(toPg(message.sql), message.params);
    return { rows: result.rows, changes: result.rowCount ?? 0 };
  }
  await db.query('BEGIN');
  try {
    for (const [i, step] of message.steps.entries()) {
      const result = await db.query(toPg(step.sql), step.params);
      if (step.mustChange && (result.rowCount ?? 0) === 0) {
        await db.query('ROLLBACK');
        return { failedAt: i };
      }
    }
    await db.query('COMMIT');
    return {};
  } catch (error) { await db.query('ROLLBACK').catch(() => {}); throw error; }
}
port.on('message', (message) => {
  handle(message).then(
    (result) => port.postMessage({ seq: message.seq, ...result }),
    (error) => {
      if (!/^\\d/.test(error.code ?? '')) client = undefined;
      port.postMessage({ seq: message.seq, error: String(error.message) });
    },
  ).finally(() => { Atomics.store(flag, 0, message.seq); Atomics.notify(flag, 0); });
});
`;

/** What the worker answers. */
interface _Reply {
  seq: number;
  error?: string;
  rows?: Record<string, unknown>[];
  changes?: number;
  failedAt?: number;
}

/** The state tables of the key `namespace` in the Postgres database at `url` (see the module doc). */
export class _PostgresTables implements _StateTables {
  /** The database URL with its password replaced by `***`. */
  readonly shown: string;
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #flag: Int32Array;
  readonly #timeoutMs: number;
  #seq = 0;
  #closed = false;

  /**
   * Starts the worker, connects, and creates the key's schema and tables when missing. Throws
   * `STATE_DATABASE` (the URL redacted) when the database cannot be reached in `timeoutMs`.
   */
  constructor(url: string, namespace: string, options: { timeoutMs?: number } = {}) {
    this.shown = url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#]*@/i, '$1:***@');
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    const flag = new SharedArrayBuffer(4);
    this.#flag = new Int32Array(flag);
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const schema = `xp_state_${createHash('sha256').update(namespace).digest('hex').slice(0, 24)}`;
    this.#worker = new Worker(_WORKER_SOURCE, {
      eval: true,
      workerData: {
        pg: createRequire(import.meta.url).resolve('pg'),
        url,
        schema,
        ddl: _SCHEMA,
        lock: _SCHEMA_LOCK,
        flag,
        port: port2,
        connectTimeoutMs: this.#timeoutMs,
      },
      transferList: [port2],
    });
    // A store nobody closed must not keep the process alive.
    this.#worker.unref();
    this.#port.unref();
    try {
      this.#call({ op: 'open' });
    } catch (error) {
      this.close();
      throw error;
    }
  }

  all(sql: string, params: readonly unknown[]): Record<string, unknown>[] {
    return this.#call({ op: 'query', sql, params }).rows ?? [];
  }

  run(sql: string, params: readonly unknown[]): { changes: number } {
    return { changes: this.#call({ op: 'query', sql, params }).changes ?? 0 };
  }

  transaction(steps: readonly _TableStep[]): { ok: true } | { ok: false; failedAt: number } {
    const reply = this.#call({ op: 'transaction', steps });
    return reply.failedAt === undefined ? { ok: true } : { ok: false, failedAt: reply.failedAt };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#call({ op: 'close' }, 2000);
    } catch {
      // Closing anyway: the worker's connection ends with it.
    }
    void this.#worker.terminate();
    this.#port.close();
  }

  /** Sends one request to the worker and waits for its answer (see the module doc). */
  #call(message: Record<string, unknown>, timeoutMs = this.#timeoutMs): _Reply {
    if (this.#closed && message.op !== 'close')
      throw new BridgeError('CLOSED', 'the state database is closed');
    const seq = ++this.#seq;
    this.#port.postMessage({ ...message, seq });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answered = Atomics.load(this.#flag, 0);
      if (answered === seq) break;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new BridgeError(
          'STATE_DATABASE',
          `the state database ${this.shown} did not answer within ${timeoutMs} ms`,
        );
      }
      Atomics.wait(this.#flag, 0, answered, left);
    }
    for (;;) {
      const received = receiveMessageOnPort(this.#port);
      if (received === undefined)
        throw new BridgeError('STATE_DATABASE', 'the state database worker sent no answer');
      const reply = received.message as _Reply;
      // An answer to a request that timed out before: dropped.
      if (reply.seq !== seq) continue;
      if (reply.error !== undefined)
        throw new BridgeError('STATE_DATABASE', `state database ${this.shown}: ${_secretFree(reply.error)}`);
      return reply;
    }
  }
}

/** `message` with every URL in it shown without its password. */
function _secretFree(message: string): string {
  return message.replace(/([a-z][a-z0-9+.-]*:\/\/[^/?#:@\s]*):[^/?#\s]*@/gi, '$1:***@');
}
