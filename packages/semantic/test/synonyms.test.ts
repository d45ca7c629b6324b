import { describe, expect, it } from 'vitest';
import { _SYNONYMS } from '../src/_synonyms.data.js';
import { synonymsOf, ToolIndex, tokenizeForSearch } from '../src/search.js';

describe('synonymsOf (WordNet table)', () => {
  it('gives the first sense apart from the next senses, as search terms', () => {
    const fetch = synonymsOf('fetch')!;
    expect(fetch.first).toContain('get');
    expect(fetch.first).toContain('bring');
    const car = synonymsOf(tokenizeForSearch('car')[0]!)!;
    expect(car.first).toContain(tokenizeForSearch('automobile')[0]);
    expect(synonymsOf('zzqx')).toBeUndefined();
  });

  it('holds well-formed rows: stemmed terms, never the key itself, at most 12, no duplicates', () => {
    const lines = _SYNONYMS.split('\n');
    expect(lines.length).toBeGreaterThan(10_000);
    for (const line of lines) {
      const [key, ...rest] = line.split(' ');
      expect(rest.length, line).toBeLessThanOrEqual(2);
      const set = synonymsOf(key!)!;
      const all = [...set.first, ...set.other];
      expect(all.length, line).toBeGreaterThan(0);
      expect(all.length, line).toBeLessThanOrEqual(12);
      expect(new Set(all).size, line).toBe(all.length);
      expect(all, line).not.toContain(key);
      for (const term of [key!, ...all]) expect(term, line).toMatch(/^[a-z]+$/);
    }
  });

  it('expands queries only when asked, and only below the query words', () => {
    const docs = [
      { id: 'a.rent_bicycle', name: 'rent_bicycle', description: 'Rent a bicycle' },
      { id: 'b.rent_automobile', name: 'rent_automobile', description: 'Rent an automobile' },
    ];
    const plain = new ToolIndex({ vectorWeight: 0, embedder: null });
    plain.add(docs);
    expect(plain.search('rent a car').map((h) => h.id)[0]).toBe('a.rent_bicycle');
    const expanded = new ToolIndex({ vectorWeight: 0, embedder: null, synonyms: { first: 0.5 } });
    expanded.add(docs);
    expect(expanded.search('rent a car').map((h) => h.id)[0]).toBe('b.rent_automobile');
    // A tool named by the query's own word stays ahead of one reached through a synonym.
    expect(expanded.search('rent an automobile').map((h) => h.id)[0]).toBe('b.rent_automobile');
    expect(expanded.search('rent a bicycle').map((h) => h.id)[0]).toBe('a.rent_bicycle');
  });

  it('validates the weights', () => {
    expect(() => new ToolIndex({ synonyms: { first: -1 } })).toThrow(/synonyms\.first/);
    expect(() => new ToolIndex({ synonyms: { other: Number.NaN } })).toThrow(/synonyms\.other/);
  });
});
