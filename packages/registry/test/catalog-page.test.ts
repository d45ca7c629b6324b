import { type SchemaContract, serializeContract } from '@xprotocol/translate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  catalogPage,
  parseCatalogRequest,
  Registry,
  RegistryError,
  serializeCatalogPage,
} from '../src/index.js';
import { recorded, tool, translate } from './_fixtures.js';

function collect(
  catalog: Registry | SchemaContract[],
  limit: number,
  kinds?: string[],
  maxBytes?: number,
): string[] {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10_000; i++) {
    const page = catalogPage(
      catalog,
      { limit, ...(cursor !== undefined ? { cursor } : {}), ...(kinds ? { kinds } : {}) },
      maxBytes !== undefined ? { maxBytes } : {},
    );
    seen.push(...page.contracts.map((c) => c.kind));
    if (page.next_cursor === undefined) return seen;
    cursor = page.next_cursor;
  }
  throw new Error('paging did not end');
}

describe('xp.schema.catalog pages (docs/design.md §10)', async () => {
  const registry = new Registry();
  const { tools } = recorded('cloudflare__mcp-server-cloudflare.json');
  await registry.refreshSource('cloudflare', translate('cloudflare', 'com.test.cf', tools));
  const all = registry.contracts().map((c) => c.kind);

  it('covers every contract exactly once, sorted by kind, for any page size (cloudflare__mcp-server-cloudflare.json)', () => {
    expect(all.length).toBe(89);
    expect([...all].sort()).toEqual(all);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (limit) => {
        expect(collect(registry, limit)).toEqual(all);
      }),
      { numRuns: 30, seed: 3 },
    );
  });
  it('is deterministic: the same request gives the same bytes, whatever the input order', () => {
    const shuffled = [...registry.contracts()].reverse();
    const a = serializeCatalogPage(catalogPage(registry, { limit: 7 }));
    const b = serializeCatalogPage(catalogPage(shuffled, { limit: 7 }));
    expect(a).toBe(b);
    const page = JSON.parse(a) as { contracts: unknown[]; next_cursor: string; total: number };
    expect(page.total).toBe(89);
    expect(page.contracts).toHaveLength(7);
    expect(page.next_cursor).toBe(`after:${all[6]}`);
  });
  it('filters by kind and prefix pattern; total counts the matches', () => {
    const first = catalogPage(registry, { kinds: [all[0] as string] });
    expect(first).toMatchObject({ total: 1 });
    expect(first.next_cursor).toBeUndefined();
    expect(catalogPage(registry, { kinds: ['com.test.cf.*'] }).total).toBe(89);
    expect(catalogPage(registry, { kinds: ['com.other.*'] })).toEqual({ contracts: [], total: 0 });
  });
  it('a cursor stays meaningful when the catalog changes between pages', async () => {
    const r = new Registry();
    await r.refreshSource(
      's',
      translate(
        's',
        'n.s',
        ['a_x', 'c_x', 'e_x'].map((n) => tool(n, `${n} tool`)),
      ),
    );
    const first = catalogPage(r, { limit: 2 });
    expect(first.contracts.map((c) => c.kind)).toEqual(['n.s.a_x', 'n.s.c_x']);
    await r.refreshSource(
      's',
      translate(
        's',
        'n.s',
        ['a_x', 'b_x', 'd_x', 'e_x'].map((n) => tool(n, `${n} tool`)),
      ),
    );
    const second = catalogPage(r, { limit: 2, ...(first.next_cursor ? { cursor: first.next_cursor } : {}) });
    expect(second.contracts.map((c) => c.kind)).toEqual(['n.s.d_x', 'n.s.e_x']);
  });
  it('keeps a page under the byte budget, with at least one contract per page', () => {
    const sizes = registry.contracts().map((c) => new TextEncoder().encode(serializeContract(c)).length);
    const budget = Math.max(...sizes) + 10;
    const page = catalogPage(registry, { limit: 500 }, { maxBytes: budget });
    const used = page.contracts.reduce(
      (n, c) => n + new TextEncoder().encode(serializeContract(c)).length,
      0,
    );
    expect(used).toBeLessThanOrEqual(budget);
    expect(collect(registry, 500, undefined, budget)).toEqual(all);
    expect(catalogPage(registry, {}, { maxBytes: 1 }).contracts).toHaveLength(1);
  });
  it('parses requests and refuses malformed ones, saying what was expected', () => {
    expect(parseCatalogRequest(undefined)).toEqual({});
    expect(parseCatalogRequest({ cursor: 'after:a.b', limit: 5, kinds: ['a.*'] })).toEqual({
      cursor: 'after:a.b',
      limit: 5,
      kinds: ['a.*'],
    });
    const bad: [unknown, RegExp][] = [
      [[], /expected an object/],
      [{ cursor: 'a.b' }, /cursor: expected a next_cursor/],
      [{ limit: 0 }, /limit: expected an integer from 1 to 500, got 0/],
      [{ limit: 1.5 }, /limit/],
      [{ kinds: ['*'] }, /kinds/],
      [{ kinds: 'a' }, /kinds/],
      [{ page: 2 }, /unknown field "page"/],
      [{ revision: '2025-11-25' }, /revision: expected one of 2026-07-28, got "2025-11-25"/],
    ];
    for (const [payload, message] of bad) {
      expect(() => parseCatalogRequest(payload), JSON.stringify(payload)).toThrow(message);
      try {
        parseCatalogRequest(payload);
      } catch (error) {
        expect(error).toBeInstanceOf(RegistryError);
        expect((error as RegistryError).code).toBe('INVALID_CATALOG_REQUEST');
      }
    }
  });
  it("takes a revision, and names a revision's own catalog in the page's sorted members (docs/protocol.md §10.8)", () => {
    expect(parseCatalogRequest({ revision: '2026-07-28' })).toEqual({ revision: '2026-07-28' });
    const page = { contracts: [], total: 0, next_cursor: 'after:a.b' };
    const plain = serializeCatalogPage(page);
    expect(plain).toBe('{"contracts":[],"next_cursor":"after:a.b","total":0}');
    expect(serializeCatalogPage({ ...page, instructions: 'x', revisions: ['2026-07-28'] })).toBe(
      '{"contracts":[],"instructions":"x","next_cursor":"after:a.b","revisions":["2026-07-28"],"total":0}',
    );
  });
});
