/**
 * The SQLite store's layout on disk, its version, and the migration from the first layout
 * (packages/relay/README.md, "The database file").
 *
 * Events live in a rowid table: rows are appended in insertion order, so a batch writes a few
 * neighbouring pages, and a 1 KiB event fits in its leaf page. The first layout keyed a
 * `WITHOUT ROWID` table by the hex id: every insert landed on a random page, and a row of more
 * than about 1,000 bytes spilled into an overflow page of its own — four times the bytes
 * written per commit and twice the file size (docs/performance.md, item 17).
 * The id and the key are stored as their 32 bytes, not as 64 and 72 characters of text; a tag row
 * points at its event's `seq`.
 * @module
 */
import type Database from 'libsql';
import { RelayError } from './errors.js';

/** `PRAGMA user_version` of the current layout. The first layout left it at 0. */
export const SCHEMA_VERSION = 2;

/** The current layout (the statements also run inside the migration). */
const SCHEMA = `
CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  id BLOB NOT NULL,
  pubkey BLOB NOT NULL,
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE UNIQUE INDEX events_id ON events (id);
CREATE INDEX events_created ON events (created_at DESC, id);
CREATE INDEX events_kind ON events (kind, created_at DESC);
CREATE INDEX events_pubkey ON events (pubkey, created_at DESC);
CREATE INDEX events_expires ON events (expires_at);
CREATE TABLE tags (
  event_seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (name, value, event_seq)
) WITHOUT ROWID;
CREATE INDEX tags_event ON tags (event_seq);
`;

/** The columns of the first layout's `events` table, in order (id and pubkey as hex text). */
const FIRST_LAYOUT_COLUMNS = 'id TEXT,pubkey TEXT,kind TEXT,created_at INTEGER,expires_at INTEGER,json TEXT';

/**
 * The first layout's rows copied into the current one, in one transaction. A row whose id is not
 * 64 hex digits or whose key is not `ed25519:` and 64 hex digits gets a NULL, which the NOT NULL
 * columns refuse: the transaction rolls back and the old tables stay as they were.
 */
const MIGRATE_FROM_FIRST_LAYOUT = `
DROP INDEX IF EXISTS events_created;
DROP INDEX IF EXISTS events_kind;
DROP INDEX IF EXISTS events_pubkey;
DROP INDEX IF EXISTS events_expires;
DROP INDEX IF EXISTS tags_event;
ALTER TABLE events RENAME TO events_first_layout;
ALTER TABLE tags RENAME TO tags_first_layout;
${SCHEMA}
INSERT INTO events (id, pubkey, kind, created_at, expires_at, json)
  SELECT
    CASE WHEN length(id) = 64 THEN unhex(id) END,
    CASE WHEN length(pubkey) = 72 AND substr(pubkey, 1, 8) = 'ed25519:' THEN unhex(substr(pubkey, 9)) END,
    kind, created_at, expires_at, json
  FROM events_first_layout ORDER BY created_at, id;
INSERT INTO tags (event_seq, name, value)
  SELECT events.seq, old.name, old.value
  FROM tags_first_layout AS old JOIN events ON events.id = unhex(old.event_id);
DROP TABLE tags_first_layout;
DROP TABLE events_first_layout;
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/** What {@link _prepareSchema} found and did. */
export type _SchemaOutcome = 'created' | 'current' | 'migrated';

/**
 * Brings the database at `path` (open on `db`) to the current layout: creates it in an empty
 * database, migrates a database of the first layout, and refuses anything else (a newer version,
 * an unknown table) with a `STORE_FAILED` error that says what it found. The layout is read and
 * changed in one immediate transaction, so two relays opening the same old file at once migrate it
 * once (the second finds version 2), and a failed migration leaves the file as it was.
 */
export function _prepareSchema(db: Database.Database, path: string): _SchemaOutcome {
  db.exec('BEGIN IMMEDIATE');
  try {
    const outcome = _bringToCurrent(db, path);
    db.exec('COMMIT');
    return outcome;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // The failed statement may already have ended the transaction.
    }
    throw error;
  }
}

/** The body of {@link _prepareSchema}, inside its transaction. */
function _bringToCurrent(db: Database.Database, path: string): _SchemaOutcome {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version === SCHEMA_VERSION) return 'current';
  if (version !== 0) {
    throw new RelayError(
      'STORE_FAILED',
      `the event database ${path} has layout version ${version}; this relay reads version ${SCHEMA_VERSION} and migrates the first layout (version 0). Use the relay that wrote it, or start with a new file.`,
    );
  }
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  if (tables.length === 0) {
    db.exec(`${SCHEMA}\nPRAGMA user_version = ${SCHEMA_VERSION};`);
    return 'created';
  }
  const columns = tables.includes('events')
    ? (db.prepare('PRAGMA table_info(events)').all() as { name: string; type: string }[])
        .map((column) => `${column.name} ${column.type}`)
        .join(',')
    : '';
  if (columns !== FIRST_LAYOUT_COLUMNS || !tables.includes('tags')) {
    throw new RelayError(
      'STORE_FAILED',
      `the event database ${path} is not a relay database: expected the tables events and tags (events with the columns ${FIRST_LAYOUT_COLUMNS}), found the tables ${tables.join(', ')}${columns ? ` (events with the columns ${columns})` : ''}`,
    );
  }
  try {
    db.exec(MIGRATE_FROM_FIRST_LAYOUT);
  } catch (error) {
    throw new RelayError(
      'STORE_FAILED',
      `the event database ${path} has the first layout and could not be migrated to version ${SCHEMA_VERSION} (nothing was changed): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return 'migrated';
}
