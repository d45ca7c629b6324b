// A database written by the first layout of the SQLite store (hex ids and keys as text, a
// WITHOUT ROWID table keyed by the id) is migrated in place when the relay opens it, and the
// events keep answering the same filters; anything the relay cannot read is refused with a
// message that says what it found (README, "The database file").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RelayEvent, SqliteEventStore } from '../src/index.js';
import { SCHEMA_VERSION } from '../src/sqlite-schema.js';

// The first layout, as the store created it before version 2 (user_version 0).
const FIRST_LAYOUT = `
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY,
  pubkey TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  json TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS events_created ON events (created_at DESC, id);
CREATE INDEX IF NOT EXISTS events_kind ON events (kind, created_at DESC);
CREATE INDEX IF NOT EXISTS events_pubkey ON events (pubkey, created_at DESC);
CREATE INDEX IF NOT EXISTS events_expires ON events (expires_at);
CREATE TABLE IF NOT EXISTS tags (
  event_id TEXT NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (name, value, event_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tags_event ON tags (event_id);
`;

const alice = `ed25519:${'a1'.repeat(32)}`;
const bob = `ed25519:${'b2'.repeat(32)}`;
const request = 'e3'.repeat(32);

function fakeEvent(n: number, pubkey: string, tags: string[][] = []): RelayEvent {
  return {
    id: n.toString(16).padStart(64, '0'),
    pubkey,
    created_at: 1_000 + (n % 3),
    kind: n % 2 === 0 ? 'com.test.even' : 'com.test.odd',
    tags,
    content: `event ${n}`,
    sig: 'c'.repeat(128),
  };
}

const events: RelayEvent[] = [
  fakeEvent(1, alice, [['e', request]]),
  fakeEvent(2, alice, [['p', bob]]),
  fakeEvent(3, bob, [
    ['p', alice],
    ['e', request],
  ]),
  fakeEvent(4, bob),
  fakeEvent(5, alice, [['n', '5']]),
];
/** Event 4 expired at 1500; the others are kept until 9000. */
const expiresAt = (event: RelayEvent) => (event.content === 'event 4' ? 1500 : 9000);

/** Writes `rows` as the first layout's store did: hex text, the p and e tags indexed. */
function writeFirstLayout(path: string, rows: RelayEvent[]): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(FIRST_LAYOUT);
  const insertEvent = db.prepare(
    'INSERT INTO events (id, pubkey, kind, created_at, expires_at, json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertTag = db.prepare('INSERT INTO tags (event_id, name, value) VALUES (?, ?, ?)');
  for (const event of rows) {
    insertEvent.run([
      event.id,
      event.pubkey,
      event.kind,
      event.created_at,
      expiresAt(event),
      JSON.stringify(event),
    ]);
    for (const [name, value] of event.tags) {
      if (name === 'p' || name === 'e') insertTag.run([event.id, name, value!]);
    }
  }
  db.close();
}

function contents(found: RelayEvent[]): string[] {
  return found.map((event) => event.content);
}

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-migrate-'));
  path = join(dir, 'events.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite store: the first layout', () => {
  it('is migrated on open, and its events answer the same filters', async () => {
    writeFirstLayout(path, events);
    const store = new SqliteEventStore({ path });
    expect(await store.count()).toBe(5);
    // Newest first, ties by id; the expired event hidden.
    expect(contents(await store.query({}, 1600))).toEqual(['event 2', 'event 5', 'event 1', 'event 3']);
    expect(contents(await store.query({ ids: [events[2]!.id, 'f'.repeat(64)] }, 1600))).toEqual(['event 3']);
    expect(contents(await store.query({ authors: [bob] }, 1000))).toEqual(['event 4', 'event 3']);
    expect(contents(await store.query({ '#e': [request] }, 1600))).toEqual(['event 1', 'event 3']);
    expect(contents(await store.query({ '#p': [alice], authors: [bob] }, 1600))).toEqual(['event 3']);
    expect(contents(await store.query({ kinds: ['com.test.odd'], since: 1001 }, 1600))).toEqual([
      'event 5',
      'event 1',
    ]);
    // Dedupe still knows the migrated ids; new events go on being stored.
    expect(await store.put(events[0]!, 9000)).toBe('duplicate');
    expect(await store.put(fakeEvent(6, bob, [['e', request]]), 9000)).toBe('stored');
    expect(contents(await store.query({ '#e': [request] }, 1600))).toEqual(['event 1', 'event 3', 'event 6']);
    // The sweep removes the expired event and its tags.
    expect(await store.expire(1600)).toBe(1);
    await store.close();

    const db = new Database(path);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
      SCHEMA_VERSION,
    );
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables.map((row) => (row as { name: string }).name)).toEqual(['events', 'tags']);
    expect(db.prepare('SELECT typeof(id) AS t, length(id) AS n FROM events LIMIT 1').get() as object).toEqual(
      expect.objectContaining({ t: 'blob', n: 32 }),
    );
    db.close();
  });

  it('is opened as it is once migrated', async () => {
    writeFirstLayout(path, events);
    await new SqliteEventStore({ path }).close();
    const again = new SqliteEventStore({ path });
    expect(await again.count()).toBe(5);
    expect(contents(await again.query({ authors: [alice] }, 1600))).toEqual([
      'event 2',
      'event 5',
      'event 1',
    ]);
    await again.close();
  });

  it('is left untouched when a row cannot be migrated, and the open is refused', () => {
    writeFirstLayout(path, [...events, { ...fakeEvent(7, alice), pubkey: 'x25519:not-a-signing-key' }]);
    expect(() => new SqliteEventStore({ path })).toThrow(
      /has the first layout and could not be migrated to version 2 \(nothing was changed\): .*NOT NULL/,
    );
    const db = new Database(path);
    expect((db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n).toBe(6);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(0);
    expect((db.prepare('SELECT typeof(id) AS t FROM events LIMIT 1').get() as { t: string }).t).toBe('text');
    db.close();
  });
});

describe('SQLite store: databases it cannot read', () => {
  it('refuses a newer layout version, naming both versions', () => {
    const db = new Database(path);
    db.exec('CREATE TABLE events (x); PRAGMA user_version = 9');
    db.close();
    expect(() => new SqliteEventStore({ path })).toThrow(
      `the event database ${path} has layout version 9; this relay reads version 2`,
    );
  });

  it('refuses a database with other tables, listing what it found', () => {
    const db = new Database(path);
    db.exec('CREATE TABLE notes (body TEXT)');
    db.close();
    expect(() => new SqliteEventStore({ path })).toThrow(
      /is not a relay database: .*found the tables notes$/,
    );
  });
});
