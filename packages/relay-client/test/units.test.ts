import { describe, expect, it } from 'vitest';
import { reconnectDelay, SeenIds } from '../src/index.js';

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
