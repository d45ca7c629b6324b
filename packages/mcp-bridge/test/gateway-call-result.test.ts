// The gateway link's check of a forwarded tools/call result, one module: the plain shape passes
// as it came (the face's server validates it again before sending); anything else is validated
// with the spec's schema, so a malformed result is still refused with the schema's issues.
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { _FORWARDED_CALL_RESULT, _isPlainCallResult } from '../src/gateway/gateway-call-result.js';

const validate = (value: unknown) =>
  _FORWARDED_CALL_RESULT['~standard'].validate(value) as { value?: unknown; issues?: unknown[] };

describe('a forwarded tools/call result', () => {
  it.each([
    { content: [] },
    {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: '' },
      ],
    },
    { content: [{ type: 'text', text: '{}' }], structuredContent: { entities: [] }, isError: false },
  ])('passes the plain shape as it came: %j', (result) => {
    expect(_isPlainCallResult(result)).toBe(true);
    expect(validate(result).value).toBe(result);
    // Every plain result is one the spec's schema accepts.
    expect(specTypeSchemas.CallToolResult['~standard'].validate(result)).toMatchObject({ value: result });
  });

  it.each([
    { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
    { content: [{ type: 'text', text: 'a', annotations: { priority: 1 } }] },
    { content: [], _meta: { a: 1 } },
    { content: [], isError: 'yes' },
    { content: [], structuredContent: [] },
    { content: 'text' },
    {},
    null,
    [],
  ])('validates any other shape with the schema: %j', (result) => {
    expect(_isPlainCallResult(result)).toBe(false);
    expect(validate(result)).toEqual(specTypeSchemas.CallToolResult['~standard'].validate(result));
  });

  it('refuses a malformed result with the schema issues', () => {
    const outcome = validate({ content: [{ type: 'text', text: 1 }] });
    expect(outcome.issues?.length).toBeGreaterThan(0);
    expect(outcome.value).toBeUndefined();
  });
});
