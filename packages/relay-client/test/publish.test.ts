import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Relay } from '@xprotocol/relay';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RelayClientError, RelayPool, SqliteOutbox } from '../src/index.js';
import { event, freePort, secret, startOn, until } from './support.js';

const fast = { initialMs: 50, maxMs: 200 };
let dir: string;
const cleanup: (() => Promise<void> | void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-pool-'));
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  rmSync(dir, { recursive: true, force: true });
});
const track = <T extends { close(): unknown }>(thing: T): T => {
  cleanup.push(() => void thing.close());
  return thing;
};

async function has(relay: Relay, id: string): Promise<boolean> {
  const pool = await RelayPool.open({ urls: [relay.url], reconnect: fast });
  try {
    const found: string[] = [];
    await new Promise<void>((resolve) => {
      pool.subscribe([{ ids: [id] }], { onEvent: (e) => found.push(e.id), onEose: () => resolve() });
    });
    return found.includes(id);
  } finally {
    await pool.close();
  }
}

describe('RelayPool.publish', () => {
  it('resolves on the first OK while another relay is down, then delivers to it when it comes up', async () => {
    const up = track(await startOn(0));
    const downPort = await freePort();
    const pool = track(
      await RelayPool.open({ urls: [up.url, `ws://127.0.0.1:${downPort}`], reconnect: fast }),
    );
    const e = event(secret());
    const result = await pool.publish(e);
    expect(result).toEqual({ relay: up.url, duplicate: false });
    expect(await pool.outboxSize()).toBe(1); // still owed to the second relay
    const late = track(await startOn(downPort));
    await until(async () => (await pool.outboxSize()) === 0, 8000, 'the outbox to drain');
    expect(await has(late, e.id)).toBe(true);
  });

  it('keeps an unacknowledged event in a durable outbox across a restart and delivers it later', async () => {
    const port = await freePort();
    const outboxPath = join(dir, 'state.db');
    const first = await RelayPool.open({
      urls: [`ws://127.0.0.1:${port}`],
      outbox: new SqliteOutbox(outboxPath),
      reconnect: fast,
    });
    const e = event(secret());
    await first.enqueue(e); // durable from here on
    const pending = first.publish(e);
    await first.close(); // the process "dies" before any relay saw the event
    await expect(pending).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(first.publish(e)).rejects.toMatchObject({ code: 'CLOSED' });
    const relay = track(await startOn(port));
    const second = track(
      await RelayPool.open({ urls: [relay.url], outbox: new SqliteOutbox(outboxPath), reconnect: fast }),
    );
    await until(async () => (await second.outboxSize()) === 0, 8000, 'the restored outbox to drain');
    expect(await has(relay, e.id)).toBe(true);
    // Publishing it again now is answered by the relay as a duplicate, not run twice.
    expect(await second.publish(e)).toMatchObject({ relay: relay.url, duplicate: true });
  });

  it('with durable: false, writes nothing to the outbox yet re-sends after a reconnect; a restart forgets it', async () => {
    const port = await freePort();
    const outboxPath = join(dir, 'state.db');
    const first = await RelayPool.open({
      urls: [`ws://127.0.0.1:${port}`],
      outbox: new SqliteOutbox(outboxPath),
      reconnect: fast,
    });
    const e = event(secret());
    const pending = first.publish(e, { durable: false });
    expect(await first.outboxSize()).toBe(0);
    // The relay comes up after the publish: the pool delivers the event from memory.
    const relay = track(await startOn(port));
    expect(await pending).toEqual({ relay: relay.url, duplicate: false });
    expect(await has(relay, e.id)).toBe(true);
    const lost = event(secret());
    await relay.close();
    const unsent = first.publish(lost, { durable: false });
    await first.close(); // the process "dies" before any relay saw it
    await expect(unsent).rejects.toMatchObject({ code: 'CLOSED' });
    const again = track(await startOn(port));
    const second = track(
      await RelayPool.open({ urls: [again.url], outbox: new SqliteOutbox(outboxPath), reconnect: fast }),
    );
    expect(await second.outboxSize()).toBe(0);
    expect(await has(again, lost.id)).toBe(false);
  });

  it('rejects with PUBLISH_REFUSED and every relay reason when all relays refuse', async () => {
    const a = track(await startOn(0));
    const b = track(await startOn(0));
    const pool = track(await RelayPool.open({ urls: [a.url, b.url], reconnect: fast }));
    await until(() => pool.relays().every((r) => r.state === 'open'), 8000, 'both relays');
    const good = event(secret());
    const forged = { ...good, content: 'tampered' };
    const error = await pool.publish(forged).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayClientError);
    expect((error as RelayClientError).code).toBe('PUBLISH_REFUSED');
    expect(Object.keys((error as RelayClientError).reasons).sort()).toEqual([a.url, b.url].sort());
    expect((error as RelayClientError).message).toMatch(/invalid: event\.id/);
    expect(await pool.outboxSize()).toBe(0);
  });

  it('rejects with PUBLISH_EXPIRED when no relay accepted the event before its expiration', async () => {
    const port = await freePort();
    const pool = track(await RelayPool.open({ urls: [`ws://127.0.0.1:${port}`], reconnect: fast }));
    const now = Math.floor(Date.now() / 1000);
    const e = event(secret(), { tags: [['expiration', String(now + 1)]] });
    const error = await pool.publish(e).catch((x: unknown) => x);
    expect((error as RelayClientError).code).toBe('PUBLISH_EXPIRED');
    expect(await pool.outboxSize()).toBe(0);
  });

  it('retries a rate-limited event after the hinted delay', async () => {
    const relay = track(await startOn(0, undefined, { eventsPerMinutePerKey: 60 }));
    const pool = track(await RelayPool.open({ urls: [relay.url], reconnect: fast }));
    const key = secret();
    const events = Array.from({ length: 61 }, (_, i) => event(key, { content: `n${i}` }));
    const results = await Promise.all(events.map((e) => pool.publish(e)));
    expect(results).toHaveLength(61); // the 61st waited ~1 s for a token instead of failing
    expect(await pool.outboxSize()).toBe(0);
  });

  it('refuses to grow the outbox beyond maxOutbox', async () => {
    const port = await freePort();
    const pool = track(
      await RelayPool.open({ urls: [`ws://127.0.0.1:${port}`], reconnect: fast, maxOutbox: 2 }),
    );
    const key = secret();
    pool.publish(event(key, { content: '1' })).catch(() => {}); // pending until the pool closes
    pool.publish(event(key, { content: '2' })).catch(() => {});
    await until(async () => (await pool.outboxSize()) === 2);
    await expect(pool.publish(event(key, { content: '3' }))).rejects.toMatchObject({ code: 'OUTBOX_FULL' });
  });

  it('addRelay delivers waiting events and subscriptions to a relay learned at run time', async () => {
    const a = track(await startOn(0));
    const b = track(await startOn(0));
    const pool = track(await RelayPool.open({ urls: [a.url], reconnect: fast }));
    const received: string[] = [];
    pool.subscribe([{ kinds: ['com.test.late'] }], { onEvent: (_e, relay) => received.push(relay) });
    const first = event(secret(), { kind: 'com.test.late' });
    // Published by someone else on b only: reaches us once the pool knows b.
    const other = track(await RelayPool.open({ urls: [b.url], reconnect: fast }));
    await other.publish(first);
    expect(pool.addRelay(b.url)).toBe(true);
    expect(pool.addRelay(b.url)).toBe(false);
    await until(() => received.includes(b.url), 8000, 'the event from the added relay');
    // And our own publications now go to b as well.
    const mine = event(secret(), { kind: 'com.test.late' });
    await pool.publish(mine);
    await until(async () => (await pool.outboxSize()) === 0, 8000, 'both relays to accept');
    expect(await has(b, mine.id)).toBe(true);
    expect(() => pool.addRelay('http://nope')).toThrow(/expected a ws:\/\/ or wss:\/\/ relay URL/);
  });

  it('refuses bad options with a clear message', async () => {
    await expect(RelayPool.open({ urls: [] })).rejects.toThrow(/at least one relay URL/);
    await expect(RelayPool.open({ urls: ['http://x'] })).rejects.toThrow(
      /expected a ws:\/\/ or wss:\/\/ relay URL, got "http:\/\/x"/,
    );
  });
});
