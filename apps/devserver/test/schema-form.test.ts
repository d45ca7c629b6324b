// The browser-side check of Try a call (console/schema-form.js), run here on the same module the
// browser loads: what it refuses, with the path and the expectation, and the keywords it leaves
// to the adapter.
import { describe, expect, it } from 'vitest';
import { validate } from '../console/schema-form.js';

const READ = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1 },
    head: { type: 'integer', minimum: 1 },
    mode: { enum: ['text', 'bytes'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
  },
  required: ['path'],
  additionalProperties: false,
};

describe('validate (console/schema-form.js)', () => {
  it('accepts a payload the schema accepts', () => {
    expect(validate(READ, { path: '/srv/a', head: 3, mode: 'text', tags: ['x'] })).toEqual({
      errors: [],
      skipped: [],
    });
  });

  it('names each problem with its path, what was expected and what came', () => {
    const { errors } = validate(READ, { head: 1.5, mode: 'lines', tags: ['a', 2, 'c'], extra: true });
    expect(errors).toEqual([
      '$: missing the required property "path"',
      '$.head: expected integer, got number',
      '$.mode: expected one of "text", "bytes", got "lines"',
      '$.tags: expected at most 2 items, got 3',
      '$.tags[1]: expected string, got integer',
      '$: unexpected property "extra" (additionalProperties is false)',
    ]);
    expect(validate(READ, { path: '' }).errors).toEqual(['$.path: expected at least 1 characters, got 0']);
    expect(validate(READ, { path: 'x', head: 0 }).errors).toEqual(['$.head: expected ≥ 1, got 0']);
  });

  it('checks anyOf/oneOf/not, and lists the keywords it leaves to the adapter', () => {
    const schema = { oneOf: [{ type: 'string' }, { type: 'number' }], $ref: '#/x', if: {} };
    expect(validate(schema, 'a').errors).toEqual([]);
    expect(validate(schema, true).errors).toEqual([
      '$: expected exactly one oneOf alternative to match, got 0',
    ]);
    expect(validate(schema, 'a').skipped).toEqual(['$ref', 'if']);
    expect(validate({ not: { type: 'string' } }, 'a').errors).toEqual(['$: matches the schema under "not"']);
  });
});
