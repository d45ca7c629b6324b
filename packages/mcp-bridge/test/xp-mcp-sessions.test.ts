// The endpoint's MCP sessions of its callers are bounded (docs/protocol.md §10.5): per caller key
// and in all; when full, the least recently used idle session goes, and when every one is busy the
// request is refused with RATE_LIMITED. A unit test of the registry: the shared upstream is a stub
// whose call never ends (a busy session), nothing is sent anywhere.
import { generateIdentity } from '@xprotocol/crypto';
import { describe, expect, it } from 'vitest';
import { _XpCallerSession } from '../src/endpoint/xp-mcp-caller-session.js';
import { _XpMcpSessions } from '../src/endpoint/xp-mcp-sessions.js';
import { silentLogger, type UpstreamSession, type XpCaller } from '../src/index.js';

const neverEnds = {
  serverCapabilities: {},
  callTool: () => new Promise(() => {}),
} as unknown as UpstreamSession;

function registry(limits: { perCaller?: number; total?: number }, now = () => Date.now()) {
  return new _XpMcpSessions({
    ...limits,
    xp: {} as XpCaller,
    transportOf: () => undefined,
    clientInfo: { name: 'test', version: '0' },
    timeoutMs: 1000,
    ttlSeconds: 60,
    logger: silentLogger,
    now,
  });
}

const context = (n: number) => ({ session: `${n}`.padStart(32, '0'), capabilities: {} });

/** Starts a call in `session` that never ends. */
function busy(session: _XpCallerSession): void {
  const event = { id: 'e'.repeat(64), tags: [] } as never;
  void session.request(
    'conf',
    'tools/call',
    { name: 't' },
    { event, timeoutMs: 1000, progress: false, shared: neverEnds },
  );
}

describe("the endpoint's MCP sessions", () => {
  it('gives the same session for the same caller and id, another for another id or caller', async () => {
    const sessions = registry({});
    const a = generateIdentity().keys;
    const b = generateIdentity().keys;
    const first = sessions.session(a, context(1));
    expect(first).toBeInstanceOf(_XpCallerSession);
    expect(sessions.session(a, context(1))).toBe(first);
    expect(sessions.session(a, context(2))).not.toBe(first);
    expect(sessions.session(b, context(1))).not.toBe(first);
    expect(sessions.size).toBe(3);
    await sessions.close();
    expect(sessions.size).toBe(0);
  });

  it('a caller over its limit loses its least recently used idle session; all busy is RATE_LIMITED', async () => {
    let clock = 1000;
    const sessions = registry({ perCaller: 2 }, () => clock);
    const a = generateIdentity().keys;
    const one = sessions.session(a, context(1)) as _XpCallerSession;
    clock += 10;
    const two = sessions.session(a, context(2)) as _XpCallerSession;
    clock += 10;
    const three = sessions.session(a, context(3));
    expect(three).toBeInstanceOf(_XpCallerSession);
    // The oldest idle one went; the newer stayed.
    expect(sessions.session(a, context(2))).toBe(two);
    expect(sessions.size).toBe(2);
    expect(one.busy).toBe(false);
    busy(two);
    busy(three as _XpCallerSession);
    const refused = sessions.session(a, context(4));
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', retry_after: 5 });
    expect((refused as { message: string }).message).toMatch(/already has 2 MCP sessions here, all busy/);
    // Another caller is not held back by this one's sessions.
    expect(sessions.session(generateIdentity().keys, context(1))).toBeInstanceOf(_XpCallerSession);
    await sessions.close();
  });

  it('the endpoint over its total limit refuses when every session is busy', async () => {
    const sessions = registry({ total: 1 });
    const only = sessions.session(generateIdentity().keys, context(1)) as _XpCallerSession;
    busy(only);
    const refused = sessions.session(generateIdentity().keys, context(2));
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    expect((refused as { message: string }).message).toMatch(/the endpoint has 1 MCP sessions, all busy/);
    await sessions.close();
  });

  it("a session end closes that session only, and a caller cannot end another caller's session", async () => {
    const sessions = registry({});
    const a = generateIdentity().keys;
    const b = generateIdentity().keys;
    sessions.session(a, context(1));
    expect(await sessions.end(b.ed25519, context(1).session)).toBe(false);
    expect(sessions.size).toBe(1);
    expect(await sessions.end(a.ed25519, context(1).session)).toBe(true);
    expect(sessions.size).toBe(0);
    await sessions.close();
  });
});
