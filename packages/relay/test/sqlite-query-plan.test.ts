// The SQLite store's query plans: a filter that names events by id or by request (`#e`) starts
// from the id index or the tag index, never from the author or kind index (which would read
// every event of a busy key for each answer subscription). Checked with EXPLAIN QUERY PLAN on the
// store's own schema, without statistics (the relay never runs ANALYZE).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Filter } from '@xprotocol/wire';
import Database from 'libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { _eventQuery, SqliteEventStore } from '../src/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'xp-relay-plan-'));
const path = join(dir, 'events.db');
await new SqliteEventStore({ path }).close();
const db = new Database(path);
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = `ed25519:${'a'.repeat(64)}`;
const id = 'c'.repeat(64);

function plan(filter: Filter): string {
  const query = _eventQuery(filter, 1000)!;
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(query.params) as { detail: string }[];
  return rows.map((row) => row.detail).join('; ');
}

describe('SQLite store query plans', () => {
  it.each<[string, Filter]>([
    ['an answer subscription (#e + authors)', { '#e': [id], authors: [key] }],
    ['#e + authors + kinds + since', { '#e': [id], authors: [key], kinds: ['com.test.k.result'], since: 1 }],
    ['ids + authors', { ids: [id], authors: [key] }],
    ['ids + kinds', { ids: [id], kinds: ['com.test.k'] }],
  ])('%s starts from the id index or the tag index', (_name, filter) => {
    const detail = plan(filter);
    expect(detail).not.toMatch(/events_pubkey|events_kind|events_created|events_expires/);
    // `ids` looks up the unique index on the id; `#e` the tag table, then each event by its seq.
    expect(detail).toMatch(
      filter.ids
        ? /^SEARCH events USING INDEX events_id \(id=\?\)/
        : /^SEARCH events USING INTEGER PRIMARY KEY/,
    );
  });

  it('a filter by author alone still uses the author index', () => {
    expect(plan({ authors: [key] })).toMatch(/events_pubkey/);
  });

  it('an empty list matches nothing without a query', () => {
    expect(_eventQuery({ '#e': [] }, 1000)).toBeUndefined();
  });
});
