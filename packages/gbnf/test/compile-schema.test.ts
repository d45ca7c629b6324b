import { describe, expect, it } from 'vitest';
import { compileMatcher, compileSchema, GbnfCompileError, GbnfError, parseGrammar } from '../src/index.js';

/** Compiles `schema` and checks every text in `yes` is accepted and every text in `no` rejected. */
function check(schema: unknown, yes: readonly string[], no: readonly string[], exact = true) {
  const r = compileSchema(schema);
  const m = compileMatcher(r.gbnf);
  for (const t of yes) expect(m(t), `accepts ${t}\n${r.gbnf}`).toBe(true);
  for (const t of no) expect(m(t), `rejects ${t}\n${r.gbnf}`).toBe(false);
  expect(r.exact, r.warnings.join('\n')).toBe(exact);
  return r;
}

function compileError(schema: unknown): GbnfCompileError {
  try {
    compileSchema(schema);
  } catch (e) {
    expect(e).toBeInstanceOf(GbnfCompileError);
    expect(e).toBeInstanceOf(GbnfError);
    return e as GbnfCompileError;
  }
  throw new Error(`expected a GbnfCompileError for ${JSON.stringify(schema)}`);
}

describe('compileSchema: types', () => {
  it('true accepts any JSON value with bounded whitespace', () => {
    check(
      true,
      ['null', ' {"a" : [1, 2e5, "x"] } ', '"\\/"', '-0', '1E+05'],
      ['', 'nul', '{"a":}', `${' '.repeat(65)}1`],
    );
  });
  it('false is a compile error with a pointer', () => {
    expect(compileError(false).pointer).toBe('#');
  });
  it('type unions, nullable and ["T","null"]', () => {
    check({ type: ['string', 'null'] }, ['"a"', 'null'], ['1', 'true']);
    check({ type: 'integer', nullable: true }, ['1', 'null', '-0', '1e05', '2.0'], ['1.5', '"1"']);
    check({ type: 'boolean' }, ['true', 'false'], ['null', '0']);
  });
  it('every JSON escape in a free string', () => {
    check({ type: 'string' }, ['"\\u00e9\\/\\b\\f\\n\\r\\t\\"\\\\"', '"é😀"'], ['"\\x"', '"\n"', '"\\u12"']);
  });
});

describe('compileSchema: numbers', () => {
  it('exact integer ranges, negative and large', () => {
    check(
      { type: 'integer', minimum: -120, maximum: 37 },
      ['-120', '-0', '0', '37', '-9', '10'],
      ['-121', '38', '100', '1.5', '01'],
    );
    check(
      { type: 'integer', exclusiveMinimum: 9007199254740990, maximum: 2 ** 100 },
      ['9007199254740991', '1267650600228229401496703205376', '99999999999999999999'],
      ['9007199254740990', '1267650600228229401496703205377', '10000000000000000000000000000000'],
    );
  });
  it('draft-04 boolean exclusiveMinimum', () => {
    check(
      {
        $schema: 'http://json-schema.org/draft-04/schema#',
        type: 'integer',
        minimum: 5,
        exclusiveMinimum: true,
      },
      ['6', '700'],
      ['5', '4'],
    );
  });
  it('numbers with integer bounds are exact, including the bound itself', () => {
    check(
      { type: 'number', minimum: -1, exclusiveMaximum: 2 },
      ['-1', '-1.0', '-0.5', '0', '1.999', '-0.0'],
      ['-1.01', '2', '2.0', '2.5'],
    );
  });
  it('a non-integer bound is narrowed and reported', () => {
    const r = check({ type: 'number', maximum: 2.5 }, ['2', '1.9', '-3'], ['2.5', '3'], false);
    expect(r.warnings.join()).toContain('#: narrowed');
  });
  it('multipleOf: exact for integers with a small range or no range', () => {
    check({ type: 'integer', multipleOf: 7 }, ['0', '14', '-21', '700'], ['15', '1']);
    check({ type: 'integer', multipleOf: 5, minimum: 3, maximum: 21 }, ['5', '10', '20'], ['0', '25', '3']);
  });
});

describe('compileSchema: strings', () => {
  it('lengths count code points; each escape is one character', () => {
    check(
      { type: 'string', minLength: 2, maxLength: 3 },
      ['"ab"', '"\\u0061b\\n"', '"😀x"', '"\\ud83d\\ude00x"'],
      ['"a"', '"abcd"', '"\\ud83d"'],
    );
  });
  it("long bounds are exact beyond llama.cpp's repetition limit", () => {
    const r = compileSchema({ type: 'string', maxLength: 4500 });
    const m = compileMatcher(r.gbnf);
    expect(m(JSON.stringify('x'.repeat(4500)))).toBe(true);
    expect(m(JSON.stringify('x'.repeat(4501)))).toBe(false);
    expect(r.exact).toBe(true);
  });
  it('formats: date with leap years, uuid, ipv4, email, duration', () => {
    check(
      { type: 'string', format: 'date' },
      ['"2024-02-29"', '"2000-02-29"', '"2023-12-31"'],
      ['"2023-02-29"', '"1900-02-29"', '"2023-04-31"', '"2023-1-01"'],
    );
    check(
      { type: 'string', format: 'uuid' },
      ['"123e4567-e89b-12d3-a456-426614174000"', '"URN:UUID:123E4567-E89B-12D3-A456-426614174000"'],
      ['"123e4567e89b12d3a456426614174000"'],
    );
    check({ format: 'ipv4' }, ['"192.168.0.1"', '1'], ['"256.1.1.1"', '"01.1.1.1"']);
    check({ type: 'string', format: 'email' }, ['"a.b+c@example.co"'], ['"a@b"', '"@x.y"']);
    check({ type: 'string', format: 'duration' }, ['"P1Y2M"', '"PT5S"', '"P3W"'], ['"P"', '"PT"', '"P1W2D"']);
  });
  it('unknown formats are ignored with a warning (ajv ignores them)', () => {
    const r = check({ type: 'string', format: 'color' }, ['"red"'], ['1']);
    expect(r.warnings.join()).toContain('unknown format "color"');
    expect(() => compileSchema({ type: 'string', format: 'color' }, { unknownFormats: 'error' })).toThrow(
      GbnfCompileError,
    );
  });
  it('a one-class pattern together with a length is exact', () => {
    check(
      { type: 'string', pattern: '^[a-z0-9_]+$', minLength: 2, maxLength: 4 },
      ['"ab"', '"a_9z"', '"\\u0061b"'],
      ['"a"', '"abcde"', '"a-b"'],
    );
  });
  it('pattern via the regex translator', () => {
    check({ type: 'string', pattern: '^\\d{3}-\\w+$' }, ['"123-ab_c"'], ['"12-ab"', '"123-"']);
  });
});

describe('compileSchema: enum and const', () => {
  it('any JSON value; object members in any order', () => {
    check(
      { enum: ['a', 1, null, [1, 'x'], { k: 1, v: [true] }] },
      ['"a"', '1', 'null', '[ 1 , "x" ]', '{"k":1,"v":[true]}', '{ "v" : [ true ], "k" : 1 }'],
      ['"b"', '2', '{"k":1}', '[1]'],
    );
  });
  it('enum values are filtered by the other keywords', () => {
    check({ type: 'string', enum: ['a', 'bb', 3], minLength: 2 }, ['"bb"'], ['"a"', '3']);
  });
});

describe('compileSchema: objects', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'string' }, c: { type: 'boolean' } },
    required: ['b'],
  };
  it('declared properties in order, any subset allowed by required, then additional properties', () => {
    check(
      schema,
      [
        '{"b":"x"}',
        '{"a":1,"b":"x","c":true}',
        '{ "a" : 1 , "b" : "x" }',
        '{"b":"x","zz":[1,{}]}',
        '{"a":1,"b":"x","c":false,"d":null}',
      ],
      ['{}', '{"a":1}', '{"b":"x","a":1}', '{"b":"x","a":5}', '{"b":"x","b":"y"}', '{"a":"1","b":"x"}'],
    );
  });
  it('additionalProperties false or a schema', () => {
    check({ ...schema, additionalProperties: false }, ['{"b":"x"}'], ['{"b":"x","d":1}']);
    check(
      { ...schema, additionalProperties: { type: 'number' } },
      ['{"b":"x","d":1.5}'],
      ['{"b":"x","d":"1"}'],
    );
  });
  it('min/maxProperties count declared and additional members', () => {
    check(
      { type: 'object', properties: { a: {}, b: {} }, minProperties: 1, maxProperties: 2 },
      ['{"a":1}', '{"x":1,"y":2}', '{"a":1,"x":2}'],
      ['{}', '{"a":1,"b":2,"c":3}'],
    );
  });
  it('patternProperties with additionalProperties false', () => {
    check(
      {
        type: 'object',
        patternProperties: { '^x-[a-z]+$': { type: 'integer' } },
        additionalProperties: false,
      },
      ['{"x-ab":1}', '{}'],
      ['{"y":1}', '{"x-ab":"1"}'],
    );
  });
  it('propertyNames enum', () => {
    check({ type: 'object', propertyNames: { enum: ['p', 'q'] } }, ['{"p":1,"q":2}', '{}'], ['{"r":1}']);
  });
  it('dependentRequired on optional triggers is exact', () => {
    check(
      {
        type: 'object',
        properties: { card: {}, billing: {}, name: {} },
        dependentRequired: { card: ['billing'] },
      },
      ['{}', '{"card":1,"billing":2}', '{"billing":2}', '{"name":1}', '{"card":1,"billing":2,"x":3}'],
      ['{"card":1}', '{"card":1,"name":2}', '{"name":1,"card":2}'],
    );
    check(
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', dependencies: { a: ['b'] } },
      ['{"b":1}', '{"a":1,"b":2}', '{"c":1}'],
      ['{"a":1}', '{"c":1,"a":2}'],
    );
  });
  it('dependentRequired on a required trigger is exact', () => {
    check(
      {
        type: 'object',
        properties: { a: {}, b: {} },
        required: ['a'],
        dependentRequired: { a: ['b'] },
        additionalProperties: false,
      },
      ['{"a":1,"b":2}'],
      ['{"a":1}'],
    );
  });
});

describe('compileSchema: arrays', () => {
  it('items, min/maxItems', () => {
    check(
      { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 },
      ['[1]', '[ 1 , 2 , 3 ]'],
      ['[]', '[1,2,3,4]', '["a"]'],
    );
  });
  it('prefixItems (2020-12) and tuple items + additionalItems (draft-07)', () => {
    check(
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      ['[]', '["a"]', '["a",1]'],
      ['[1]', '["a",1,2]'],
    );
    check(
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'array',
        items: [{ type: 'string' }],
        additionalItems: { type: 'null' },
      },
      ['["a"]', '["a",null,null]'],
      ['["a",1]', '[null]'],
    );
  });
  it('contains is exact when it is the only count constraint', () => {
    check(
      { type: 'array', items: { type: 'integer' }, contains: { minimum: 10 } },
      ['[10]', '[1,2,30,4]'],
      ['[]', '[1,2]'],
    );
  });
  it('uniqueItems is narrowed (and reported), or widened on request', () => {
    const r = check(
      { type: 'array', items: { enum: ['a', 'b', 'c'] }, uniqueItems: true },
      ['[]', '["a","c"]'],
      ['["a","a"]', '["c","a"]'],
      false,
    );
    expect(r.warnings.join()).toContain('uniqueItems');
    const w = compileSchema({ type: 'array', uniqueItems: true }, { allowWidening: true });
    expect(w.exact).toBe(false);
    expect(w.warnings.join()).toContain('widened');
    expect(compileMatcher(w.gbnf)('[1,1]')).toBe(true);
  });
});

describe('compileSchema: references', () => {
  it('recursive $ref, JSON-pointer escapes and percent-encoding', () => {
    const tree = {
      $defs: { 'a/b': { type: 'integer' }, 'c~d': { type: 'string' }, 'e f': { type: 'boolean' } },
      type: 'object',
      properties: {
        x: { $ref: '#/$defs/a~1b' },
        y: { $ref: '#/$defs/c~0d' },
        z: { $ref: '#/$defs/e%20f' },
        kids: { type: 'array', items: { $ref: '#' } },
      },
      additionalProperties: false,
    };
    check(tree, ['{"x":1,"y":"s","z":true,"kids":[{"kids":[{}]}]}'], ['{"kids":[{"x":"1"}]}']);
  });
  it('draft-04 definitions and $id-relative references', () => {
    check(
      {
        $id: 'https://example.com/root.json',
        definitions: { n: { $id: 'num.json', type: 'number' } },
        items: { $ref: 'num.json' },
        type: 'array',
      },
      ['[1,2.5]'],
      ['["1"]'],
    );
  });
  it('remote references are refused with the pointer of the $ref', () => {
    const e = compileError({ properties: { a: { $ref: 'https://example.com/other.json' } } });
    expect(e.reason).toBe('REMOTE_REF');
    expect(e.pointer).toBe('#/properties/a/$ref');
  });
});

describe('compileSchema: combinators', () => {
  it('allOf merges, anyOf distributes', () => {
    check(
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
          { properties: { a: { minimum: 5 } } },
        ],
      },
      ['{"a":5}'],
      ['{"a":4}', '{}'],
    );
    check(
      { type: 'object', properties: { a: {} }, anyOf: [{ required: ['a'] }, { maxProperties: 0 }] },
      ['{}', '{"a":1}'],
      ['{"b":1}'],
    );
  });
  it('oneOf with disjoint branches, and with branches made exclusive by negation', () => {
    check({ oneOf: [{ type: 'string' }, { type: 'integer' }] }, ['"a"', '1'], ['null']);
    check(
      {
        type: 'object',
        properties: { a: {}, b: {} },
        additionalProperties: false,
        oneOf: [{ required: ['a'] }, { required: ['b'] }],
      },
      ['{"a":1}', '{"b":1}'],
      ['{"a":1,"b":2}', '{}'],
    );
  });
  it('oneOf whose overlap cannot be expressed is an error with the pointer', () => {
    const e = compileError({
      oneOf: [
        { type: 'array', items: { type: 'integer' } },
        { type: 'array', items: { minimum: 0 } },
      ],
    });
    expect(e.reason).toBe('OVERLAPPING_ONEOF');
    expect(e.pointer).toBe('#/oneOf');
  });
  it('oneOf of overlapping patterns is exact (the complement of a pattern is an automaton)', () => {
    check(
      {
        oneOf: [
          { type: 'string', pattern: '^a' },
          { type: 'string', pattern: 'b$' },
        ],
      },
      ['"ax"', '"xb"', '"a"'],
      ['"ab"', '"x"', '""'],
    );
  });
  it('a oneOf branch that would need an inexpressible negation is left out (sound)', () => {
    const r = check(
      {
        oneOf: [
          { type: 'string', format: 'hostname' },
          { type: 'string', maxLength: 3 },
        ],
      },
      ['"example.com"'],
      ['"ab"', '"a_b.c"'],
      false,
    );
    expect(r.warnings.join()).toContain('#/oneOf: narrowed: oneOf branch 1 is left out');
  });
  it('not and if/then/else', () => {
    check({ type: 'string', not: { enum: ['a', 'b'] } }, ['"c"', '"ab"', '""'], ['"a"', '"b"']);
    check(
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      { type: 'integer', if: { minimum: 10 }, then: { maximum: 20 }, else: { maximum: 3 } },
      ['12', '20', '3', '-5'],
      ['21', '5'],
    );
  });
});

describe('compileSchema: sound narrowing of negations that cannot be expressed', () => {
  it('if with items: then-side and then∧else only', () => {
    const r = check(
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      { type: 'array', if: { items: { type: 'integer' } }, then: { maxItems: 3 }, else: { minItems: 2 } },
      ['[1,2,3]', '["x","y"]', '[]'],
      ['[1,2,3,4]', '["x"]'],
      false,
    );
    expect(r.warnings.join()).toContain('#/if: narrowed');
  });
  it('not with items: only the other types', () => {
    check(
      { not: { type: 'array', items: { type: 'integer' } } },
      ['1', 'null', '"a"'],
      ['[]', '["a"]'],
      false,
    );
  });
  it('if and not with a pattern are exact', () => {
    check(
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      { type: 'string', if: { pattern: '^a' }, then: { maxLength: 3 }, else: { minLength: 2 } },
      ['"abc"', '"xy"', '"xyzw"', '"a"'],
      ['"abcd"', '"x"'],
    );
    check({ not: { type: 'string', pattern: '^a' } }, ['1', 'null', '[]', '"b"'], ['"a"', '"ab"']);
  });
});

describe('compileSchema: determinism and rule names', () => {
  it('shuffled keyword order gives a byte-identical grammar', () => {
    const a = compileSchema({
      type: 'object',
      required: ['x'],
      properties: { x: { type: 'string', maxLength: 3 }, y: { enum: [1, 2] } },
      additionalProperties: false,
    });
    const b = compileSchema({
      additionalProperties: false,
      properties: { x: { maxLength: 3, type: 'string' }, y: { enum: [1, 2] } },
      required: ['x'],
      type: 'object',
    });
    expect(a.gbnf).toBe(b.gbnf);
  });
  it('rule names are letters, digits and "-" and the grammar parses', () => {
    const r = compileSchema({
      type: 'object',
      properties: { 'snake_case Name!': { type: 'integer', minimum: 0 } },
    });
    for (const line of r.gbnf.trim().split('\n')) expect(line).toMatch(/^[a-z0-9-]+ ::= /);
    expect(parseGrammar(r.gbnf).rules.length).toBeGreaterThan(0);
    expect(r.gbnf.startsWith('root ::= ')).toBe(true);
  });
});
