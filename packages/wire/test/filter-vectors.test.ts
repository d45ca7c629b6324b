/**
 * The `match` column of testdata/vectors/xp-relay-filters.json (docs/protocol.md §9.3) against
 * this package's filter parser and matcher: for each case, exactly the listed events match one of
 * its filters. Events stand in with made-up ids: matching never reads a signature.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type FilterableEvent, matchesAny, parseFilter } from '../src/index.js';

interface Spec {
  key: string;
  kind: string;
  created_at_offset: number;
  tags: string[][];
}
interface FiltersFile {
  keys: Record<string, { pubkey: string }>;
  events: Record<string, Spec>;
  stored: { name: string; filters: unknown[]; match: string[] }[];
}

const file = JSON.parse(
  readFileSync(new URL('../../../testdata/vectors/xp-relay-filters.json', import.meta.url), 'utf8'),
) as FiltersFile;
const NOW = 1_764_000_000;
const RUN = '0123456789abcdef0123456789abcdef';
const LIMITS = { maxValues: 1000, maxLimit: 500 };

const events = new Map<string, FilterableEvent>(
  Object.entries(file.events).map(([name, spec]) => [
    name,
    {
      id: createHash('sha256').update(name).digest('hex'),
      pubkey: file.keys[spec.key]!.pubkey,
      kind: spec.kind,
      created_at: NOW + spec.created_at_offset,
      tags: spec.tags.map((tag) => tag.map((value) => value.replace('{run}', RUN))),
    },
  ]),
);

/** The file's placeholders, filled for these stand-in events. */
function fill(value: unknown): unknown {
  if (typeof value === 'string') {
    const now = /^\{now([+-]\d+)\}$/.exec(value);
    if (now) return NOW + Number(now[1]);
    return value
      .replace(/\{run\}/g, RUN)
      .replace(/\{(n\d)\.id(_prefix|_upper)?\}/g, (_, name: string, form?: string) => {
        const id = events.get(name)!.id;
        return form === '_prefix' ? id.slice(0, 16) : form === '_upper' ? id.toUpperCase() : id;
      });
  }
  if (Array.isArray(value)) return value.map(fill);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
  }
  return value;
}

describe('filter vectors: which events a REQ matches (docs/protocol.md §9.3)', () => {
  for (const testCase of file.stored) {
    it(testCase.name, () => {
      const filters = (fill(testCase.filters) as unknown[]).map((raw) => {
        const parsed = parseFilter(raw, LIMITS);
        if (!parsed.ok) throw new Error(parsed.reason);
        return parsed.filter;
      });
      const matched = [...events].filter(([, event]) => matchesAny(event, filters)).map(([name]) => name);
      expect(matched).toEqual([...testCase.match].sort());
    });
  }
});
