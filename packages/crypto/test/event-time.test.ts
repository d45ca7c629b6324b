/** Freshness window and expiry (docs/protocol.md §4), with "now" passed in: deterministic. */
import { describe, expect, it } from 'vitest';
import {
  checkFreshness,
  DEFAULT_MAX_AGE_SECONDS,
  DEFAULT_MAX_FUTURE_SECONDS,
  isExpired,
} from '../src/index.js';

const NOW = 1_700_000_000;

describe('checkFreshness', () => {
  it('defaults to 300 s ahead and 3600 s behind, bounds included', () => {
    expect([DEFAULT_MAX_FUTURE_SECONDS, DEFAULT_MAX_AGE_SECONDS]).toEqual([300, 3600]);
    expect(checkFreshness({ created_at: NOW }, NOW)).toBe('ok');
    expect(checkFreshness({ created_at: NOW + 300 }, NOW)).toBe('ok');
    expect(checkFreshness({ created_at: NOW + 301 }, NOW)).toBe('future');
    expect(checkFreshness({ created_at: NOW - 3600 }, NOW)).toBe('ok');
    expect(checkFreshness({ created_at: NOW - 3601 }, NOW)).toBe('stale');
  });
  it('takes a custom window (e.g. a relay with --retention 60)', () => {
    const window = { maxFutureSeconds: 5, maxAgeSeconds: 60 };
    expect(checkFreshness({ created_at: NOW + 6 }, NOW, window)).toBe('future');
    expect(checkFreshness({ created_at: NOW - 61 }, NOW, window)).toBe('stale');
    expect(checkFreshness({ created_at: NOW - 60 }, NOW, window)).toBe('ok');
    expect(checkFreshness({ created_at: NOW + 1 }, NOW, { maxFutureSeconds: 0 })).toBe('future');
  });
});

describe('isExpired', () => {
  const tags = [['expiration', String(NOW)]];
  it('is false without an expiration tag', () =>
    expect(isExpired({ tags: [['p', 'x']] }, NOW + 10 ** 9)).toBe(false));
  it('is false up to and including the expiration second, true after it', () => {
    expect(isExpired({ tags }, NOW - 1)).toBe(false);
    expect(isExpired({ tags }, NOW)).toBe(false);
    expect(isExpired({ tags }, NOW + 1)).toBe(true);
  });
});
