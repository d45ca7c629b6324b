// The storage account within one run, on a relay started in-process (its clock and sweep interval
// are options there): the expiry sweep gives the bytes of the events it deleted back, a duplicate
// costs nothing (also one the relay only learns about from the store), and what the SQLite store
// holds is counted when the relay starts. The bin's tests (relay-bin-storage-quota.test.ts) attack
// the real process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { XpEvent } from '@xprotocol/crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Relay, SqliteEventStore, startRelay } from '../src/index.js';
import { makeEvent, newSecret, TestClient } from './support/client.js';

let dir: string;
let relay: Relay | undefined;
let client: TestClient | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-account-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  client?.close();
  await relay?.close();
  relay = undefined;
});

const bytesOf = (event: XpEvent) => Buffer.byteLength(JSON.stringify(event));
let serial = 0;
const sized = (secret: Uint8Array, contentBytes: number, tags: string[][] = []) =>
  makeEvent(secret, { content: 'x'.repeat(contentBytes), tags: [['n', String(serial++)], ...tags] });

describe('storage quota account', () => {
  it('gives the bytes of swept events back: the key may publish again once they are deleted', async () => {
    let clock = Date.now();
    relay = await startRelay({ maxStoredBytesPerKey: 25_000, sweepIntervalMs: 20, now: () => clock });
    client = await TestClient.connect(relay.url);
    const secret = newSecret();
    const expiration = Math.floor(clock / 1000) + 5;
    const first = sized(secret, 10_000, [['expiration', String(expiration)]]);
    const second = sized(secret, 10_000, [['expiration', String(expiration)]]);
    expect((await client.publish(first))[2]).toBe(true);
    expect((await client.publish(second))[2]).toBe(true);
    const over = sized(secret, 10_000);
    const refused = await client.publish(over);
    expect(refused[3]).toContain(`the key holds ${bytesOf(first) + bytesOf(second)} bytes of events`);
    // Two minutes later both have expired, and the next sweep deletes them.
    clock += 120_000;
    let answer = refused;
    for (let attempt = 0; attempt < 200 && answer[2] !== true; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await client.publish(sized(secret, 10_000));
    }
    expect(answer[2], String(answer[3])).toBe(true);
  });

  it('counts the SQLite store on start, and a duplicate found only by the store costs nothing', async () => {
    const path = join(dir, 'account.db');
    const secret = newSecret();
    const stored = sized(secret, 10_000);
    relay = await startRelay({ store: new SqliteEventStore({ path }) });
    client = await TestClient.connect(relay.url);
    expect((await client.publish(stored))[2]).toBe(true);
    client.close();
    await relay.close();
    const quota = bytesOf(stored) + 5_000;
    relay = await startRelay({ store: new SqliteEventStore({ path }), maxStoredBytesPerKey: quota });
    client = await TestClient.connect(relay.url);
    // A new relay does not remember the id: the store answers that it is a duplicate.
    expect((await client.publish(stored))[3]).toMatch(/^duplicate: /);
    const next = sized(secret, 10_000);
    const refused = await client.publish(next);
    expect(refused[2]).toBe(false);
    expect(refused[3]).toContain(
      `the key holds ${bytesOf(stored)} bytes of events; this one is ${bytesOf(next)} bytes and the quota is ${quota} bytes per key`,
    );
  });

  it('refuses an event larger than the quota itself as too-large', async () => {
    relay = await startRelay({ maxStoredBytesPerKey: 5_000 });
    client = await TestClient.connect(relay.url);
    const event = sized(newSecret(), 10_000);
    expect((await client.publish(event))[3]).toBe(
      `too-large: event is ${bytesOf(event)} bytes; this relay stores at most 5000 bytes of events per key (--max-bytes-per-key)`,
    );
  });

  it('refuses options that are not positive integers, and allowed origins that are not origins', async () => {
    await expect(startRelay({ maxStoredBytes: 0 })).rejects.toThrow(
      'maxStoredBytes must be a positive integer, got 0',
    );
    await expect(startRelay({ maxConnectionsPerIp: 1.5 })).rejects.toThrow(
      'maxConnectionsPerIp must be a positive integer, got 1.5',
    );
    await expect(startRelay({ allowedOrigins: ['HTTP://Example.com:80'] })).rejects.toThrow(
      'allowedOrigins: expects an origin (scheme://host[:port], nothing after it), got "HTTP://Example.com:80"; did you mean "http://example.com"?',
    );
  });
});
