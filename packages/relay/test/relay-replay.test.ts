// The relay's own dedupe against a republished event (docs/protocol.md §4 and §9): the store keeps
// an id for as long as the event's created_at is inside the retention — also when the event was
// created ahead of the relay's clock, within the skew it allows — so an event republished after a
// restart (the recent ids are gone) is answered `duplicate:` or refused as stale, never stored and
// fanned out again. The relay runs in-process on a SQLite store, its clock set by the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Relay, SqliteEventStore, startRelay } from '../src/index.js';
import { makeEvent, newSecret, TestClient } from './support/client.js';

let dir: string;
let relay: Relay | undefined;
let client: TestClient | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-replay-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  client?.close();
  await relay?.close();
  relay = undefined;
});

/** A relay on the store at `path` whose clock reads `clock.ms`; what expired by then is swept first. */
async function relayAt(path: string, clock: { ms: number }): Promise<{ swept: number }> {
  const store = new SqliteEventStore({ path });
  const swept = await store.expire(Math.floor(clock.ms / 1000));
  relay = await startRelay({ store, now: () => clock.ms });
  client = await TestClient.connect(relay.url);
  return { swept };
}

async function restart(): Promise<void> {
  client?.close();
  await relay?.close();
}

describe('the relay against a republished event', () => {
  it('keeps an event created 300 s ahead until its created_at leaves the retention: duplicate, then stale', async () => {
    const path = join(dir, 'ahead.db');
    const T = Math.floor(Date.now() / 1000);
    const clock = { ms: T * 1000 };
    await relayAt(path, clock);
    const ahead = makeEvent(newSecret(), { created_at: T + 300 });
    expect((await client!.publish(ahead))[2]).toBe(true);
    await restart();

    // An hour and a second later, and at the last second its created_at is inside the retention:
    // still fresh (created_at ≥ now − 3600), still remembered.
    for (const now of [T + 3601, T + 3900]) {
      clock.ms = now * 1000;
      expect(await relayAt(path, clock)).toEqual({ swept: 0 });
      expect((await client!.publish(ahead)).slice(2)).toEqual([true, 'duplicate: already have this event']);
      await restart();
    }

    // Once its created_at is older than the retention, the relay refuses it as stale instead.
    clock.ms = (T + 3901) * 1000;
    await relayAt(path, clock);
    const refused = await client!.publish(ahead);
    expect(refused[2]).toBe(false);
    expect(refused[3]).toMatch(/^invalid: created_at \d+ is older than this relay's retention of 3600 s/);
  });
});
