import { describe, expect, it } from 'vitest';
import {
  isUnansweredKind,
  MCP_NOTIFICATION_KIND,
  MCP_SERVER_REQUEST_KIND,
  MCP_SERVER_REQUEST_RESULT_KIND,
  MCP_SESSION_END_KIND,
  MCP_SESSION_METHODS,
  mcpRequestCapability,
  parseMcpRequestPayload,
  parseMcpSessionContext,
  parseMcpSessionEnd,
  parseMcpSessionMessage,
} from '../src/index.js';

const SESSION = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';

describe('the MCP session context (the encrypted mcp tag)', () => {
  it('accepts session, capabilities, clientInfo and progress', () => {
    const parsed = parseMcpSessionContext({
      session: SESSION,
      capabilities: { sampling: {}, elicitation: { form: {} } },
      clientInfo: { name: 'client', version: '1.0.0' },
      progress: true,
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        session: SESSION,
        capabilities: { sampling: {}, elicitation: { form: {} } },
        clientInfo: { name: 'client', version: '1.0.0' },
        progress: true,
      },
    });
  });

  it('drops progress: false (absent means no progress)', () => {
    const parsed = parseMcpSessionContext({ session: SESSION, capabilities: {}, progress: false });
    expect(parsed).toEqual({ ok: true, value: { session: SESSION, capabilities: {} } });
  });

  it("keeps the input of a 2026-07-28 client: that it takes input-required results, and a retry's answers and state", () => {
    const input = { responses: { user_name: { action: 'accept', content: { name: 'A' } } }, state: 'v1.abc' };
    expect(parseMcpSessionContext({ session: SESSION, capabilities: {}, input })).toEqual({
      ok: true,
      value: { session: SESSION, capabilities: {}, input },
    });
    expect(parseMcpSessionContext({ session: SESSION, capabilities: {}, input: {} })).toEqual({
      ok: true,
      value: { session: SESSION, capabilities: {}, input: {} },
    });
  });

  it.each([
    [null, 'expected {session, capabilities, clientInfo?, progress?, input?}, got null'],
    [{ session: SESSION, capabilities: {}, input: [] }, 'input: expected {responses?, state?}, got an array'],
    [
      { session: SESSION, capabilities: {}, input: { responses: 'x' } },
      'input.responses: expected an object',
    ],
    [{ session: SESSION, capabilities: {}, input: { state: 1 } }, 'input.state: expected a string'],
    [
      { session: SESSION, capabilities: {}, input: { state: 'x'.repeat(70000) } },
      'input.state: expected at most 65536 bytes (UTF-8), got 70000',
    ],
    [{ session: SESSION, capabilities: {}, input: { other: 1 } }, 'input: unexpected field "other"'],
    [{ session: 'short', capabilities: {} }, 'session: expected 16 to 64 of [A-Za-z0-9_-], got "short"'],
    [{ session: `${SESSION}!`, capabilities: {} }, 'session: expected 16 to 64'],
    [{ session: SESSION }, 'capabilities: expected an object, got undefined'],
    [{ session: SESSION, capabilities: [] }, 'capabilities: expected an object, got an array'],
    [
      { session: SESSION, capabilities: {}, clientInfo: { name: 'x' } },
      'clientInfo: expected {name, version}',
    ],
    [{ session: SESSION, capabilities: {}, progress: 'yes' }, 'progress: expected a boolean, got "yes"'],
    [{ session: SESSION, capabilities: {}, extra: 1 }, 'unexpected field "extra"'],
    [
      { session: SESSION, capabilities: { sampling: 'x'.repeat(9000) } },
      'capabilities: expected at most 8192 bytes of JSON (UTF-8), got 9015',
    ],
  ])('refuses %j', (value, reason) => {
    const parsed = parseMcpSessionContext(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain(reason);
  });
});

describe('session messages and session end', () => {
  it('accepts {session, method, params?}', () => {
    expect(
      parseMcpSessionMessage({ session: SESSION, method: 'notifications/progress', params: { progress: 1 } }),
    ).toEqual({
      ok: true,
      value: { session: SESSION, method: 'notifications/progress', params: { progress: 1 } },
    });
    expect(parseMcpSessionMessage({ session: SESSION, method: 'roots/list' })).toEqual({
      ok: true,
      value: { session: SESSION, method: 'roots/list' },
    });
  });

  it.each([
    [{ session: SESSION, method: '' }, 'method: expected an MCP method name'],
    [{ session: SESSION, method: 'x y' }, 'method: expected an MCP method name'],
    [{ session: SESSION, method: 'm', params: [] }, 'params: expected an object, got an array'],
    [{ session: SESSION, method: 'm', id: 1 }, 'unexpected field "id"'],
    [{ method: 'm' }, 'session: expected'],
  ])('refuses the message %j', (value, reason) => {
    const parsed = parseMcpSessionMessage(value);
    expect(parsed.ok ? '' : parsed.reason).toContain(reason);
  });

  it('a session end names only its session', () => {
    expect(parseMcpSessionEnd({ session: SESSION })).toEqual({ ok: true, value: { session: SESSION } });
    const extra = parseMcpSessionEnd({ session: SESSION, why: 'x' });
    expect(extra.ok ? '' : extra.reason).toBe('unexpected field "why"');
  });
});

describe('the kinds and methods of an MCP session', () => {
  it('one-way messages and answers are never answered; requests are', () => {
    for (const kind of [
      MCP_NOTIFICATION_KIND,
      MCP_SERVER_REQUEST_KIND,
      MCP_SESSION_END_KIND,
      MCP_SERVER_REQUEST_RESULT_KIND,
      'xp.error',
    ])
      expect(isUnansweredKind(kind)).toBe(true);
    for (const kind of ['xp.mcp.request', 'com.acme.docs.search']) expect(isUnansweredKind(kind)).toBe(false);
  });

  it('subscriptions and the log level travel in xp.mcp.request, need the session and their own capabilities', () => {
    for (const method of ['resources/subscribe', 'resources/unsubscribe', 'logging/setLevel']) {
      expect(parseMcpRequestPayload({ method, params: {} }).ok).toBe(true);
      expect(MCP_SESSION_METHODS.has(method)).toBe(true);
    }
    expect(MCP_SESSION_METHODS.has('resources/read')).toBe(false);
    expect(mcpRequestCapability('com.acme.docs', 'resources/subscribe')).toBe(
      'com.acme.docs.mcp.resources.subscribe',
    );
    expect(mcpRequestCapability('com.acme.docs', 'logging/setLevel')).toBe('com.acme.docs.mcp.logging');
  });
});
