// The endpoint picks each caller's link to a wrapped server by the caller's MCP revision, as the
// gateway does (docs/protocol.md §10.5, "Both MCP revisions"): with the source's revision left at
// its default, a 2026-07-28 caller's request to a Streamable HTTP server that speaks both revisions
// (the hand-written strict server, `--revisions dual`, which offers `confirm_action` to 2026-07-28
// clients only) goes on the link 2026-07-28 callers share, which asked the server and speaks
// 2026-07-28; a 2025-11-25 caller's goes on its own 2025-11-25 session, also when the source is set
// to `auto` (its link asks for a 2025-11-25 session first).
import { generateIdentity } from '@xprotocol/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _XpMcpSessions } from '../src/endpoint/xp-mcp-sessions.js';
import { silentLogger, type UpstreamSession, type XpCaller } from '../src/index.js';
import { type StrictRequest, startStrict2026, stopStrict2026 } from './support/strict-2026.js';

const trace: StrictRequest[] = [];
let sessions: _XpMcpSessions;
/** The same server with the source's `mcp_revision: auto`. */
let autoSessions: _XpMcpSessions;
/** The endpoint's own session with the server: unused here (each caller's client can be asked). */
const shared = { serverCapabilities: {} } as unknown as UpstreamSession;

beforeAll(async () => {
  const url = await startStrict2026(['--revisions', 'dual'], trace);
  sessions = new _XpMcpSessions({
    xp: {} as XpCaller,
    transportOf: () => ({ type: 'streamable_http', url }),
    clientInfo: { name: 'endpoint', version: '0' },
    timeoutMs: 10_000,
    ttlSeconds: 60,
    logger: silentLogger,
    now: () => Date.now(),
  });
  autoSessions = new _XpMcpSessions({
    xp: {} as XpCaller,
    transportOf: () => ({ type: 'streamable_http', url, revision: 'auto' }),
    clientInfo: { name: 'endpoint', version: '0' },
    timeoutMs: 10_000,
    ttlSeconds: 60,
    logger: silentLogger,
    now: () => Date.now(),
  });
}, 60_000);

afterAll(async () => {
  await sessions?.close();
  await autoSessions?.close();
  stopStrict2026();
});

/** Calls `confirm_action` in a new session of a caller whose client is `name`; the outcome. */
async function confirm(name: string, input: Record<string, never> | undefined, of = sessions) {
  const session = of.session(generateIdentity().keys, {
    session: name.padStart(32, '0'),
    capabilities: { elicitation: {} },
    clientInfo: { name, version: '1' },
    ...(input && { input }),
  });
  if (!('request' in session)) throw new Error(session.message);
  const event = { id: name.padStart(64, 'e'), tags: [] } as never;
  return session
    .request(
      'strict',
      'tools/call',
      { name: 'confirm_action', arguments: { action: 'deploy' } },
      { event, timeoutMs: 10_000, progress: false, shared },
    )
    .then(
      (result) => result,
      (error: Error) => error.message,
    );
}

describe('the link of a caller session, by the caller’s revision (source at the default revision)', () => {
  it('a 2026-07-28 caller gets the server’s 2026-07-28 surface', async () => {
    expect(await confirm('modern', {})).toMatchObject({ resultType: 'input_required' });
    const call = trace.find(
      (r) => r.body?.method === 'tools/call' && r.headers['mcp-protocol-version'] === '2026-07-28',
    );
    expect(call?.headers['mcp-session-id']).toBeUndefined();
  });

  it('a 2025-11-25 caller keeps a 2025-11-25 session', async () => {
    expect(await confirm('legacy', undefined)).toMatch(/Unknown tool: confirm_action/);
    const calls = trace.filter((r) => r.body?.method === 'tools/call' && r.headers['mcp-session-id']);
    expect(calls).toHaveLength(1);
  });
});

describe('the link of a caller session, the source set to auto', () => {
  it('a 2025-11-25 caller gets a 2025-11-25 session of a server that speaks both', async () => {
    const before = trace.filter((r) => r.body?.method === 'initialize').length;
    expect(await confirm('legacy-auto', undefined, autoSessions)).toMatch(/Unknown tool: confirm_action/);
    expect(trace.filter((r) => r.body?.method === 'initialize')).toHaveLength(before + 1);
    const call = trace.filter((r) => r.body?.method === 'tools/call').at(-1);
    expect(call?.headers['mcp-session-id']).toBeDefined();
    expect(call?.headers['mcp-protocol-version']).toBe('2025-11-25');
  });
});
