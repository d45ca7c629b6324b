// `mcp_sources[].rate_limit` on the gateway path (docs/security.md, "Rate limits"), against the
// built adapter bin with a real stdio MCP server behind it: per principal of the face (without
// auth the face has one: every client and session shares its budget), answered with HTTP 429 +
// Retry-After on the HTTP face and a JSON-RPC error with data {xp_code: "RATE_LIMITED",
// retry_after} on stdio. The upstream never sees a refused call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, Processes } from './support/processes.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'security-server.mjs');
const procs = new Processes();
let relayUrl: string;
let effects: string;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  await procs.keygen('limited.key');
  effects = join(procs.dir, 'effects.txt');
}, 60_000);
afterAll(async () => {
  await procs.close();
});

const config = (face: string) => `identity:
  key_file: ./limited.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fixture
    transport: stdio
    command: "'${process.execPath}' '${FIXTURE}'"
    env:
      FIXTURE_EFFECTS_FILE: ${effects}
    xprotocol_namespace: com.test.limited
    rate_limit:
      requests_per_minute: 2
mcp_server:
${face}
  expose: [mcp_sources]
logging:
  level: warn
  format: json
`;

const said = () => {
  try {
    return readFileSync(effects, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

/** Raw Streamable HTTP: initialize a session, then POST calls on it and keep status and headers. */
async function rawSession(url: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  await init.text();
  headers['mcp-session-id'] = init.headers.get('mcp-session-id') ?? '';
  headers['mcp-protocol-version'] = '2025-11-25';
  await (
    await fetch(url, {
      method: 'POST',
      headers,
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    })
  ).text();
  let id = 0;
  return async (text: string) => {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: 'say', arguments: { text } },
      }),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    };
  };
}

describe('rate_limit on the HTTP face', () => {
  it('answers the third call within the minute with 429 and Retry-After; without auth another session shares the budget', async () => {
    const port = await freePort();
    await procs.adapter(procs.file('http.yml', config(`  transport: streamable_http\n  port: ${port}`)));
    const url = `http://127.0.0.1:${port}/mcp`;
    const call = await rawSession(url);
    const before = said().length;
    expect((await call('one')).status).toBe(200);
    expect((await call('two')).status).toBe(200);
    const third = await call('three');
    expect(third.status).toBe(429);
    const retryAfter = Number(third.retryAfter);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(JSON.parse(third.body)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32600,
        message: 'Rate limit exceeded',
        data: {
          xp_code: 'RATE_LIMITED',
          xp_message: `rate limit of source fixture exceeded (2 requests per minute per principal); retry in ${retryAfter} s`,
          retry_after: retryAfter,
        },
      },
    });
    expect(said().slice(before)).toEqual(['said "one"', 'said "two"']);

    // Without auth every client is the face's one principal: a new session is no new budget.
    const other = await rawSession(url);
    const refused = await other('other');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({
      id: 1,
      error: { code: -32600, data: { xp_code: 'RATE_LIMITED' } },
    });
    expect(said().slice(before)).toEqual(['said "one"', 'said "two"']);
  }, 120_000);
});

describe('rate_limit on the stdio face', () => {
  it('answers the third call within the minute with a JSON-RPC error carrying RATE_LIMITED and retry_after', async () => {
    const client = await procs.mcpClient(procs.file('stdio.yml', config('  transport: stdio')));
    try {
      const before = said().length;
      await client.callTool({ name: 'say', arguments: { text: 'stdio one' } });
      await client.callTool({ name: 'say', arguments: { text: 'stdio two' } });
      const refused = await client.callTool({ name: 'say', arguments: { text: 'stdio three' } }).then(
        () => undefined,
        (error: unknown) => error as { code?: number; data?: { xp_code?: string; retry_after?: number } },
      );
      expect(refused?.code).toBe(-32600);
      expect(refused?.data?.xp_code).toBe('RATE_LIMITED');
      expect(refused?.data?.retry_after).toBeGreaterThanOrEqual(1);
      expect(said().slice(before)).toEqual(['said "stdio one"', 'said "stdio two"']);
    } finally {
      await client.close();
    }
  }, 120_000);
});
