/**
 * A string constrained by several regular languages at once — a `pattern` and a `format`, two
 * patterns (through `allOf`), a pattern or format and a length — compiles to the exact
 * intersection (product of the automata). Checked against RegExp and ajv-formats as oracles, and
 * in llama.cpp itself.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMatcher, compileSchema, GbnfCompileError } from '../src/index.js';
import { llamaGrammar } from './support/llama.js';

type AjvLike = InstanceType<typeof Ajv>;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: AjvLike) => void;
const ajv = new Ajv({ strict: false, logger: false });
addFormats(ajv);

// firecrawl-mcp.json#firecrawl_search_feedback, properties.searchId
const SEARCH_ID = {
  type: 'string',
  format: 'uuid',
  pattern:
    '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$',
};

function compiled(schema: unknown) {
  const r = compileSchema(schema);
  return { ...r, m: compileMatcher(r.gbnf) };
}

describe('pattern ∩ format', () => {
  it('firecrawl_search_feedback searchId: pattern and format "uuid" compile exactly', () => {
    const { m, exact, warnings } = compiled(SEARCH_ID);
    expect(exact, warnings.join('\n')).toBe(true);
    const v = ajv.compile(SEARCH_ID);
    const samples = [
      '123e4567-e89b-42d3-a456-426614174000',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
      '123e4567-e89b-02d3-a456-426614174000',
      '123e4567-e89b-42d3-c456-426614174000',
      'urn:uuid:123e4567-e89b-42d3-a456-426614174000',
      '123e4567e89b42d3a456426614174000',
    ];
    for (const s of samples) expect(m(JSON.stringify(s)), s).toBe(v(s));
    const hex = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''));
    const part = (n: number) => fc.array(hex, { minLength: n, maxLength: n }).map((a) => a.join(''));
    fc.assert(
      fc.property(part(8), part(4), part(4), part(4), part(12), (a, b, c, d, e) => {
        const s = `${a}-${b}-${c}-${d}-${e}`;
        expect(m(JSON.stringify(s)), s).toBe(v(s));
      }),
      { numRuns: 300, seed: 11 },
    );
  });
  it('an empty intersection leaves no string (here: only null)', () => {
    const { m, exact } = compiled({ type: ['string', 'null'], format: 'date', pattern: '^[a-z]+$' });
    expect(m('null')).toBe(true);
    expect(m('"2024-01-01"')).toBe(false);
    expect(m('"abc"')).toBe(false);
    expect(exact).toBe(true);
    expect(() => compileSchema({ type: 'string', format: 'ipv4', pattern: '^x' })).toThrow(GbnfCompileError);
  });
});

describe('format or pattern ∩ length', () => {
  it('email with maxLength is exact', () => {
    const { m, exact } = compiled({ type: 'string', format: 'email', maxLength: 8 });
    expect(exact).toBe(true);
    expect(m('"a@b.cd"')).toBe(true);
    expect(m('"ab@cd.ef"')).toBe(true);
    expect(m('"abc@de.fg"')).toBe(false);
  });
  it('lengths count code points in every JSON spelling', () => {
    const { m, exact } = compiled({ type: 'string', pattern: '^a.b', minLength: 4, maxLength: 5 });
    expect(exact).toBe(true);
    for (const t of ['"a/bc"', '"a\\/bc"', '"a\\u00e9bcd"', '"a😀bc"', '"a\\ud83d\\ude00bc"'])
      expect(m(t), t).toBe(true);
    for (const t of ['"a/b"', '"a/bcde"', '"xa/bc"']) expect(m(t), t).toBe(false);
  });
});

describe('two patterns (allOf)', () => {
  const patterns = [
    '^[a-c]+$',
    'b',
    '^a',
    'c$',
    '^.{2,4}$',
    '^(ab|ba)*$',
    '[0-9]',
    '^[^b]*$',
    'a.c',
    '^\\w+$',
  ];
  it('the grammar accepts exactly what both regexes accept (RegExp as the oracle)', () => {
    for (const [i, p] of patterns.entries()) {
      for (const q of patterns.slice(i + 1)) {
        const schema = { type: 'string', allOf: [{ pattern: p }, { pattern: q }] };
        let r: ReturnType<typeof compiled>;
        try {
          r = compiled(schema);
        } catch (e) {
          // an empty intersection is UNSATISFIABLE: check no probe string satisfies both
          expect(e, `${p} ∩ ${q}`).toBeInstanceOf(GbnfCompileError);
          fc.assert(
            fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', '-', 'é') }), (s) => {
              expect(new RegExp(p, 'u').test(s) && new RegExp(q, 'u').test(s)).toBe(false);
            }),
            { numRuns: 100, seed: i },
          );
          continue;
        }
        expect(r.exact, `${p} ∩ ${q}: ${r.warnings.join('; ')}`).toBe(true);
        const rp = new RegExp(p, 'u');
        const rq = new RegExp(q, 'u');
        fc.assert(
          fc.property(
            fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', '-', 'é'), maxLength: 7 }),
            (s) => {
              expect(r.m(JSON.stringify(s)), `${p} ∩ ${q} on ${JSON.stringify(s)}`).toBe(
                rp.test(s) && rq.test(s),
              );
            },
          ),
          { numRuns: 60, seed: i },
        );
      }
    }
  });
});

describe('complements: not {pattern}, not {format}, and oneOf branches that overlap on strings', () => {
  const patterns = ['^a', 'b$', '^[a-c]{2}$', '[0-9]', '^$'];
  const unit = fc.constantFrom('a', 'b', 'c', '1', '"', 'é');
  it('ajv is the oracle: the grammar accepts exactly the strings ajv accepts', () => {
    const schemas: unknown[] = [
      ...patterns.map((p) => ({ type: 'string', not: { pattern: p } })),
      ...patterns.map((p, i) => ({
        oneOf: [
          { type: 'string', pattern: p },
          { type: 'string', pattern: patterns[(i + 1) % patterns.length] },
        ],
      })),
      { type: 'string', not: { format: 'uuid' }, maxLength: 3 },
      {
        oneOf: [
          { type: 'string', format: 'date' },
          { type: 'string', pattern: '^2' },
        ],
      },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      { type: 'string', if: { pattern: '^a' }, then: { maxLength: 2 }, else: { pattern: 'c' } },
    ];
    for (const [i, schema] of schemas.entries()) {
      const r = compiled(schema);
      expect(r.exact, `${JSON.stringify(schema)}: ${r.warnings.join('; ')}`).toBe(true);
      const v = ajv.compile(schema as object);
      for (const s of ['2024-01-01', '2x', 'ab', ''])
        expect(r.m(JSON.stringify(s)), `${JSON.stringify(schema)} ${s}`).toBe(v(s));
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 5 }), (s) => {
          expect(r.m(JSON.stringify(s)), `${JSON.stringify(schema)} on ${JSON.stringify(s)}`).toBe(v(s));
        }),
        { numRuns: 80, seed: 100 + i },
      );
    }
  });
  it('a format with an inexact grammar is not complemented (NOT_NEGATABLE)', () => {
    expect(() => compileSchema({ type: 'string', not: { format: 'hostname' } })).toThrow(
      /negation of "format"/,
    );
  });
});

describe('not {multipleOf}: integers with a non-zero remainder and non-integers (plain decimal)', () => {
  it('sound against ajv; every plain-decimal non-multiple accepted', () => {
    const schemas: unknown[] = [
      { not: { multipleOf: 3 } },
      { type: 'integer', not: { multipleOf: 4 } },
      { type: 'number', allOf: [{ not: { multipleOf: 2 } }, { not: { multipleOf: 3 } }] },
      { oneOf: [{ multipleOf: 2 }, { multipleOf: 3 }] },
      { multipleOf: 4, not: { multipleOf: 8 } },
    ];
    const value = fc.oneof(
      fc.integer({ min: -2000, max: 2000 }),
      fc.integer({ min: -4000, max: 4000 }).map((n) => n / 4),
      fc.constantFrom('a', null, true, 1e21, -0),
    );
    for (const [i, schema] of schemas.entries()) {
      const r = compiled(schema);
      const v = ajv.compile(schema as object);
      fc.assert(
        fc.property(value, (x) => {
          const texts =
            typeof x === 'number'
              ? [JSON.stringify(x), Number.isInteger(x) ? `${x}.0` : JSON.stringify(x), x.toExponential()]
              : [JSON.stringify(x)];
          for (const t of texts) {
            const accepted = r.m(t);
            if (accepted) expect(v(JSON.parse(t)), `${JSON.stringify(schema)} accepts ${t}`).toBe(true);
          }
          // plain decimal spellings of valid numbers are accepted
          if (typeof x === 'number' && Math.abs(x) < 1e6 && v(x))
            expect(r.m(JSON.stringify(x)), `${JSON.stringify(schema)} rejects ${x}`).toBe(true);
        }),
        { numRuns: 300, seed: 200 + i },
      );
    }
  });
});

describe('intersection grammars in llama.cpp', () => {
  it('llama.cpp parses them and agrees with our matcher', async () => {
    const cases: [unknown, string[]][] = [
      [SEARCH_ID, ['123e4567-e89b-42d3-a456-426614174000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'x']],
      [{ type: 'string', format: 'email', maxLength: 8 }, ['a@b.cd', 'abc@de.fg']],
      [{ type: 'string', allOf: [{ pattern: '^[a-c]+$' }, { pattern: 'b' }] }, ['abc', 'aaa', 'b']],
      [{ type: 'string', pattern: '^a.b', minLength: 4, maxLength: 5 }, ['a/bc', 'a😀bc', 'a/b']],
      [{ type: 'string', not: { pattern: '^a' } }, ['abc', 'bac', '']],
    ];
    for (const [schema, strings] of cases) {
      const { gbnf } = compileSchema(schema);
      const verdict = await llamaGrammar(gbnf);
      expect(verdict.ok ? 'ok' : verdict.error).toBe('ok');
      if (!verdict.ok) continue;
      const ours = compileMatcher(gbnf);
      for (const s of strings) expect(verdict.test(JSON.stringify(s)), s).toBe(ours(JSON.stringify(s)));
    }
  }, 60_000);
});
