import { describe, expect, it } from 'vitest';
import { callToolResultSchema, SchemaCompiler, toResponsePayload } from '../src/index.js';

describe('tool results as response payloads (docs/design.md §2)', () => {
  const compiler = new SchemaCompiler();
  const outputSchema = { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] };
  const schema = callToolResultSchema(outputSchema).schema;
  it('keeps content, structuredContent, isError and _meta; drops the rest; conforms to the response schema', () => {
    const r = toResponsePayload({
      content: [{ type: 'text', text: '21°C' }],
      structuredContent: { t: 21 },
      isError: false,
      _meta: { a: 1 },
      extra: 'x',
    });
    expect(r).toEqual({
      ok: true,
      payload: {
        content: [{ type: 'text', text: '21°C' }],
        structuredContent: { t: 21 },
        isError: false,
        _meta: { a: 1 },
      },
    });
    const v = compiler.compile(schema);
    expect(v.ok && r.ok && v.validate(r.payload)).toBe(true);
  });
  it('refuses malformed results, saying what was expected', () => {
    const cases: [unknown, RegExp][] = [
      [null, /expected a CallToolResult object/],
      [{}, /content: expected an array of content blocks, got undefined/],
      [{ content: [{ text: 'no type' }] }, /content\[0\]: expected a content block with a string "type"/],
      [{ content: [], structuredContent: [1] }, /structuredContent: expected an object/],
      [{ content: [], isError: 'yes' }, /isError: expected a boolean/],
      [{ content: [{ type: 'text', text: '\ud800' }] }, /lone surrogate/],
    ];
    for (const [value, reason] of cases) {
      const r = toResponsePayload(value);
      expect(r.ok, String(reason)).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    }
  });
});
