// A relay keeps a bounded number of bytes: per signing key (`--max-bytes-per-key`) and in all
// (`--max-stored-bytes`). An EVENT past either gets `OK false "rate-limited: …"` naming the quota
// and the numbers; fresh keys cannot get around the ceiling. With `--db` the bytes already stored
// count after a restart, and events that expired meanwhile no longer do. The real bin, attacked by
// a real `ws` client with events signed by @xprotocol/crypto.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { XpEvent } from '@xprotocol/crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, newSecret, TestClient } from './support/client.js';
import { killBins, startBin, stopBin } from './support/relay-bin.js';

const MIB = 1024 * 1024;
const clients: TestClient[] = [];
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-quota-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  killBins();
});

async function connect(url: string): Promise<TestClient> {
  const client = await TestClient.connect(url);
  clients.push(client);
  return client;
}

/** The bytes an event occupies in the relay's account: its JSON, in UTF-8. */
const bytesOf = (event: XpEvent) => Buffer.byteLength(JSON.stringify(event));

let serial = 0;

/** A new event of `secret` (never a duplicate) with `contentBytes` bytes of content and `tags`. */
function sized(secret: Uint8Array, contentBytes: number, tags: string[][] = []): XpEvent {
  return makeEvent(secret, { content: 'x'.repeat(contentBytes), tags: [['n', String(serial++)], ...tags] });
}

/** `OK false` reason for a key over its quota, with the numbers the relay must name. */
function keyQuotaReason(event: XpEvent, held: number, quota: number): RegExp {
  return new RegExp(
    `^rate-limited: storage quota of ${event.pubkey} is full: the key holds ${held} bytes of events; this one is ${bytesOf(event)} bytes and the quota is ${quota} bytes per key \\(--max-bytes-per-key\\); retry after \\d+ s`,
  );
}

/** `OK false` reason for the relay over its ceiling. */
function ceilingReason(event: XpEvent, held: number, ceiling: number): RegExp {
  return new RegExp(
    `^rate-limited: the relay's storage is full: it holds ${held} bytes of events; this one is ${bytesOf(event)} bytes and the ceiling is ${ceiling} bytes \\(--max-stored-bytes\\); retry after \\d+ s`,
  );
}

describe('xprotocol-relay: storage quotas', () => {
  it('by default keeps at most 128 MiB of 1 MiB events from fresh keys, and refuses the rest', async () => {
    const bin = await startBin(['--port', '0']);
    const client = await connect(bin.url);
    const ceiling = 128 * MIB;
    // The relay admits one connection's events in the order they were sent: four at a time keeps
    // both the signer (here) and the verifier (the relay) busy.
    let held = 0;
    let refusedAt: number | undefined;
    for (let i = 0; i < 136 && refusedAt === undefined; i += 4) {
      const events = Array.from({ length: 4 }, () => sized(newSecret(), MIB));
      const answers = await Promise.all(events.map((event) => client.publish(event)));
      for (const [j, event] of events.entries()) {
        const ok = answers[j]!;
        if (refusedAt === undefined && held + bytesOf(event) <= ceiling) {
          expect(ok[2], `event ${i + j} (${held} bytes held) was refused: ${ok[3]}`).toBe(true);
          held += bytesOf(event);
          continue;
        }
        expect(ok[2], `event ${i + j} was kept with ${held} bytes already held`).toBe(false);
        expect(ok[3]).toMatch(ceilingReason(event, held, ceiling));
        refusedAt ??= i + j;
      }
    }
    expect(refusedAt).toBe(127);
    expect(await stopBin(bin)).toBe(0);
  }, 120_000);

  it('by default keeps at most 16 MiB per key', async () => {
    const bin = await startBin(['--port', '0']);
    const client = await connect(bin.url);
    const secret = newSecret();
    const quota = 16 * MIB;
    let held = 0;
    for (let i = 0; i < 15; i++) {
      const event = sized(secret, MIB);
      expect((await client.publish(event))[2]).toBe(true);
      held += bytesOf(event);
    }
    const over = sized(secret, MIB);
    const ok = await client.publish(over);
    expect(ok[2]).toBe(false);
    expect(ok[3]).toMatch(keyQuotaReason(over, held, quota));
    // Another key still has its own quota.
    expect((await client.publish(sized(newSecret(), MIB)))[2]).toBe(true);
    expect(await stopBin(bin)).toBe(0);
  });

  it('counts what the database holds after a restart (--db), per key and in all', async () => {
    const db = join(dir, 'restart.db');
    const args = [
      '--port',
      '0',
      '--db',
      db,
      '--max-bytes-per-key',
      '600000',
      '--max-stored-bytes',
      '1000000',
    ];
    const first = await startBin(args);
    let client = await connect(first.url);
    const busy = newSecret();
    let busyHeld = 0;
    for (let i = 0; i < 5; i++) {
      const event = sized(busy, 100_000);
      expect((await client.publish(event))[2]).toBe(true);
      busyHeld += bytesOf(event);
    }
    const overKey = sized(busy, 100_000);
    expect((await client.publish(overKey))[3]).toMatch(keyQuotaReason(overKey, busyHeld, 600_000));
    let held = busyHeld;
    for (let i = 0; i < 4; i++) {
      const event = sized(newSecret(), 100_000);
      expect((await client.publish(event))[2]).toBe(true);
      held += bytesOf(event);
    }
    const overAll = sized(newSecret(), 100_000);
    expect((await client.publish(overAll))[3]).toMatch(ceilingReason(overAll, held, 1_000_000));
    expect(await stopBin(first)).toBe(0);

    const second = await startBin(args);
    client = await connect(second.url);
    const againKey = sized(busy, 100_000);
    expect((await client.publish(againKey))[3]).toMatch(keyQuotaReason(againKey, busyHeld, 600_000));
    const againAll = sized(newSecret(), 100_000);
    expect((await client.publish(againAll))[3]).toMatch(ceilingReason(againAll, held, 1_000_000));
    expect(await stopBin(second)).toBe(0);
  });

  it('frees the bytes of events that expired before a restart (--db)', async () => {
    const db = join(dir, 'expiry.db');
    const args = ['--port', '0', '--db', db, '--max-bytes-per-key', '300000'];
    const first = await startBin(args);
    const client = await connect(first.url);
    const secret = newSecret();
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    let held = 0;
    for (let i = 0; i < 2; i++) {
      const event = sized(secret, 100_000, [['expiration', String(expiresAt)]]);
      expect((await client.publish(event))[2]).toBe(true);
      held += bytesOf(event);
    }
    const big = sized(secret, 150_000);
    expect((await client.publish(big))[3]).toMatch(keyQuotaReason(big, held, 300_000));
    expect(await stopBin(first)).toBe(0);
    // Wait (on the clock, not for a duration) until both events have expired.
    while (Math.floor(Date.now() / 1000) <= expiresAt) await new Promise((r) => setTimeout(r, 200));
    const second = await startBin(args);
    const again = await connect(second.url);
    expect((await again.publish(big))[2]).toBe(true);
    expect(await stopBin(second)).toBe(0);
  });
});
