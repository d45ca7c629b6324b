import { describe, expect, it } from 'vitest';
import { type FilterableEvent, matchesAny, matchesFilter, parseFilter } from '../src/index.js';

const limits = { maxValues: 3, maxLimit: 500 };
const event: FilterableEvent = {
  id: 'i1',
  pubkey: 'ed25519:a',
  kind: 'com.test.echo',
  created_at: 100,
  tags: [
    ['p', 'ed25519:b'],
    ['e', 'r1'],
  ],
};

describe('filters', () => {
  it('parses the eight fields and clamps limit', () => {
    expect(parseFilter({ kinds: ['k'], '#p': ['x'], since: 1, until: 2, limit: 9000 }, limits)).toEqual({
      ok: true,
      filter: { kinds: ['k'], '#p': ['x'], since: 1, until: 2, limit: 500 },
    });
    expect(parseFilter({}, limits)).toEqual({ ok: true, filter: { limit: 500 } });
  });

  it.each([
    [[], 'a filter must be an object, got an array'],
    [
      { search: 'x' },
      'unsupported filter field "search"; expected one of ids, authors, kinds, #p, #e, since, until, limit',
    ],
    [{ ids: [1] }, 'filter field ids must be an array of strings'],
    [{ kinds: ['a', 'b', 'c', 'd'] }, 'filter field kinds has 4 values; the limit is 3'],
    [{ since: -1 }, 'filter field since must be a non-negative integer'],
  ])('refuses %j', (value, reason) => {
    expect(parseFilter(value, limits)).toEqual({ ok: false, reason });
  });

  it('ANDs fields, ORs values and filters', () => {
    expect(matchesFilter(event, { kinds: ['x', 'com.test.echo'], authors: ['ed25519:a'] })).toBe(true);
    expect(matchesFilter(event, { kinds: ['com.test.echo'], authors: ['ed25519:z'] })).toBe(false);
    expect(matchesFilter(event, { '#p': ['ed25519:b'], '#e': ['r1'] })).toBe(true);
    expect(matchesFilter(event, { '#e': ['r2'] })).toBe(false);
    expect(matchesFilter(event, { since: 100, until: 100 })).toBe(true);
    expect(matchesFilter(event, { since: 101 })).toBe(false);
    expect(matchesAny(event, [{ ids: ['no'] }, { ids: ['i1'] }])).toBe(true);
    expect(matchesAny(event, [{ ids: ['no'] }])).toBe(false);
  });
});
