/**
 * Opens the store that `--db` (or the `db` option) names: a SQLite file, or a Postgres database by
 * its URL. The Postgres store and its client library are loaded only for a URL, so a relay on
 * SQLite or memory starts without them.
 * @module
 */
import { _databaseTarget } from './postgres-url.js';
import { SqliteEventStore } from './sqlite-store.js';
import type { EventStore } from './store.js';

/**
 * The store at `db`: a `postgres://` or `postgresql://` URL opens a {@link PostgresEventStore}
 * (connected, its tables ready), anything else a {@link SqliteEventStore} on that file. `name` is
 * how the caller spells the setting, for messages. Throws `INVALID_OPTIONS` for a URL it cannot
 * read, `STORE_FAILED` for a database it cannot open (never showing a password).
 */
export async function _openEventStore(db: string, name: string): Promise<EventStore> {
  const target = _databaseTarget(db, name);
  if (target.kind === 'sqlite') return new SqliteEventStore({ path: target.path });
  const { PostgresEventStore } = await import('./postgres-store.js');
  return PostgresEventStore.open({ url: target.url });
}
