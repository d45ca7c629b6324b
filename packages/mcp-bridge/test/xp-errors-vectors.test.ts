// testdata/vectors/xp-errors.json (docs/protocol.md §10.2): every valid `xp.error` payload reads
// back unchanged and gives the MCP client exactly the vector's JSON-RPC error or isError tool
// result, for a tool call and for any other MCP request; every invalid one is refused, naming its
// field.
import { ProtocolError } from '@modelcontextprotocol/server';
import { parseXpErrorPayload, type XpErrorPayload } from '@xprotocol/wire';
import { describe, expect, it } from 'vitest';
import { _mcpError, _toolCallErrorResult } from '../src/caller/xp-mcp-error.js';
import { loadVectorFile } from './support/vectors.js';

interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}
interface ErrorVectors {
  description: string;
  valid: {
    id: string;
    payload: XpErrorPayload;
    mcp_tool_call: { error: JsonRpcError } | { result: unknown };
    mcp_request: { error: JsonRpcError };
  }[];
  invalid: { id: string; payload: unknown; field: string | null; why: string }[];
}

const vectors = loadVectorFile<ErrorVectors>('testdata/vectors/xp-errors.json');

/** What a thrown MCP error looks like on the wire (the SDK sends code, message and data). */
function _wire(error: unknown): JsonRpcError {
  expect(error).toBeInstanceOf(ProtocolError);
  const { code, message, data } = error as ProtocolError;
  return data === undefined ? { code, message } : { code, message, data };
}

describe('testdata/vectors/xp-errors.json', () => {
  it('names its section and has a case for every code', () => {
    expect(vectors.description).toContain('docs/protocol.md §10.2');
    const codes = new Set(vectors.valid.map((v) => v.payload.code));
    expect([...codes].sort()).toEqual(
      [
        'AUTHORIZATION_INSUFFICIENT',
        'ENDPOINT_UNAVAILABLE',
        'EXPIRED',
        'NOT_FOUND',
        'RATE_LIMITED',
        'REVOKED',
        'SCHEMA_VIOLATION',
        'TIMEOUT',
        'TOO_LARGE',
        'UPSTREAM_ERROR',
      ].sort(),
    );
  });

  it.each(vectors.valid.map((v) => [v.id, v] as const))(
    'valid %s: read back, and its MCP faces',
    (_id, v) => {
      const parsed = parseXpErrorPayload(JSON.parse(JSON.stringify(v.payload)));
      expect(parsed).toEqual({ ok: true, payload: v.payload });
      expect(_wire(_mcpError(v.payload)), 'any MCP request').toEqual(v.mcp_request.error);
      if ('result' in v.mcp_tool_call) {
        expect(_toolCallErrorResult(v.payload), 'a tool call').toEqual(v.mcp_tool_call.result);
      } else {
        let thrown: unknown;
        try {
          _toolCallErrorResult(v.payload);
        } catch (error) {
          thrown = error;
        }
        expect(_wire(thrown), 'a tool call').toEqual(v.mcp_tool_call.error);
      }
    },
  );

  it.each(vectors.invalid.map((v) => [v.id, v] as const))('invalid %s: refused', (_id, v) => {
    const parsed = parseXpErrorPayload(v.payload);
    expect(parsed.ok, v.why).toBe(false);
    if (!parsed.ok && v.field !== null)
      expect(parsed.reason).toMatch(new RegExp(`^(unknown field "${v.field}"|${v.field}:)`));
  });
});
