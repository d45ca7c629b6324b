// The SQLite store's write path alone, without the relay: batches of 1 KiB events inserted and
// committed (WAL, synchronous=FULL) into the first layout (hex text, WITHOUT ROWID keyed by the id)
// and into the current one (a rowid table, 32-byte ids and keys; sqlite-schema.ts), with SQLite's
// default WAL checkpoint of 1000 pages (the store's) and with 4000. Prints events/s, the mean
// insert and COMMIT time per batch, the bytes written per batch (checkpoints included) and the
// file size.
//
//   node packages/relay/bench/sqlite-layout.mjs [events=30000] [batch=128]
//
// Figures of one run are in docs/performance.md (item 17).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const Database = createRequire(import.meta.url)('libsql');
const EVENTS = Number(process.argv[2] ?? 30_000);
const BATCH = Number(process.argv[3] ?? 128);

const INDEXES = `
CREATE INDEX events_created ON events (created_at DESC, id);
CREATE INDEX events_kind ON events (kind, created_at DESC);
CREATE INDEX events_pubkey ON events (pubkey, created_at DESC);
CREATE INDEX events_expires ON events (expires_at);`;
const LAYOUTS = {
  first: `CREATE TABLE events (id TEXT PRIMARY KEY, pubkey TEXT NOT NULL, kind TEXT NOT NULL,
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, json TEXT NOT NULL) WITHOUT ROWID;${INDEXES}`,
  current: `CREATE TABLE events (seq INTEGER PRIMARY KEY, id BLOB NOT NULL, pubkey BLOB NOT NULL,
    kind TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, json TEXT NOT NULL);
    CREATE UNIQUE INDEX events_id ON events (id);${INDEXES}`,
};

/** Bytes this process has written so far (Linux). */
const written = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))[1]);

function run(layout, checkpointPages) {
  const dir = mkdtempSync(join(tmpdir(), 'xp-relay-layout-'));
  const path = join(dir, 'events.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
  db.exec(LAYOUTS[layout]);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO events (id, pubkey, kind, created_at, expires_at, json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const key = `ed25519:${randomBytes(32).toString('hex')}`;
  const now = Math.floor(Date.now() / 1000);
  const content = 'x'.repeat(1024);
  let inserting = 0;
  let committing = 0;
  const bytesBefore = written();
  const started = performance.now();
  for (let at = 0; at < EVENTS; at += BATCH) {
    const begin = performance.now();
    db.exec('BEGIN IMMEDIATE');
    for (let n = at; n < Math.min(at + BATCH, EVENTS); n++) {
      const id = randomBytes(32).toString('hex');
      const json = JSON.stringify({
        id,
        pubkey: key,
        created_at: now,
        kind: 'bench.ingest',
        tags: [['n', String(n)]],
        content,
        sig: 'b'.repeat(128),
      });
      const row =
        layout === 'first'
          ? [id, key, 'bench.ingest', now, now + 3600, json]
          : [Buffer.from(id, 'hex'), Buffer.from(key.slice(8), 'hex'), 'bench.ingest', now, now + 3600, json];
      insert.run(row);
    }
    const inserted = performance.now();
    db.exec('COMMIT');
    inserting += inserted - begin;
    committing += performance.now() - inserted;
  }
  const seconds = (performance.now() - started) / 1000;
  const batches = Math.ceil(EVENTS / BATCH);
  const bytes = written() - bytesBefore;
  db.close();
  const size = statSync(path).size;
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `${layout.padEnd(7)} checkpoint ${String(checkpointPages).padStart(4)} pages: ${Math.round(EVENTS / seconds)} events/s; per batch of ${BATCH}: inserts ${(inserting / batches).toFixed(2)} ms, COMMIT ${(committing / batches).toFixed(2)} ms, ${Math.round(bytes / batches / 1024)} KiB written; file ${(size / 1048576).toFixed(1)} MiB`,
  );
}

for (const [layout, pages] of [
  ['first', 1000],
  ['current', 1000],
  ['current', 4000],
])
  run(layout, pages);
