// The MCP face of adapter replicas behind a load balancer (docs/deploy.md): two gateways with one
// key and one `state_database: postgres://…`, each with its own Streamable HTTP face. A 2026-07-28
// client has no session: either replica answers each of its requests, with the same tool names
// (they are assigned once, in the shared database). A 2025-11-25 client's session lives in the
// replica that opened it: another replica answers that session's requests 404, which tells the
// client to open a new session (Streamable HTTP), so a balancer needs affinity by Mcp-Session-Id
// for such clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, gatewayConfig } from './support/adapter-configs.js';
import { FaceCaller } from './support/face-caller.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { freePort, Processes } from './support/processes.js';

const procs = new Processes();
let postgres: TestPostgres | undefined;
const faces: string[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase();
  const relay = await procs.relay();
  await procs.keygen('a.key');
  for (const name of ['r1', 'r2']) {
    const port = await freePort();
    const config = procs.file(
      `${name}.yml`,
      gatewayConfig({
        keyFile: './a.key',
        relayUrl: relay.url,
        sources: [{ name: 'conformance', body: conformanceStdioBody(), namespace: 'com.test.conformance' }],
        face: { port },
        stateDatabase: url,
      }),
    );
    await procs.adapter(config);
    faces.push(`http://127.0.0.1:${port}/mcp`);
  }
}, 240_000);

afterAll(async () => {
  await procs.close();
  await postgres?.stop();
});

const toolNames = (result: Record<string, unknown>) =>
  (result.tools as { name: string }[]).map((tool) => tool.name).sort();

describe('the MCP face of two replicas on one Postgres state database', () => {
  it('serves a 2026-07-28 client from either replica, with the same tool names', async () => {
    const [one, two] = await Promise.all(faces.map((face) => FaceCaller.open(face, '2026-07-28', 'none')));
    const [listed1, listed2] = await Promise.all([one!.result('tools/list'), two!.result('tools/list')]);
    expect(toolNames(listed1).length).toBeGreaterThan(0);
    expect(toolNames(listed2)).toEqual(toolNames(listed1));
    const echoed = await two!.result('tools/call', { name: 'test_simple_text', arguments: {} });
    expect(JSON.stringify(echoed)).toContain('text');
  });

  it('keeps a 2025-11-25 session in the replica that opened it: the other answers 404', async () => {
    const init = await fetch(faces[0]!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'lb', version: '0' } },
      }),
    });
    expect(init.status).toBe(200);
    await init.text();
    const session = init.headers.get('mcp-session-id');
    expect(session).toBeTruthy();
    const list = (face: string) =>
      fetch(face, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': session!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      });
    const there = await list(faces[0]!);
    expect(there.status).toBe(200);
    await there.text();
    const elsewhere = await list(faces[1]!);
    await elsewhere.text();
    expect(elsewhere.status).toBe(404);
  });
});
