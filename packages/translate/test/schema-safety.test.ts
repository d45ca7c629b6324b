import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJsonSafety, checkSchemaSafety, DEFAULT_SCHEMA_LIMITS } from '../src/index.js';

function refusal(schema: unknown, base = '/inputSchema') {
  const r = checkSchemaSafety(schema, { base });
  if (r.ok) throw new Error(`expected a refusal for ${JSON.stringify(schema)}`);
  return r;
}

describe('schema safety (docs/design.md §11)', () => {
  it('refuses remote references, naming the pointer', () => {
    for (const ref of ['https://evil.example/s.json', 'other.json#/x', '//host/x', 'urn:x:y']) {
      const r = refusal({ type: 'object', properties: { a: { $ref: ref } } });
      expect(r.pointer).toBe('/inputSchema/properties/a/$ref');
      expect(r.reason).toMatch(/remote reference/);
    }
  });
  it('accepts local references, including through $defs, definitions and anchors', () => {
    expect(
      checkSchemaSafety({ $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s' } } }),
    ).toEqual({ ok: true, recursive: false });
    expect(
      checkSchemaSafety({
        definitions: { 'a/b': { type: 'string' } },
        properties: { a: { $ref: '#/definitions/a~1b' } },
      }).ok,
    ).toBe(true);
    expect(
      checkSchemaSafety({ $defs: { s: { $anchor: 'str', type: 'string' } }, items: { $ref: '#str' } }).ok,
    ).toBe(true);
    expect(
      checkSchemaSafety({ $defs: { 'a b': { type: 'string' } }, items: { $ref: '#/$defs/a%20b' } }).ok,
    ).toBe(true);
    expect(
      checkSchemaSafety({
        $id: 'https://x.example/root',
        $defs: { s: {} },
        items: { $ref: 'https://x.example/root#/$defs/s' },
      }).ok,
    ).toBe(true);
    // a reference into a location no keyword reaches (OpenAPI-style components) is walked too
    expect(
      checkSchemaSafety({ components: { s: { type: 'string' } }, items: { $ref: '#/components/s' } }).ok,
    ).toBe(true);
  });
  it('refuses references that do not resolve', () => {
    expect(refusal({ items: { $ref: '#/$defs/missing' } }).reason).toMatch(/does not resolve/);
    expect(refusal({ items: { $ref: '#nowhere' } }).reason).toMatch(/names no anchor/);
    expect(refusal({ enum: [1], items: { $ref: '#/enum/0' } }).reason).toMatch(/not a schema/);
    expect(refusal({ items: { $ref: 5 } }).pointer).toBe('/inputSchema/items/$ref');
  });
  it('allows guarded recursion (a tree) and reports it', () => {
    const tree = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } };
    expect(checkSchemaSafety(tree)).toEqual({ ok: true, recursive: true });
    const viaDefs = {
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      $ref: '#/$defs/node',
    };
    expect(checkSchemaSafety(viaDefs)).toEqual({ ok: true, recursive: true });
  });
  it('refuses unguarded recursion: a reference cycle that never steps into a child value', () => {
    expect(refusal({ $ref: '#' }, '').reason).toMatch(/unguarded recursion/);
    const viaAllOf = {
      $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } },
      $ref: '#/$defs/a',
    };
    const r = refusal(viaAllOf);
    expect(r.reason).toMatch(/\/inputSchema\/\$defs\/a -> .*\/inputSchema\/\$defs\/a/);
    expect(refusal({ not: { $ref: '#' } }).reason).toMatch(/unguarded/);
  });
  it('refuses embedded schema resources (a non-fragment $id below the root)', () => {
    const r = refusal({ properties: { a: { $id: 'https://x.example/a', type: 'string' } } });
    expect(r.pointer).toBe('/inputSchema/properties/a/$id');
  });
  it('refuses __proto__, constructor and prototype keys anywhere', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const schema = JSON.parse(
        `{"type":"object","properties":{"x":{"default":{"${key}":{"polluted":true}}}}}`,
      );
      const r = refusal(schema);
      expect(r.pointer).toBe(`/inputSchema/properties/x/default/${key}`);
      expect(r.reason).toContain(`"${key}"`);
    }
  });
  it('refuses values that are not JSON', () => {
    const cases: [unknown, RegExp][] = [
      [{ a: undefined }, /undefined is not a JSON value/],
      [{ a: () => 1 }, /function is not a JSON value/],
      [{ a: Number.NaN }, /NaN is not a JSON number/],
      [{ a: Number.POSITIVE_INFINITY }, /Infinity/],
      [{ a: new Date(0) }, /not a plain JSON object/],
      [{ a: new Map() }, /not a plain JSON object/],
      [{ a: new Array(3) }, /sparse array/],
      [{ a: 2 ** 60 }, /outside ±\(2\^53-1\)/],
      [{ a: '\ud800' }, /lone surrogate/],
      [{ a: 10n }, /bigint is not a JSON value/],
    ];
    for (const [value, reason] of cases) {
      const r = checkJsonSafety(value);
      expect(r.ok, String(reason)).toBe(false);
      if (!r.ok) {
        expect(r.reason).toMatch(reason);
        expect(r.pointer.startsWith('/a')).toBe(true);
      }
    }
  });
  it('refuses nesting deeper than the limit and schemas over the size limit', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < DEFAULT_SCHEMA_LIMITS.maxDepth; i++) deep = { items: deep };
    expect(refusal(deep).reason).toMatch(/nesting deeper than 32 levels/);
    const big = { type: 'object', description: 'x'.repeat(DEFAULT_SCHEMA_LIMITS.maxBytes) };
    expect(refusal(big).reason).toMatch(/over the 262144-byte limit/);
    const limits = { maxDepth: 4, maxBytes: 100 };
    expect(checkSchemaSafety({ properties: { a: { description: 'é'.repeat(50) } } }, { limits }).ok).toBe(
      false,
    );
    // four levels of objects: root, properties, a, items
    expect(checkSchemaSafety({ properties: { a: { items: { type: 'string' } } } }, { limits }).ok).toBe(true);
    expect(checkSchemaSafety({ properties: { a: { items: { items: {} } } } }, { limits })).toMatchObject({
      ok: false,
      pointer: '/properties/a/items/items',
    });
  });
  it('refuses a schema that is neither an object nor a boolean', () => {
    expect(refusal('string', '').reason).toMatch(/expected a schema/);
    expect(checkSchemaSafety(true)).toEqual({ ok: true, recursive: false });
  });
  it('never throws on arbitrary JSON (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const r = checkSchemaSafety(value);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
