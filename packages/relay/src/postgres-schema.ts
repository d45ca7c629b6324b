/**
 * The Postgres store's tables and the advisory locks its processes coordinate with
 * (docs/architecture.md, "The relay on Postgres").
 *
 * One row per event, appended with a `bigserial` sequence number: every relay process on the
 * database reads the rows past the last number it saw to learn what the others stored. The id and
 * the key are their 32 bytes (`bytea` compares bytewise, so ordering ties by id matches the
 * lowercase hex order of the other stores whatever the database's collation); the `p` and `e` tags
 * are `name:value` strings in one array column under a GIN index.
 * @module
 */
import type { PoolClient } from 'pg';
import { RelayError } from './errors.js';

/** The layout version this relay writes (a row of `xprotocol_relay_schema`). */
export const _POSTGRES_SCHEMA_VERSION = 1;

/** The events table (its name says whose it is, in a database that may hold other tables). */
export const _EVENTS_TABLE = 'xprotocol_relay_events';

/** The channel whose notifications carry the highest sequence number of each commit. */
export const _EVENTS_CHANNEL = 'xprotocol_relay_events';

/**
 * Advisory lock keys (two 32-bit halves: this relay's tag, then the purpose). The write lock is
 * held by each insert transaction from before it draws sequence numbers until it commits, so the
 * numbers become visible in order and a reader past number N never finds a smaller one later.
 */
export const _LOCKS = {
  tag: 0x78_70_72_6c, // "xprl"
  schema: 1,
  write: 2,
  sweep: 3,
} as const;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS xprotocol_relay_schema (version integer NOT NULL);
CREATE TABLE IF NOT EXISTS ${_EVENTS_TABLE} (
  seq bigserial PRIMARY KEY,
  id bytea NOT NULL UNIQUE,
  pubkey bytea NOT NULL,
  kind text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  tags text[] NOT NULL,
  json text NOT NULL
);
CREATE INDEX IF NOT EXISTS ${_EVENTS_TABLE}_created ON ${_EVENTS_TABLE} (created_at DESC, id);
CREATE INDEX IF NOT EXISTS ${_EVENTS_TABLE}_kind ON ${_EVENTS_TABLE} (kind, created_at DESC);
CREATE INDEX IF NOT EXISTS ${_EVENTS_TABLE}_pubkey ON ${_EVENTS_TABLE} (pubkey, created_at DESC);
CREATE INDEX IF NOT EXISTS ${_EVENTS_TABLE}_expires ON ${_EVENTS_TABLE} (expires_at);
CREATE INDEX IF NOT EXISTS ${_EVENTS_TABLE}_tags ON ${_EVENTS_TABLE} USING gin (tags);
`;

/**
 * Creates the tables in a database that has none, or checks the version of those it finds; two
 * processes starting at once take turns (an advisory lock), so the layout is created once. Throws
 * `STORE_FAILED` when the database holds another version of the layout.
 */
export async function _preparePostgresSchema(client: PoolClient, shown: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [_LOCKS.tag, _LOCKS.schema]);
    await client.query(SCHEMA);
    const versions = await client.query<{ version: number }>('SELECT version FROM xprotocol_relay_schema');
    if (versions.rows.length === 0) {
      await client.query('INSERT INTO xprotocol_relay_schema (version) VALUES ($1)', [
        _POSTGRES_SCHEMA_VERSION,
      ]);
    } else if (versions.rows.some((row) => row.version !== _POSTGRES_SCHEMA_VERSION)) {
      throw new RelayError(
        'STORE_FAILED',
        `the database ${shown} holds relay tables of layout version ${versions.rows.map((row) => row.version).join(', ')}; this relay reads version ${_POSTGRES_SCHEMA_VERSION}. Use the relay that wrote them, or another database.`,
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
