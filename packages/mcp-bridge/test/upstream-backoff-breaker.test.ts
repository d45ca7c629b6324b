// Unit tests of the restart backoff and the crash-loop breaker (pure, with a fake clock).
import { describe, expect, it } from 'vitest';
import { backoffDelay, CrashBreaker } from '../src/index.js';

describe('backoffDelay', () => {
  it('doubles from minMs, caps at maxMs, and keeps the jitter within [half, whole]', () => {
    const opts = { minMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5, 50].map((n) => backoffDelay(n, { ...opts, random: () => 0 }))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    expect([1, 2, 3, 4, 5, 50].map((n) => backoffDelay(n, { ...opts, random: () => 0.999999 }))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(3, opts);
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });
});

describe('CrashBreaker', () => {
  it('opens after maxCrashes within the window, closes after the cool-down, reopens on the first crash after it', () => {
    let now = 1_000_000;
    const breaker = new CrashBreaker({ maxCrashes: 3, windowMs: 1000, cooldownMs: 5000, now: () => now });
    expect(breaker.crashed()).toBe(false);
    now += 600;
    expect(breaker.crashed()).toBe(false);
    now += 600; // the first crash left the window
    expect(breaker.crashed()).toBe(false);
    expect(breaker.openUntil()).toBeUndefined();
    expect(breaker.crashed()).toBe(true);
    expect(breaker.openUntil()).toBe(now + 5000);
    now += 5000;
    expect(breaker.openUntil()).toBeUndefined();
    // Half-open: one crash before a healthy session reopens it.
    expect(breaker.crashed()).toBe(true);
    now += 5000;
    expect(breaker.openUntil()).toBeUndefined();
    breaker.healthy();
    expect(breaker.crashed()).toBe(false);
  });

  it('refuses a maxCrashes below 1', () => {
    expect(() => new CrashBreaker({ maxCrashes: 0 })).toThrow('maxCrashes: expected at least 1, got 0');
  });
});
