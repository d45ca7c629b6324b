// Relay ingest: signed events published over a real WebSocket on loopback and acknowledged
// (`OK`), with the in-memory store as the baseline and the durable SQLite store (WAL,
// synchronous=FULL, group commit) as the subject, in the same run. Each iteration publishes a
// burst of 50 events and waits for all 50 OKs, so group commit can batch them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { MemoryEventStore, type Relay, SqliteEventStore, startRelay } from '../src/index.js';
import { makeEvent, newSecret, TestClient } from '../test/support/client.js';

const BURST = 50;
const dir = mkdtempSync(join(tmpdir(), 'xp-relay-bench-'));
const setups: Record<string, { relay: Relay; client: TestClient }> = {};

beforeAll(async () => {
  for (const [name, store] of [
    ['memory', new MemoryEventStore()],
    ['sqlite', new SqliteEventStore({ path: join(dir, 'events.db') })],
  ] as const) {
    const relay = await startRelay({ port: 0, store, eventsPerMinutePerKey: 10_000_000 });
    setups[name] = { relay, client: await TestClient.connect(relay.url) };
  }
});

afterAll(async () => {
  for (const { relay, client } of Object.values(setups)) {
    client.close();
    await relay.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

const secret = newSecret();
let counter = 0;

async function burst(name: string): Promise<void> {
  const { client } = setups[name]!;
  const events = Array.from({ length: BURST }, () => makeEvent(secret, { content: `event ${counter++}` }));
  await Promise.all(events.map((event) => client.publish(event)));
}

describe(`publish ${BURST} events and wait for every OK`, () => {
  bench('in-memory store (baseline)', () => burst('memory'), { time: 3000 });
  bench('SQLite store, durable before OK', () => burst('sqlite'), { time: 3000 });
});
