import { describe, expect, it } from 'vitest';
import { isRetryableReason, REASON_PREFIXES, reason, reasonPrefixOf, retryAfterOf } from '../src/index.js';

describe('reasons', () => {
  it('lists the six prefixes of docs/protocol.md §9', () => {
    expect(REASON_PREFIXES).toEqual([
      'invalid',
      'duplicate',
      'rate-limited',
      'restricted',
      'too-large',
      'error',
    ]);
  });

  it('builds and reads a prefix', () => {
    for (const prefix of REASON_PREFIXES) expect(reasonPrefixOf(reason(prefix, 'x'))).toBe(prefix);
    expect(reasonPrefixOf('no prefix here')).toBeUndefined();
    expect(reasonPrefixOf('maybe: not a known prefix')).toBeUndefined();
  });

  it('retries rate-limited and error refusals only, and reads the retry-after hint', () => {
    expect(isRetryableReason('rate-limited: slow down: retry after 3 s')).toBe(true);
    expect(isRetryableReason('error: could not store')).toBe(true);
    expect(isRetryableReason('invalid: bad id')).toBe(false);
    expect(isRetryableReason('')).toBe(false);
    expect(retryAfterOf('rate-limited: slow down: retry after 3 s')).toBe(3);
    expect(retryAfterOf('rate-limited: slow down')).toBeUndefined();
  });
});
