import { schemaDialect } from '@xprotocol/json-schema-vocabulary';
import { describe, expect, it } from 'vitest';
import { KNOWN_FORMATS, SchemaCompiler, unknownFormats } from '../src/index.js';

describe('schemas compile by their own dialect (docs/design.md §13)', () => {
  const compiler = new SchemaCompiler();
  it.each([
    [undefined, '2020-12'],
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-06/schema#', 'draft-06'],
    ['http://json-schema.org/draft-04/schema#', 'draft-04'],
  ])('$schema %s → %s', (uri, dialect) => {
    const schema = uri === undefined ? { type: 'object' } : { $schema: uri, type: 'object' };
    expect(schemaDialect(schema)).toBe(dialect);
    const r = compiler.compile(schema);
    expect(r).toMatchObject({ ok: true, dialect });
  });
  it('applies each dialect’s own rules', () => {
    // draft-04: exclusiveMaximum is a boolean modifier of maximum
    const d4 = compiler.compile({
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'number',
      maximum: 5,
      exclusiveMaximum: true,
    });
    expect(d4.ok && d4.validate(5)).toBe(false);
    expect(d4.ok && d4.validate(4)).toBe(true);
    // 2020-12: prefixItems; draft-07 items array
    const tuple = compiler.compile({ prefixItems: [{ type: 'string' }], items: false });
    expect(tuple.ok && tuple.validate(['a'])).toBe(true);
    expect(tuple.ok && tuple.validate(['a', 1])).toBe(false);
    const d7 = compiler.compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      items: [{ type: 'string' }],
      additionalItems: false,
    });
    expect(d7.ok && d7.validate(['a', 'b'])).toBe(false);
  });
  it('refuses an unknown $schema, naming it', () => {
    expect(compiler.compile({ $schema: 'http://json-schema.org/draft-03/schema#' })).toEqual({
      ok: false,
      reason:
        '$schema "http://json-schema.org/draft-03/schema#" is not a supported dialect (draft-04, draft-06, draft-07, 2019-09, 2020-12)',
    });
  });
  it('refuses a schema that violates its meta-schema, with ajv’s reason', () => {
    const r = compiler.compile({ type: 'object', required: 'path' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/does not compile as JSON Schema 2020-12: .*required must be array/);
  });
  it('does not fail on formats no standard defines (int32 is known, json is not)', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', format: 'int32' },
        j: { type: 'string', format: 'json' },
        w: { type: 'string', format: 'whatever' },
      },
    };
    const r = compiler.compile(schema);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.validate({ n: 1, j: 'not json at all', w: '' })).toBe(true);
      expect(r.validate({ n: 2 ** 40 })).toBe(false); // int32 is checked
    }
    expect(unknownFormats(schema)).toEqual(['json', 'whatever']);
  });
  it('validates known formats', () => {
    const r = compiler.compile({ type: 'string', format: 'uuid' });
    expect(r.ok && r.validate('nope')).toBe(false);
    expect(r.ok && r.validate('123e4567-e89b-12d3-a456-426614174000')).toBe(true);
  });
  it('compiles a pattern valid only without the "u" flag (seen in exa-mcp-server agent_run) and says so', () => {
    const r = compiler.compile({ type: 'string', pattern: '^agent\\_run\\_' });
    expect(r).toMatchObject({ ok: true, unicodeRegExp: false });
    expect(r.ok && r.validate('agent_run_1')).toBe(true);
    expect(compiler.compile({ type: 'string', pattern: '^a+$' })).toMatchObject({
      ok: true,
      unicodeRegExp: true,
    });
    expect(compiler.compile({ type: 'string', pattern: '(' }).ok).toBe(false);
  });
  it('reuses one instance for schemas sharing an $id', () => {
    for (let i = 0; i < 3; i++)
      expect(compiler.compile({ $id: 'https://x.example/same', type: 'string' }).ok).toBe(true);
  });
});

describe('KNOWN_FORMATS', () => {
  it('is exactly the set ajv-formats validates (one list, shared with @xprotocol/gbnf)', async () => {
    const { fullFormats } = await import('ajv-formats/dist/formats.js');
    expect([...KNOWN_FORMATS].sort()).toEqual(Object.keys(fullFormats).sort());
  });
});
