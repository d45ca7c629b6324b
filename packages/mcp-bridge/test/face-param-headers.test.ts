import { describe, expect, it } from 'vitest';
import { _paramHeaderRefusal, _paramHeaders } from '../src/gateway/param-headers.js';

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    nested: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
    listed: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Never' } },
    query: { type: 'string' },
  },
};

describe('Mcp-Param-* headers', () => {
  it('accepts headers that repeat the arguments, as they are or in the Base64 form', () => {
    const args = { region: 'Hello', count: 3, nested: { tenant: 'acme' }, query: 'x' };
    expect(
      _paramHeaderRefusal(schema, args, {
        'mcp-param-region': '=?base64?SGVsbG8=?=',
        'mcp-param-count': '3',
        'mcp-param-tenant': ' acme ',
      }),
    ).toBeUndefined();
    // Nothing declared, or the argument absent: nothing to check.
    expect(_paramHeaderRefusal({ type: 'object' }, args, {})).toBeUndefined();
    expect(_paramHeaderRefusal(schema, {}, {})).toBeUndefined();
  });

  it('refuses a missing header, a different value and a malformed Base64 form, saying which', () => {
    expect(_paramHeaderRefusal(schema, { region: 'eu' }, {})).toMatch(
      /region .*Mcp-Param-Region header is missing/,
    );
    expect(_paramHeaderRefusal(schema, { region: 'eu' }, { 'mcp-param-region': 'us' })).toMatch(
      /Mcp-Param-Region header says "us" but the arguments carry region="eu"/,
    );
    for (const bad of ['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?='])
      expect(_paramHeaderRefusal(schema, { region: 'Hello' }, { 'mcp-param-region': bad })).toMatch(
        /not valid/,
      );
    // A value without the whole sentinel is taken literally.
    expect(
      _paramHeaderRefusal(
        schema,
        { region: '=?base64?SGVsbG8=' },
        { 'mcp-param-region': '=?base64?SGVsbG8=' },
      ),
    ).toBeUndefined();
  });

  it('builds the headers a client sends: printable ASCII as it is, anything else in Base64; never under items', () => {
    const headers = _paramHeaders(schema, {
      region: 'Zürich',
      count: 7,
      nested: { tenant: 'acme' },
      listed: ['a'],
    });
    expect(headers).toEqual({
      'Mcp-Param-Region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      'Mcp-Param-Count': '7',
      'Mcp-Param-Tenant': 'acme',
    });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(
      _paramHeaderRefusal(schema, { region: 'Zürich', count: 7, nested: { tenant: 'acme' } }, lower),
    ).toBeUndefined();
  });
});
