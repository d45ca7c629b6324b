// The SQLite and Postgres stores answer every filter exactly as the in-memory store does (which is
// `matchesFilter` of @xprotocol/wire, newest first, ties by id): the same events in the same order,
// including for values no stored event can have (ids and keys stored as bytes must not match an
// upper-case, shortened or otherwise different string). Seeded, so a failure replays. The Postgres
// store runs on a real server started from the npm packages (support/postgres.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Filter } from '@xprotocol/wire';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EventStore,
  MemoryEventStore,
  PostgresEventStore,
  type RelayEvent,
  SqliteEventStore,
} from '../src/index.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';

/** mulberry32: a small seeded generator, so the cases are the same on every run. */
function _random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = _random(20261126);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const hex = (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('');

const keys = Array.from({ length: 4 }, () => `ed25519:${hex(32)}`);
const kinds = ['com.test.a', 'com.test.b', 'com.test.a.result'];
const events: { event: RelayEvent; expiresAt: number }[] = [];
for (let n = 0; n < 300; n++) {
  const tags: string[][] = [];
  if (random() < 0.4) tags.push(['p', pick(keys)]);
  if (random() < 0.4 && events.length > 0) tags.push(['e', pick(events).event.id]);
  if (random() < 0.2) tags.push(['t', 'other']);
  events.push({
    event: {
      id: hex(32),
      pubkey: pick(keys),
      created_at: 1_000 + Math.floor(random() * 20), // many ties, ordered by id
      kind: pick(kinds),
      tags,
      content: `event ${n}`,
      sig: hex(64),
    },
    expiresAt: 1_010 + Math.floor(random() * 30),
  });
}

/** A filter value that matches no stored event, in one of the ways a client could write it. */
function _strangeValue(of: string): string {
  return pick([of.toUpperCase(), of.slice(0, 20), `${of}0`, of.replace('ed25519:', 'x25519:'), '', 'zz']);
}

function _values(present: () => string): string[] {
  return Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
    random() < 0.15 ? _strangeValue(present()) : present(),
  );
}

function _filter(): Filter {
  const filter: Filter = {};
  if (random() < 0.25) filter.ids = _values(() => pick(events).event.id);
  if (random() < 0.4) filter.authors = _values(() => pick(keys));
  if (random() < 0.4) filter.kinds = _values(() => pick(kinds));
  if (random() < 0.3) filter.since = 1_000 + Math.floor(random() * 20);
  if (random() < 0.3) filter.until = 1_000 + Math.floor(random() * 20);
  if (random() < 0.25) filter['#p'] = _values(() => pick(keys));
  if (random() < 0.25) filter['#e'] = _values(() => pick(events).event.id);
  if (random() < 0.05) filter.kinds = [];
  filter.limit = pick([1, 5, 50, 500]);
  return filter;
}

// Every store gets the same filters at the same times, drawn once.
const cases = Array.from({ length: 400 }, () => ({
  filter: _filter(),
  now: 1_005 + Math.floor(random() * 40),
}));

let dir: string;
let server: TestPostgres;
let postgresUrl: string;
const stores: Record<'SQLite' | 'Postgres', EventStore> = {} as never;
const memory = new MemoryEventStore();
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-equivalence-'));
  server = await startPostgres();
  stores.SQLite = new SqliteEventStore({ path: join(dir, 'events.db') });
  postgresUrl = await server.createDatabase();
  stores.Postgres = await PostgresEventStore.open({ url: postgresUrl });
  for (const store of [stores.SQLite, stores.Postgres, memory]) {
    await Promise.all(events.map(({ event, expiresAt }) => store.put(event, expiresAt)));
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(stores).map((store) => store.close()));
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.each(['SQLite', 'Postgres'] as const)('%s store queries', (name) => {
  it('answer 400 seeded filters exactly as the in-memory store does', async () => {
    const store = stores[name];
    let nonEmpty = 0;
    for (const { filter, now } of cases) {
      const expected = (await memory.query(filter, now)).map((event) => event.content);
      const found = (await store.query(filter, now)).map((event) => event.content);
      expect(found, `filter ${JSON.stringify(filter)} at ${now}`).toEqual(expected);
      if (expected.length > 0) nonEmpty++;
    }
    // The cases must exercise matches, not only empty answers.
    expect(nonEmpty).toBeGreaterThan(150);
  });

  it('match nothing for an id or key written differently', async () => {
    const store = stores[name];
    const { event } = events[42]!;
    const id = event.id;
    const key = event.pubkey;
    for (const filter of [
      { ids: [id.toUpperCase()] },
      { ids: [id.slice(0, 32)] },
      { ids: [`${id}00`] },
      { authors: [key.toUpperCase()] },
      { authors: [key.slice(8)] },
      { authors: [`ed25519:${key.slice(8).toUpperCase()}`] },
      { authors: [key.replace('ed25519:', 'x25519:')] },
    ] satisfies Filter[]) {
      expect(await memory.query(filter, 1_000), JSON.stringify(filter)).toEqual([]);
      expect(await store.query(filter, 1_000), JSON.stringify(filter)).toEqual([]);
    }
    expect(await store.query({ ids: [id], authors: [key] }, 1_000)).toEqual([event]);
  });

  it('return the events as they were put, field for field', async () => {
    const { event } = events[17]!;
    expect(await stores[name].query({ ids: [event.id] }, 1_000)).toEqual([event]);
  });

  it('count and list what they hold as the in-memory store does', async () => {
    const store = stores[name];
    expect(await store.count()).toBe(events.length);
    const held: [string, number, number][] = [];
    await store.forEachStored?.((pubkey, expiresAt, bytes) => held.push([pubkey, expiresAt, bytes]));
    const expected: [string, number, number][] = [];
    await memory.forEachStored((pubkey, expiresAt, bytes) => expected.push([pubkey, expiresAt, bytes]));
    expect(held.sort()).toEqual(expected.sort());
    // A duplicate id is not stored twice.
    const { event, expiresAt } = events[3]!;
    expect(await store.put(event, expiresAt)).toBe('duplicate');
  });
});

// Last: it deletes events the tests above read.
describe('expiry', () => {
  it('deletes what expired in every store alike; on Postgres one process sweeps at a time', async () => {
    // Another process holding the sweep lock: this one leaves the round to it.
    const other = new pg.Client({ connectionString: postgresUrl });
    await other.connect();
    await other.query('SELECT pg_advisory_lock($1, $2)', [0x78_70_72_6c, 3]);
    expect(await stores.Postgres.expire(1_025)).toBe(0);
    expect(await stores.Postgres.count()).toBe(events.length);
    await other.query('SELECT pg_advisory_unlock($1, $2)', [0x78_70_72_6c, 3]);
    await other.end();
    const expired = events.filter(({ expiresAt }) => expiresAt <= 1_025).length;
    expect(expired).toBeGreaterThan(0);
    for (const store of [memory, stores.SQLite, stores.Postgres]) {
      expect(await store.expire(1_025)).toBe(expired);
      expect(await store.count()).toBe(events.length - expired);
    }
  });
});
