// The native profile's payloads (src/sample-payload.ts): a value each schema accepts, preferring
// the schema's own example; a reason, not a guess, for schemas it cannot satisfy for sure; and a
// payload the schema refuses.
import { describe, expect, it } from 'vitest';
import { refusedPayload, samplePayload } from '../src/sample-payload.js';

describe('samplePayload', () => {
  it("takes the schema's own example, const, default or first enum value first", () => {
    expect(samplePayload({ type: 'string', examples: ['welcome'], default: 'x' })).toEqual({
      ok: true,
      value: 'welcome',
    });
    expect(samplePayload({ const: 3 })).toEqual({ ok: true, value: 3 });
    expect(samplePayload({ type: 'string', default: 'd' })).toEqual({ ok: true, value: 'd' });
    expect(samplePayload({ enum: ['b', 'a'] })).toEqual({ ok: true, value: 'b' });
  });

  it('builds the required properties only, each the least value of its type within its bounds', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 20 },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', minimum: 2.5, maximum: 10 },
        ratio: { type: 'number', exclusiveMinimum: 0 },
        tags: { type: 'array', minItems: 1, items: { type: 'string', maxLength: 4 } },
        maybe: { type: ['null', 'boolean'] },
        optional: { type: 'string' },
      },
      required: ['name', 'when', 'count', 'ratio', 'tags', 'maybe'],
    };
    expect(samplePayload(schema)).toEqual({
      ok: true,
      value: {
        name: 'conformancexxxxxxxxx',
        when: '1970-01-01T00:00:00Z',
        count: 3,
        ratio: 1,
        tags: ['conf'],
        maybe: true,
      },
    });
  });

  it('says why it cannot build a value rather than guess', () => {
    expect(
      samplePayload({
        type: 'object',
        properties: { id: { type: 'string', pattern: '^[a-f]{8}$' } },
        required: ['id'],
      }),
    ).toEqual({
      ok: false,
      reason: 'payload.id: has a pattern; give it "examples"',
    });
    expect(samplePayload({ $ref: '#/$defs/x' })).toMatchObject({ ok: false });
    expect(samplePayload({ type: 'integer', minimum: 5, maximum: 4 })).toEqual({
      ok: false,
      reason: 'payload: no integer between its bounds',
    });
  });
});

describe('refusedPayload', () => {
  it('leaves out a required property, else gives one the wrong type, else adds a forbidden one', () => {
    const properties = { title: { type: 'string' } };
    expect(refusedPayload({ type: 'object', properties, required: ['title'] }, { title: 'a' })).toEqual({
      value: {},
      how: 'the required property "title" left out',
    });
    expect(refusedPayload({ type: 'object', properties }, {})).toEqual({
      value: { title: 7 },
      how: '"title" of the wrong type',
    });
    expect(refusedPayload({ type: 'object', additionalProperties: false }, {})).toMatchObject({
      how: 'a property the schema forbids',
    });
    expect(refusedPayload({ type: 'object' }, {})).toBeUndefined();
  });
});
