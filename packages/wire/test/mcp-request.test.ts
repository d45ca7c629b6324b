import { describe, expect, it } from 'vitest';
import {
  isAnswerKind,
  isReservedKind,
  MCP_REQUEST_KIND,
  MCP_REQUEST_RESULT_KIND,
  mcpRequestCapability,
  parseMcpRequestPayload,
} from '../src/index.js';

describe('the xp.mcp.request payload', () => {
  it('accepts {method, params?} for the six methods', () => {
    expect(parseMcpRequestPayload({ method: 'resources/list' })).toEqual({
      ok: true,
      payload: { method: 'resources/list' },
    });
    expect(parseMcpRequestPayload({ method: 'resources/read', params: { uri: 'a://b' } })).toEqual({
      ok: true,
      payload: { method: 'resources/read', params: { uri: 'a://b' } },
    });
  });

  it.each([
    [null, /expected an object \{method, params\?\}, got null/],
    [[], /got an array/],
    [{ method: 'tools/call' }, /method: expected one of resources\/list, .*got "tools\/call"/],
    [{ method: 'toString' }, /method: expected one of/],
    [{ method: 'prompts/get', params: [] }, /params: expected an object, got an array/],
    [{ method: 'prompts/get', extra: 1 }, /unexpected field "extra"/],
  ])('refuses %j', (value, reason) => {
    const parsed = parseMcpRequestPayload(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('names the capability under the namespace', () => {
    expect(mcpRequestCapability('com.acme.docs', 'resources/templates/list')).toBe(
      'com.acme.docs.mcp.resources.read',
    );
    expect(mcpRequestCapability('com.acme.docs', 'prompts/list')).toBe('com.acme.docs.mcp.prompts.get');
    expect(mcpRequestCapability('com.acme.docs', 'completion/complete')).toBe('com.acme.docs.mcp.completion');
  });

  it('reserves the kinds; the result is an answer, the request is not', () => {
    expect(isReservedKind(MCP_REQUEST_KIND)).toBe(true);
    expect(isAnswerKind(MCP_REQUEST_KIND)).toBe(false);
    expect(isAnswerKind(MCP_REQUEST_RESULT_KIND)).toBe(true);
  });
});
