// Relay ingest: signed events published over a real WebSocket on loopback and acknowledged
// (`OK`), with the in-memory store as the baseline and the durable SQLite store (WAL,
// synchronous=FULL, group commit) as the subject, in the same run. Each iteration publishes a
// burst of 50 events and waits for all 50 OKs, so group commit can batch them. Beside them, the
// Postgres store (a real server the bench starts, test/support/postgres.ts): one relay, and three
// relays on one database with each burst spread over the three (docs/scale.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import {
  type EventStore,
  MemoryEventStore,
  PostgresEventStore,
  type Relay,
  SqliteEventStore,
  startRelay,
} from '../src/index.js';
import { _EVENTS_TABLE } from '../src/postgres-schema.js';
import { makeEvent, newSecret, TestClient } from '../test/support/client.js';
import { startPostgres, type TestPostgres } from '../test/support/postgres.js';

const BURST = 50;
const dir = mkdtempSync(join(tmpdir(), 'xp-relay-bench-'));
const setups: Record<string, { relay: Relay; client: TestClient }[]> = {};
let postgres: TestPostgres | undefined;
let postgresUrl: string | undefined;

async function relayOn(store: EventStore): Promise<{ relay: Relay; client: TestClient }> {
  const relay = await startRelay({ port: 0, store, eventsPerMinutePerKey: 10_000_000 });
  return { relay, client: await TestClient.connect(relay.url) };
}

beforeAll(async () => {
  setups.memory = [await relayOn(new MemoryEventStore())];
  setups.sqlite = [await relayOn(new SqliteEventStore({ path: join(dir, 'events.db') }))];
  postgres = await startPostgres();
  postgresUrl = await postgres.createDatabase();
  setups.postgres = [await relayOn(await PostgresEventStore.open({ url: postgresUrl }))];
  const shared = await postgres.createDatabase();
  setups.postgres3 = [];
  for (let i = 0; i < 3; i++)
    setups.postgres3.push(await relayOn(await PostgresEventStore.open({ url: shared })));
}, 120_000);

afterAll(async () => {
  // docs/scale.md: what one stored event costs in Postgres (table, indexes and TOAST together).
  if (postgresUrl !== undefined) {
    const db = new pg.Client({ connectionString: postgresUrl });
    await db.connect();
    const { rows } = await db.query(
      `SELECT count(*)::int AS events, pg_total_relation_size('${_EVENTS_TABLE}')::bigint AS bytes FROM ${_EVENTS_TABLE}`,
    );
    await db.end();
    const { events, bytes } = rows[0] as { events: number; bytes: string };
    console.log(
      `postgres store: ${events} events, ${Math.round(Number(bytes) / events)} bytes each (signed events with a 10-byte content, no tags)`,
    );
  }
  for (const { relay, client } of Object.values(setups).flat()) {
    client.close();
    await relay.close();
  }
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const secret = newSecret();
let counter = 0;

async function burst(name: string): Promise<void> {
  const relays = setups[name]!;
  const events = Array.from({ length: BURST }, () => makeEvent(secret, { content: `event ${counter++}` }));
  await Promise.all(events.map((event, i) => relays[i % relays.length]!.client.publish(event)));
}

describe(`publish ${BURST} events and wait for every OK`, () => {
  bench('in-memory store (baseline)', () => burst('memory'), { time: 3000 });
  bench('SQLite store, durable before OK', () => burst('sqlite'), { time: 3000 });
  bench('Postgres store, one relay', () => burst('postgres'), { time: 3000 });
  bench('Postgres store, three relays on one database', () => burst('postgres3'), { time: 3000 });
});
