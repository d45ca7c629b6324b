import { nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import { reconnectDelay, SeenIds } from '../src/index.js';
import { _rememberValidSignatures } from '../src/verified-signatures.js';

describe('reconnectDelay', () => {
  const options = { initialMs: 500, maxMs: 30_000 };
  it('doubles from the initial delay up to the maximum, with half of it jittered', () => {
    expect([0, 1, 2, 3].map((n) => reconnectDelay(n, options, () => 0))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2, 3].map((n) => reconnectDelay(n, options, () => 0.999999))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect(reconnectDelay(20, options, () => 0)).toBe(15_000);
    expect(reconnectDelay(1000, options, () => 0.999999)).toBe(30_000);
  });
});

describe('SeenIds', () => {
  it('reports duplicates, stays within capacity and forgets old ids', () => {
    const seen = new SeenIds(3);
    expect(seen.add('a', 10)).toBe(true);
    expect(seen.add('a', 10)).toBe(false);
    seen.add('b', 20);
    seen.add('c', 30);
    seen.add('d', 40);
    expect(seen.size).toBe(3);
    expect(seen.add('a', 10)).toBe(true); // 'a' was evicted as the oldest insertion; now b goes
    expect(seen.add('b', 20)).toBe(true);
    seen.forgetBefore(15); // drops a (10), keeps d (40) and b (20)
    expect(seen.size).toBe(2);
    expect(seen.add('d', 40)).toBe(false);
  });
});

describe('RelayPool connection errors', () => {
  it('reports an unreachable relay with the reason and the retry delay', async () => {
    const { RelayPool } = await import('../src/index.js');
    const reports: { url: string; reason: string; retryInMs: number }[] = [];
    const pool = await RelayPool.open({
      urls: ['ws://127.0.0.1:9'],
      reconnect: { initialMs: 100, maxMs: 100 },
      onConnectionError: (url, reason, retryInMs) => reports.push({ url, reason, retryInMs }),
    });
    while (reports.length === 0) await new Promise((r) => setTimeout(r, 10));
    await pool.close();
    expect(reports[0]).toMatchObject({
      url: 'ws://127.0.0.1:9',
      reason: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(reports[0]!.retryInMs).toBeGreaterThanOrEqual(50);
    expect(reports[0]!.retryInMs).toBeLessThanOrEqual(100);
  });
});

describe('RelayPool.connect and RelayPool.attempted', () => {
  it('connect rejects with UNREACHABLE and each relay reason once every relay failed an attempt', async () => {
    const { RelayClientError, RelayPool } = await import('../src/index.js');
    const urls = ['ws://127.0.0.1:9', 'ws://127.0.0.1:1'];
    const pool = await RelayPool.open({ urls, reconnect: { initialMs: 60_000, maxMs: 60_000 } });
    try {
      const error = await pool.connect(60_000).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RelayClientError);
      expect(error).toMatchObject({ code: 'UNREACHABLE' });
      const { reasons, message } = error as InstanceType<typeof RelayClientError>;
      expect(Object.keys(reasons).sort()).toEqual([...urls].sort());
      for (const url of urls) expect(reasons[url]).toMatch(/ECONNREFUSED/);
      expect(message).toMatch(
        /^cannot connect to any of 2 relays: ws:\/\/127\.0\.0\.1:9: connect ECONNREFUSED/,
      );
      // The long reconnect delay proves connect did not wait for a retry.
      expect(pool.relays().every((r) => r.attempted && r.state === 'waiting')).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('connect resolves once one relay opens while another is down; attempted reports both', async () => {
    const { RelayPool } = await import('../src/index.js');
    const { startRelay } = await import('@xprotocol/relay');
    const relay = await startRelay({ port: 0 });
    const pool = await RelayPool.open({
      urls: [relay.url, 'ws://127.0.0.1:9'],
      reconnect: { initialMs: 60_000, maxMs: 60_000 },
    });
    try {
      const relays = await pool.connect(60_000);
      expect(relays.find((r) => r.url === relay.url)?.state).toBe('open');
      const all = await pool.attempted(60_000);
      expect(all.find((r) => r.url === 'ws://127.0.0.1:9')).toMatchObject({
        attempted: true,
        state: 'waiting',
        lastError: expect.stringMatching(/ECONNREFUSED/),
      });
    } finally {
      await pool.close();
      await relay.close();
    }
  });

  it('connect rejects with CLOSED when the pool closes while it waits', async () => {
    const { RelayPool } = await import('../src/index.js');
    const pool = await RelayPool.open({ urls: ['ws://127.0.0.1:9'] });
    const waiting = pool.connect(60_000);
    await pool.close();
    await expect(waiting).rejects.toMatchObject({ code: 'CLOSED' });
  });
});

describe('_rememberValidSignatures', () => {
  it('verifies a signature once, never remembers an invalid one, and checks the id bytes and key too', () => {
    let calls = 0;
    const counting = {
      ...nodeSignatures,
      verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) {
        calls++;
        return nodeSignatures.verify(signature, message, publicKey);
      },
    };
    const backend = _rememberValidSignatures(counting, 2);
    const secretKey = new Uint8Array(32).fill(1);
    const publicKey = nodeSignatures.publicKey(secretKey);
    const message = new Uint8Array(32).fill(2);
    const signature = nodeSignatures.sign(message, secretKey);
    expect(backend.verify(signature, message, publicKey)).toBe(true);
    expect(backend.verify(signature, message, publicKey)).toBe(true);
    expect(calls).toBe(1);
    const other = new Uint8Array(32).fill(3);
    expect(backend.verify(signature, other, publicKey)).toBe(false);
    expect(backend.verify(signature, other, publicKey)).toBe(false);
    expect(calls).toBe(3);
    expect(backend.verify(signature, message, nodeSignatures.publicKey(other))).toBe(false);
    expect(calls).toBe(4);
  });
});
