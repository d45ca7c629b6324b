// The SQLite store's writer thread: batches commit on the worker's own connection, their failures
// reach the puts, and close() commits what is pending.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RelayEvent, SqliteEventStore } from '../src/index.js';
import { _workerWriter } from '../src/sqlite-writer.js';

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

  it('groups the batches that arrive while a transaction waits into one transaction', async () => {
    const path = join(dir, 'events.db');
    await new SqliteEventStore({ path }).close(); // creates the schema
    const writer = _workerWriter(path, 1024);
    const lock = new Database(path);
    lock.exec('BEGIN IMMEDIATE'); // the writer's transaction waits for this one (busy_timeout)
    const commits: Promise<{ stored: boolean[]; transaction: number }>[] = [];
    for (let n = 0; n < 10; n++) {
      const event = fakeEvent(n);
      commits.push(
        writer.commit([
          [
            Buffer.from(event.id, 'hex'),
            Buffer.from(event.pubkey.slice(8), 'hex'),
            event.kind,
            event.created_at,
            10_000,
            JSON.stringify(event),
            [],
          ],
        ]),
      );
      // Each batch in its own event-loop turn, as the store sends them under load.
      await new Promise((resolve) => setImmediate(resolve));
    }
    lock.exec('COMMIT');
    lock.close();
    const results = await Promise.all(commits);
    await writer.close();
    expect(results.map((r) => r.stored)).toEqual(Array.from({ length: 10 }, () => [true]));
    // The first batch may have started its transaction alone; the others queued behind it and
    // share the next one: two fsyncs for ten batches, not ten.
    expect(new Set(results.map((r) => r.transaction)).size).toBeLessThanOrEqual(2);
    expect(results.at(-1)!.transaction).toBe(results[1]!.transaction);
  });
});
