import { parseXpErrorPayload, XP_ERROR_CODES, xpError } from '@xprotocol/wire';
import { describe, expect, it } from 'vitest';
import {
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  MCP_REQUEST_TIMEOUT,
  mcpErrorToXp,
  mcpToolErrorToXp,
  SchemaCompiler,
  xpErrorPayloadSchema,
  xpErrorToMcp,
} from '../src/index.js';

// docs/design.md §8, row by row; the last three rows are this project's additions
const TABLE = [
  ['AUTHORIZATION_INSUFFICIENT', JSONRPC_INVALID_REQUEST, 'Insufficient capability for this operation'],
  ['EXPIRED', JSONRPC_INVALID_REQUEST, 'Event has expired'],
  ['REVOKED', JSONRPC_INVALID_REQUEST, 'Sender key has been revoked'],
  ['NOT_FOUND', JSONRPC_INVALID_REQUEST, 'Resource or schema not found'],
  ['RATE_LIMITED', JSONRPC_INVALID_REQUEST, 'Rate limit exceeded'],
  ['ENDPOINT_UNAVAILABLE', JSONRPC_INTERNAL_ERROR, 'XProtocol endpoint unavailable'],
  ['TIMEOUT', JSONRPC_INTERNAL_ERROR, 'XProtocol call timed out'],
  ['TOO_LARGE', JSONRPC_INTERNAL_ERROR, 'Payload exceeds the size limit'],
] as const;

describe('XP error → MCP face (docs/design.md §8)', () => {
  it('has the seed seven plus UPSTREAM_ERROR, TIMEOUT, TOO_LARGE', () => {
    expect([...XP_ERROR_CODES].sort()).toEqual(
      [
        'AUTHORIZATION_INSUFFICIENT',
        'SCHEMA_VIOLATION',
        'EXPIRED',
        'REVOKED',
        'NOT_FOUND',
        'RATE_LIMITED',
        'ENDPOINT_UNAVAILABLE',
        'UPSTREAM_ERROR',
        'TIMEOUT',
        'TOO_LARGE',
      ].sort(),
    );
  });
  it.each(TABLE)('%s → JSON-RPC %i "%s" with data.xp_code', (code, rpc, message) => {
    const face = xpErrorToMcp(xpError(code, 'endpoint says so', { retry_after: 3 }));
    expect(face).toEqual({
      channel: 'jsonrpc_error',
      error: { code: rpc, message, data: { xp_code: code, xp_message: 'endpoint says so', retry_after: 3 } },
    });
  });
  it('UPSTREAM_ERROR → InternalError with the forwarded MCP message', () => {
    const face = xpErrorToMcp(xpError('UPSTREAM_ERROR', 'ENOENT: no such file'));
    expect(face).toEqual({
      channel: 'jsonrpc_error',
      error: {
        code: JSONRPC_INTERNAL_ERROR,
        message: 'ENOENT: no such file',
        data: { xp_code: 'UPSTREAM_ERROR' },
      },
    });
  });
  it('SCHEMA_VIOLATION → a tool result with isError: true (the model can correct itself)', () => {
    const face = xpErrorToMcp(
      xpError('SCHEMA_VIOLATION', '/path: must be string', { details: { pointer: '/path' } }),
    );
    expect(face.channel).toBe('tool_result');
    if (face.channel !== 'tool_result') return;
    expect(face.result.isError).toBe(true);
    expect(face.result.content[0]?.text).toBe(
      'Request payload does not conform to schema: /path: must be string',
    );
    expect(mcpToolErrorToXp(face.result)).toEqual(
      xpError('SCHEMA_VIOLATION', '/path: must be string', { details: { pointer: '/path' } }),
    );
  });
  it('the InvalidParams code exists for SCHEMA_VIOLATION when a JSON-RPC form is needed', () => {
    expect(
      mcpErrorToXp({ code: JSONRPC_INVALID_PARAMS, message: 'x', data: { xp_code: 'SCHEMA_VIOLATION' } })
        .code,
    ).toBe('SCHEMA_VIOLATION');
  });
});

describe('MCP error → XP error', () => {
  it.each(XP_ERROR_CODES.filter((c) => c !== 'SCHEMA_VIOLATION'))(
    'round-trips %s through the MCP face',
    (code) => {
      const payload = xpError(code, `message for ${code}`, { retry_after: 1, details: { a: 1 } });
      const face = xpErrorToMcp(payload);
      if (face.channel !== 'jsonrpc_error') throw new Error(`${code}: expected a JSON-RPC error`);
      expect(mcpErrorToXp(face.error)).toEqual(payload);
    },
  );
  it('an upstream JSON-RPC error is UPSTREAM_ERROR with the message forwarded', () => {
    expect(mcpErrorToXp({ code: -32603, message: 'disk full', data: { errno: 28 } })).toEqual({
      code: 'UPSTREAM_ERROR',
      message: 'disk full',
      details: { mcp_code: -32603, mcp_data: { errno: 28 } },
    });
    expect(mcpErrorToXp({ code: JSONRPC_INVALID_PARAMS, message: 'Unknown tool: x' }).code).toBe(
      'UPSTREAM_ERROR',
    );
  });
  it('the SDK request timeout is TIMEOUT', () => {
    expect(mcpErrorToXp({ code: MCP_REQUEST_TIMEOUT, message: 'Request timed out' }).code).toBe('TIMEOUT');
  });
  it('ignores an unknown xp_code instead of passing it through', () => {
    expect(mcpErrorToXp({ code: -32600, message: 'm', data: { xp_code: 'MADE_UP' } }).code).toBe(
      'UPSTREAM_ERROR',
    );
  });
});

describe('xp.error payloads', () => {
  it('parses valid payloads and says what is wrong with invalid ones', () => {
    expect(parseXpErrorPayload({ code: 'RATE_LIMITED', message: 'slow down', retry_after: 2 })).toEqual({
      ok: true,
      payload: { code: 'RATE_LIMITED', message: 'slow down', retry_after: 2 },
    });
    expect(parseXpErrorPayload({ code: 'NOPE', message: '' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/code: expected one of AUTHORIZATION_INSUFFICIENT.*got "NOPE"/),
    });
    expect(parseXpErrorPayload({ code: 'EXPIRED' })).toMatchObject({
      ok: false,
      reason: 'message: expected a string, got undefined',
    });
    expect(parseXpErrorPayload({ code: 'EXPIRED', message: '', retry_after: -1 })).toMatchObject({
      ok: false,
    });
    expect(parseXpErrorPayload([])).toMatchObject({ ok: false });
  });
  it('the error payload schema accepts what xpError builds and compiles in ajv', () => {
    const compiled = new SchemaCompiler().compile(xpErrorPayloadSchema());
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    for (const code of XP_ERROR_CODES)
      expect(compiled.validate(xpError(code, 'm', { retry_after: 0, details: {} }))).toBe(true);
    expect(compiled.validate({ code: 'X', message: 'm' })).toBe(false);
  });
  it('the error payload schema refuses what docs/protocol.md refuses: a fractional or over-a-day retry_after, another member', () => {
    const compiled = new SchemaCompiler().compile(xpErrorPayloadSchema());
    if (!compiled.ok) throw new Error('the error payload schema did not compile');
    const limited = { code: 'RATE_LIMITED', message: 'm' };
    expect(compiled.validate({ ...limited, retry_after: 86_400 })).toBe(true);
    expect(compiled.validate({ ...limited, retry_after: 1.5 })).toBe(false);
    expect(compiled.validate({ ...limited, retry_after: 86_401 })).toBe(false);
    expect(compiled.validate({ ...limited, extra: true })).toBe(false);
  });
});
