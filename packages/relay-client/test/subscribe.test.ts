import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { XpEvent } from '@xprotocol/crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { RelayPool } from '../src/index.js';
import { event, freePort, secret, startOn, until } from './support.js';

let dir: string;
const cleanup: (() => Promise<void> | void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-sub-'));
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  rmSync(dir, { recursive: true, force: true });
});

describe('RelayPool.subscribe', () => {
  it('resubscribes after a relay restart without a gap and without repeats, paging past the limit', async () => {
    const db = join(dir, 'relay.db');
    // A port below the ephemeral range: restarted on it later, it must still be free then.
    const port = await freePort();
    let relay = await startOn(port, db);
    cleanup.push(() => relay.close());
    // A slow first reconnect (>= 1 s) leaves time to publish while the subscriber is away.
    const subscriber = await RelayPool.open({
      urls: [relay.url],
      reconnect: { initialMs: 2000, maxMs: 2000 },
      resubscribePageSize: 3,
    });
    cleanup.push(() => subscriber.close());
    const publisher = await RelayPool.open({ urls: [relay.url], reconnect: { initialMs: 50, maxMs: 100 } });
    cleanup.push(() => publisher.close());
    const received: XpEvent[] = [];
    let eoses = 0;
    subscriber.subscribe([{ kinds: ['com.test.gap'] }], {
      onEvent: (e) => received.push(e),
      onEose: () => eoses++,
    });
    await until(() => eoses === 1, 8000, 'first EOSE');
    const key = secret();
    const before = event(key, { kind: 'com.test.gap', content: 'before' });
    await publisher.publish(before);
    await until(() => received.length === 1, 8000, 'the live event');

    await relay.close();
    await until(() => subscriber.relays()[0]!.state !== 'open', 8000, 'the subscriber to notice');
    relay = await startOn(port, db);
    const now = Math.floor(Date.now() / 1000);
    // Seven events while the subscriber is away, some created well before the outage.
    const away = Array.from({ length: 7 }, (_, i) =>
      event(key, { kind: 'com.test.gap', content: `away ${i}`, created_at: now - 600 + i * 60 }),
    );
    for (const e of away) await publisher.publish(e);
    expect(subscriber.relays()[0]!.state).not.toBe('open');

    await until(() => received.length === 8, 10_000, 'every event published during the outage');
    await new Promise((r) => setTimeout(r, 200)); // nothing more may arrive
    expect(received.map((e) => e.content).sort()).toEqual(['before', ...away.map((e) => e.content)].sort());
    expect(new Set(received.map((e) => e.id)).size).toBe(received.length);
  });

  it('delivers an event that two relays both send exactly once', async () => {
    const a = await startOn(0);
    const b = await startOn(0);
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const pool = await RelayPool.open({ urls: [a.url, b.url], reconnect: { initialMs: 50, maxMs: 100 } });
    cleanup.push(() => pool.close());
    await until(() => pool.relays().every((r) => r.state === 'open'), 8000, 'both relays');
    const got: string[] = [];
    let eoses = 0;
    pool.subscribe([{ kinds: ['com.test.both'] }], {
      onEvent: (e, relay) => got.push(`${e.id}@${relay}`),
      onEose: () => eoses++,
    });
    await until(() => eoses === 2, 8000, 'EOSE from both');
    const e = event(secret(), { kind: 'com.test.both' });
    await pool.publish(e);
    await until(async () => (await pool.outboxSize()) === 0, 8000, 'both relays to accept');
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toHaveLength(1);
    expect(got[0]!.startsWith(e.id)).toBe(true);
  });

  it('drops an event a rogue relay forged and reports it', async () => {
    // A hostile relay that answers every REQ with a tampered event: a stand-in for a compromised peer.
    const genuine = event(secret(), { kind: 'com.test.rogue' });
    const rogue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    rogue.on('connection', (socket) => {
      socket.on('message', (data) => {
        const [type, id] = JSON.parse(data.toString()) as [string, string];
        if (type !== 'REQ') return;
        socket.send(JSON.stringify(['EVENT', id, { ...genuine, content: 'forged' }]));
        socket.send(JSON.stringify(['EVENT', id, genuine]));
        socket.send(JSON.stringify(['EOSE', id]));
      });
    });
    cleanup.push(() => new Promise<void>((r) => rogue.close(() => r())));
    await new Promise((r) => rogue.once('listening', r));
    const address = rogue.address() as { port: number };
    const invalid: string[] = [];
    const pool = await RelayPool.open({
      urls: [`ws://127.0.0.1:${address.port}`],
      reconnect: { initialMs: 50, maxMs: 100 },
      onInvalidEvent: (_url, reason) => invalid.push(reason),
    });
    cleanup.push(() => pool.close());
    const got: XpEvent[] = [];
    let eose = false;
    pool.subscribe([{ kinds: ['com.test.rogue'] }], {
      onEvent: (e) => got.push(e),
      onEose: () => (eose = true),
    });
    await until(() => eose, 8000, 'EOSE');
    expect(got).toEqual([genuine]);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatch(/event\.id: expected/);
  });
});
