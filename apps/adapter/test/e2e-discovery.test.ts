// HTTP discovery end to end: adapter B serves /.well-known/xprotocol-endpoint and /xp/schemas;
// adapter A, configured only with `endpoint: xp://127.0.0.1:<port>`, finds B's key and relays
// there and serves B's tools to an MCP client, over stdio and over Streamable HTTP behind a
// bearer token.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FS_SERVER, freePort, Processes } from './support/processes.js';

const procs = new Processes();
let relayUrl: string;
let b: { ed25519: string; x25519: string };
let a: { ed25519: string };
let port: number;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  b = await procs.keygen('b.key');
  a = await procs.keygen('a.key');
  port = await freePort();
  procs.file('note.txt', 'found through discovery\n');
  const config = procs.file(
    'b.yml',
    `identity:
  key_file: ./b.key
  display_name: "Adapter B"
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fs
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${procs.dir}'"
    xprotocol_namespace: com.test.fs
access:
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.fs.read]
discovery:
  well_known_port: ${port}
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
  );
  await procs.adapter(config);
});
afterAll(() => procs.close());

/** Adapter A: B as its only source (found by `endpoint:`), with the given `mcp_server` lines. */
function adapterAConfig(name: string, mcpServer: string[], level: 'warn' | 'info'): string {
  return procs.file(
    `${name}.yml`,
    `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    endpoint: xp://127.0.0.1:${port}
    mcp_tool_prefix: b_
mcp_server:
${mcpServer.map((line) => `  ${line}`).join('\n')}
state_database: ./${name}-state.db
logging:
  level: ${level}
  format: json
`,
  );
}

describe('HTTP discovery', () => {
  it('serves the well-known document and the catalog over HTTP', async () => {
    const doc = (await (
      await fetch(`http://127.0.0.1:${port}/.well-known/xprotocol-endpoint`)
    ).json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      version: 'xp1',
      public_key: b.ed25519,
      x25519: b.x25519,
      relays: [relayUrl],
      adapter: true,
      mcp_sources: ['fs'],
      schema_url: `http://127.0.0.1:${port}/xp/schemas`,
    });
    const page = (await (await fetch(`http://127.0.0.1:${port}/xp/schemas?limit=5`)).json()) as {
      contracts: { kind: string }[];
      next_cursor?: string;
      total: number;
    };
    expect(page.contracts).toHaveLength(5);
    expect(page.total).toBe(14);
    const next = (await (
      await fetch(
        `http://127.0.0.1:${port}/xp/schemas?limit=50&cursor=${encodeURIComponent(page.next_cursor!)}`,
      )
    ).json()) as { contracts: unknown[] };
    expect(next.contracts).toHaveLength(9);
    const bad = await fetch(`http://127.0.0.1:${port}/xp/schemas?cursor=nonsense`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/cursor/);
    expect((await fetch(`http://127.0.0.1:${port}/elsewhere`)).status).toBe(404);
  });

  it('adapter A configured with xp://127.0.0.1:<port> serves B over MCP', async () => {
    const config = adapterAConfig('a', ['transport: stdio'], 'warn');
    const mcp = await procs.mcpClient(config);
    try {
      const { tools } = await mcp.listTools();
      const read = tools.find((t) => t.name === 'b_read_text_file');
      expect(read?.description).toMatch(
        /\[XProtocol: com\.test\.fs\.read_text_file via xp:\/\/127\.0\.0\.1:\d+\]$/,
      );
      const result = await mcp.callTool({
        name: 'b_read_text_file',
        arguments: { path: `${procs.dir}/note.txt` },
      });
      expect((result.content as { text: string }[])[0]!.text).toBe('found through discovery\n');
    } finally {
      await mcp.close();
    }
  });

  it('adapter A serves B over Streamable HTTP to a client with the bearer token, 401 without it', async () => {
    const facePort = await freePort();
    const token = 'e2e-face-token-51b0d2';
    const config = adapterAConfig(
      'a-http',
      ['transport: streamable_http', `port: ${facePort}`, 'auth:', '  token_env: XP_E2E_FACE_TOKEN'],
      'info',
    );
    const { logs } = await procs.adapter(config, { XP_E2E_FACE_TOKEN: token });
    const url = `http://127.0.0.1:${facePort}/mcp`;
    const unauthorized = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
      }),
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    const client = new Client({ name: 'e2e-http', version: '0.0.0' }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const result = await client.callTool({
        name: 'b_read_text_file',
        arguments: { path: `${procs.dir}/note.txt` },
      });
      expect((result.content as { text: string }[])[0]!.text).toBe('found through discovery\n');
    } finally {
      await client.close();
    }
    for (let i = 0; i < 100 && !logs.join('\n').includes('refused an MCP request'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(logs.join('\n')).toContain('refused an MCP request');
    expect(logs.join('\n')).not.toContain(token);
  });
});
