/**
 * Every tool of the real MCP servers in testdata/mcp-servers (27 servers, 672 tools;
 * see testdata/SOURCES.md) compiles; fast-check generates instances of each input schema, ajv (the
 * adapter's validator) decides which are valid, and the grammar must accept every valid one (when
 * it is exact) and reject every mutated instance ajv rejects (always: soundness).
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MCP_SERVERS as DIR } from '../scripts/_testdata.mjs';
import { ajvFor } from '../scripts/ajv-for.mjs';
import { compileMatcher, compileSchema } from '../src/index.js';

interface Tool {
  readonly id: string;
  readonly schema: Record<string, unknown>;
}

const tools: Tool[] = [];
function collect(v: unknown, file: string): void {
  if (Array.isArray(v)) {
    for (const x of v) collect(x, file);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  if (Array.isArray(o.tools)) {
    for (const t of o.tools as Record<string, unknown>[]) {
      if (t && typeof t.inputSchema === 'object')
        tools.push({ id: `${file}#${String(t.name)}`, schema: t.inputSchema as Record<string, unknown> });
    }
    return;
  }
  for (const x of Object.values(o)) collect(x, file);
}
for (const f of readdirSync(DIR).sort()) collect(JSON.parse(readFileSync(new URL(f, DIR), 'utf8')), f);

type S = Record<string, unknown>;
const SAMPLES: Record<string, string[]> = {
  'date-time': ['2024-02-29T10:20:30Z', '2023-01-01T00:00:00.5+02:00'],
  date: ['2024-02-29', '1999-12-31'],
  time: ['10:20:30Z'],
  uri: ['https://example.com/a?b=c#d', 'urn:x:y'],
  url: ['https://example.com/path'],
  email: ['a.b@example.com'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000'],
  ipv4: ['10.0.0.1'],
  hostname: ['example.com'],
};

/** A generator of (mostly valid) instances for the schema subset the MCP tools use. */
function arb(schema: unknown, root: S, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true || schema === undefined) return fc.constantFrom(1, 'x', null, true);
  if (schema === false || schema === null || typeof schema !== 'object') return fc.constant(null);
  const s = schema as S;
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#')) {
    let cur: unknown = root;
    for (const seg of s.$ref.slice(2).split('/').filter(Boolean))
      cur = (cur as S)?.[decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~')];
    return depth > 4 ? fc.constant(null) : arb(cur, root, depth + 1);
  }
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[k]))
      return fc.oneof(
        ...(s[k] as unknown[]).map((b) => arb({ ...s, [k]: undefined, ...(b as S) }, root, depth + 1)),
      );
  }
  const types = Array.isArray(s.type)
    ? (s.type as string[])
    : typeof s.type === 'string'
      ? [s.type]
      : s.properties
        ? ['object']
        : ['string', 'integer', 'boolean'];
  return fc.oneof(...types.map((t) => arbType(t, s, root, depth)));
}

function arbType(t: string, s: S, root: S, depth: number): fc.Arbitrary<unknown> {
  switch (t) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min =
        typeof s.minimum === 'number'
          ? Math.ceil(s.minimum)
          : typeof s.exclusiveMinimum === 'number'
            ? Math.floor(s.exclusiveMinimum) + 1
            : -1000;
      const max =
        typeof s.maximum === 'number'
          ? Math.floor(s.maximum)
          : typeof s.exclusiveMaximum === 'number'
            ? Math.ceil(s.exclusiveMaximum) - 1
            : 1000;
      const ints = fc.integer({ min: Math.max(min, -1e6), max: Math.min(max, 1e6) });
      return t === 'integer'
        ? ints
        : fc.oneof(
            ints,
            ints.map((i) => i + 0.25),
          );
    }
    case 'string': {
      const f = typeof s.format === 'string' ? SAMPLES[s.format] : undefined;
      if (f) return fc.constantFrom(...f);
      if (typeof s.pattern === 'string') {
        try {
          return fc.stringMatching(new RegExp(s.pattern, 'u'), { maxLength: 20 });
        } catch {
          return fc.string();
        }
      }
      const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
      const maxLength = Math.max(
        minLength,
        Math.min(typeof s.maxLength === 'number' ? s.maxLength : 12, minLength + 12),
      );
      return fc.string({
        minLength,
        maxLength,
        unit: fc.constantFrom('a', 'é', '"', '\\', '\n', '😀', ' ', '/'),
      });
    }
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.max(
        minLength,
        Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, minLength + 3),
      );
      return fc.array(arb(s.items, root, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const props = (s.properties ?? {}) as S;
      const required = new Set((s.required ?? []) as string[]);
      const entries = Object.keys(props).map((k) => {
        const v = arb(props[k], root, depth + 1);
        return required.has(k)
          ? v.map((x) => [k, x] as const)
          : fc.option(
              v.map((x) => [k, x] as const),
              { nil: undefined },
            );
      });
      return fc
        .tuple(...entries)
        .map((kvs) => Object.fromEntries(kvs.filter((kv) => kv !== undefined) as [string, unknown][]));
    }
    default:
      return fc.constant(null);
  }
}

/** Small edits that usually make an instance invalid. */
function mutate(v: unknown, choice: number): unknown {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = { ...(v as S) };
    const keys = Object.keys(o);
    if (choice % 4 === 0 && keys.length > 0) delete o[keys[choice % keys.length]!];
    else if (choice % 4 === 1) o.zzUnexpected = 1;
    else if (keys.length > 0) {
      const k = keys[choice % keys.length]!;
      o[k] = [123, 'x', null, true, [], {}][choice % 6];
    } else return [];
    return o;
  }
  if (Array.isArray(v)) return choice % 2 === 0 ? [...v, v[0] ?? 1] : v.slice(1);
  if (typeof v === 'string')
    return choice % 2 === 0
      ? `${v}~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~`
      : 7;
  if (typeof v === 'number') return choice % 2 === 0 ? v * 1e6 + 0.5 : 'n';
  return { v };
}

const grammars = new Map<string, ReturnType<typeof compileSchema>>();

describe('compileSchema on the MCP tool corpus', () => {
  it('compiles every one of the 672 tools (672/672)', () => {
    expect(tools.length).toBe(672);
    const failed: string[] = [];
    for (const t of tools) {
      try {
        grammars.set(t.id, compileSchema(t.schema));
      } catch (e) {
        failed.push(`${t.id}: ${(e as Error).message}`);
      }
    }
    // every tool compiles; firecrawl_search_feedback's searchId (a `pattern` and `format: "uuid"`
    // on one string) compiles through the exact intersection of the two automata
    expect(failed).toEqual([]);
    expect(grammars.size).toBe(672);
  });

  const servers = [...new Set(tools.map((t) => t.id.split('#')[0]!))];
  let checkedValid = 0;
  let checkedInvalid = 0;
  it.each(servers)(
    '%s: accepts generated valid instances (exact grammars), rejects mutated ones ajv rejects',
    (server) => {
      for (const [i, t] of tools.entries()) {
        if (!t.id.startsWith(`${server}#`)) continue;
        const compiled = grammars.get(t.id);
        if (compiled === undefined) continue;
        const valid = ajvFor(t.schema);
        if (valid === undefined) continue;
        const m = compileMatcher(compiled.gbnf);
        fc.assert(
          fc.property(arb(t.schema, t.schema), fc.nat(), (x, choice) => {
            if (valid(x)) {
              checkedValid++;
              if (compiled.exact) {
                expect(m(JSON.stringify(x)), `${t.id} valid ${JSON.stringify(x)}`).toBe(true);
                expect(m(JSON.stringify(x, null, 2)), `${t.id} valid (indented)`).toBe(true);
              }
            }
            const bad = mutate(x, choice);
            if (!valid(bad)) {
              checkedInvalid++;
              expect(m(JSON.stringify(bad)), `${t.id} invalid ${JSON.stringify(bad)}`).toBe(false);
            }
          }),
          { numRuns: 2, seed: 1000 + i },
        );
      }
    },
    120_000,
  );

  it('checked enough instances both ways', () => {
    expect(checkedValid).toBeGreaterThan(600);
    expect(checkedInvalid).toBeGreaterThan(600);
  });
});
