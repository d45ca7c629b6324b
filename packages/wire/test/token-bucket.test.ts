import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../src/index.js';

describe('token buckets', () => {
  it('allows the capacity at once, then refills perMinute/60 a second', () => {
    const buckets = new TokenBuckets(60);
    for (let i = 0; i < 60; i++) expect(buckets.take('k', 0)).toEqual({ ok: true });
    expect(buckets.take('k', 0)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(buckets.take('k', 1000)).toEqual({ ok: true });
    expect(buckets.take('other', 0)).toEqual({ ok: true });
  });

  it('takes a cost of N tokens a call: 1/N of the rate, as N processes splitting one rate do', () => {
    const buckets = new TokenBuckets(60);
    for (let i = 0; i < 20; i++) expect(buckets.take('k', 0, 3)).toEqual({ ok: true });
    expect(buckets.take('k', 0, 3)).toEqual({ ok: false, retryAfterSeconds: 3 });
    expect(buckets.take('k', 2000, 3)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(buckets.take('k', 3000, 3)).toEqual({ ok: true });
    // A cost above the capacity is the capacity: a full bucket still lets one call through.
    expect(new TokenBuckets(2).take('k', 0, 5)).toEqual({ ok: true });
  });

  it('bounds the number of keys it tracks', () => {
    const buckets = new TokenBuckets(10, 4);
    for (let i = 0; i < 20; i++) buckets.take(`k${i}`, i);
    expect(buckets.size).toBeLessThanOrEqual(4);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new TokenBuckets(0)).toThrow('perMinute must be > 0, got 0');
  });
});
