// The SQLite store's writer thread: batches commit on the worker's own connection, their failures
// reach the puts, and close() commits what is pending.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RelayEvent, SqliteEventStore } from '../src/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-writer-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function fakeEvent(n: number): RelayEvent {
  return {
    id: n.toString(16).padStart(64, '0'),
    pubkey: `ed25519:${'a'.repeat(64)}`,
    created_at: 1_000 + n,
    kind: 'com.test.k',
    tags: [['e', 'f'.repeat(64)]],
    content: `event ${n}`,
    sig: 'b'.repeat(128),
  };
}

describe('SqliteEventStore writer thread', () => {
  it('commits every put pending at close() before closing', async () => {
    const path = join(dir, 'events.db');
    const store = new SqliteEventStore({ path, batchWindowMs: 10_000 });
    const puts = Array.from({ length: 1200 }, (_, n) => store.put(fakeEvent(n), 10_000));
    await store.close();
    expect(new Set(await Promise.all(puts))).toEqual(new Set(['stored']));
    const reopened = new SqliteEventStore({ path });
    expect(await reopened.count()).toBe(1200);
    expect((await reopened.query({ '#e': ['f'.repeat(64)], limit: 5 }, 0)).length).toBe(5);
    await reopened.close();
  });

  it('rejects the puts of a batch that fails, with STORE_FAILED and the reason', async () => {
    const path = join(dir, 'events.db');
    const store = new SqliteEventStore({ path });
    await store.put(fakeEvent(1), 10_000);
    const other = new Database(path);
    other.exec('DROP TABLE tags');
    other.close();
    await expect(store.put(fakeEvent(2), 10_000)).rejects.toMatchObject({
      code: 'STORE_FAILED',
      message: expect.stringMatching(/^event batch not stored: .*no such table: tags/),
    });
    await store.close();
  });
});
