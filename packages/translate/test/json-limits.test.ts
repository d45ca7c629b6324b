import { describe, expect, it } from 'vitest';
import { checkJsonLimits, DEFAULT_ARGUMENT_LIMITS } from '../src/index.js';

/** `{"a":{"a":…1…}}` nested `depth` levels, parsed (JSON.parse does not recurse on the stack). */
const nested = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

describe('checkJsonLimits', () => {
  it('measures 100,000 levels without overflowing the stack, and names the depth found and the limit', () => {
    const value = nested(100_000);
    expect(() => JSON.stringify(value)).toThrow(RangeError); // what it protects against
    expect(checkJsonLimits(value, DEFAULT_ARGUMENT_LIMITS)).toEqual({
      ok: false,
      limit: 'depth',
      max: 64,
      found: 100_000,
      message: 'the arguments: 100000 levels of nesting; the limit is 64',
    });
  });

  it('counts objects and arrays, not scalars', () => {
    expect(checkJsonLimits(1, DEFAULT_ARGUMENT_LIMITS)).toMatchObject({ ok: true, depth: 0, bytes: 1 });
    expect(checkJsonLimits({}, DEFAULT_ARGUMENT_LIMITS)).toMatchObject({ ok: true, depth: 1 });
    expect(checkJsonLimits({ a: [1, { b: [] }] }, DEFAULT_ARGUMENT_LIMITS)).toMatchObject({
      ok: true,
      depth: 4,
    });
    expect(checkJsonLimits(nested(64), DEFAULT_ARGUMENT_LIMITS).ok).toBe(true);
    expect(checkJsonLimits(nested(65), DEFAULT_ARGUMENT_LIMITS)).toMatchObject({ ok: false, found: 65 });
  });

  it('measures the size in UTF-8 bytes of the JSON text', () => {
    expect(checkJsonLimits({ s: 'é😀' }, { maxDepth: 8, maxBytes: 100 })).toMatchObject({ bytes: 14 });
    expect(checkJsonLimits({ s: 'x'.repeat(100) }, { maxDepth: 8, maxBytes: 100 })).toEqual({
      ok: false,
      limit: 'bytes',
      max: 100,
      found: 108,
      message: 'the arguments: 108 bytes of JSON; the limit is 100',
    });
  });

  it('stops on a cyclic value instead of looping', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(checkJsonLimits(a, { maxDepth: 1000, maxBytes: 10_000 })).toMatchObject({
      ok: false,
      limit: 'bytes',
    });
  });
});
