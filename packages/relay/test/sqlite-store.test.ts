import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EventStore, MemoryEventStore, type RelayEvent, SqliteEventStore } from '../src/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function fakeEvent(n: number, overrides: Partial<RelayEvent> = {}): RelayEvent {
  return {
    id: n.toString(16).padStart(64, '0'),
    pubkey: `ed25519:${'a'.repeat(64)}`,
    created_at: 1_000 + n,
    kind: 'com.test.k',
    tags: [],
    content: `event ${n}`,
    sig: 'b'.repeat(128),
    ...overrides,
  };
}

// The same contract holds for both stores; the SQLite one adds durability.
const stores: [string, () => EventStore][] = [
  ['memory', () => new MemoryEventStore()],
  ['sqlite', () => new SqliteEventStore({ path: join(dir, 'events.db') })],
];

describe.each(stores)('%s store', (_name, open) => {
  it('stores once and reports duplicates, including within one batch', async () => {
    const store = open();
    const event = fakeEvent(1);
    const outcomes = await Promise.all([store.put(event, 5000), store.put(event, 5000)]);
    expect(outcomes).toEqual(['stored', 'duplicate']);
    expect(await store.put(event, 5000)).toBe('duplicate');
    expect(await store.count()).toBe(1);
    await store.close();
  });

  it('queries newest first with limit, ties by id, and hides expired events', async () => {
    const store = open();
    await Promise.all([
      store.put(fakeEvent(1), 5000),
      store.put(fakeEvent(2, { created_at: 1001 }), 5000),
      store.put(fakeEvent(3), 1500),
    ]);
    expect((await store.query({ limit: 10 }, 1200)).map((e) => e.content)).toEqual([
      'event 3',
      'event 1',
      'event 2',
    ]);
    expect((await store.query({ limit: 1 }, 1200)).map((e) => e.content)).toEqual(['event 3']);
    expect((await store.query({ limit: 10 }, 1500)).map((e) => e.content)).toEqual(['event 1', 'event 2']);
    expect(await store.expire(1500)).toBe(1);
    expect(await store.count()).toBe(2);
    await store.close();
  });

  it('matches tag filters and refuses nothing for empty value lists', async () => {
    const store = open();
    const tagged = fakeEvent(7, {
      tags: [
        ['p', 'ed25519:x'],
        ['e', 'f'.repeat(64)],
      ],
    });
    await store.put(tagged, 5000);
    await store.put(fakeEvent(8), 5000);
    expect(await store.query({ '#p': ['ed25519:x'], limit: 5 }, 1)).toEqual([tagged]);
    expect(await store.query({ '#e': ['f'.repeat(64)], limit: 5 }, 1)).toEqual([tagged]);
    expect(await store.query({ kinds: [], limit: 5 }, 1)).toEqual([]);
    await store.close();
  });
});

describe('sqlite store durability', () => {
  it('keeps committed events across a reopen', async () => {
    const path = join(dir, 'events.db');
    const first = new SqliteEventStore({ path });
    const puts = Array.from({ length: 50 }, (_, i) => first.put(fakeEvent(i), 9999));
    expect(new Set(await Promise.all(puts))).toEqual(new Set(['stored']));
    await first.close();
    const second = new SqliteEventStore({ path });
    expect(await second.count()).toBe(50);
    expect(await second.put(fakeEvent(3), 9999)).toBe('duplicate');
    await second.close();
  });

  it('runs WAL with synchronous=FULL', async () => {
    const path = join(dir, 'events.db');
    const store = new SqliteEventStore({ path });
    expect(store.durability()).toEqual({ journalMode: 'wal', synchronous: 2 });
    await store.close();
  });

  it('refuses an event whose id or key is not one it can store as bytes', async () => {
    const store = new SqliteEventStore({ path: join(dir, 'events.db') });
    await expect(store.put(fakeEvent(1, { id: 'A'.repeat(64) }), 9999)).rejects.toMatchObject({
      code: 'STORE_FAILED',
      message: expect.stringMatching(/^expected an event id of 64 lowercase hex digits and an ed25519: key/),
    });
    await expect(store.put(fakeEvent(2, { pubkey: 'a'.repeat(64) }), 9999)).rejects.toMatchObject({
      code: 'STORE_FAILED',
    });
    expect(await store.put(fakeEvent(3), 9999)).toBe('stored');
    await store.close();
  });

  it('refuses an unusable path with a message naming it', () => {
    expect(() => new SqliteEventStore({ path: join(dir, 'missing', 'dir', 'x.db') })).toThrow(
      /cannot open the event database/,
    );
  });
});
