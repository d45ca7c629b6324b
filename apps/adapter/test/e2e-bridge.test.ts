// The end-to-end proof of the two-way bridge: real relay, real adapters, real MCP server, real keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FS_SERVER, Processes } from './support/processes.js';

const procs = new Processes();
let relayUrl: string;
let b: { path: string; ed25519: string };
let a: { path: string; ed25519: string };
let client: { path: string; ed25519: string };
let dataDir: string;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  b = await procs.keygen('b.key');
  a = await procs.keygen('a.key');
  client = await procs.keygen('client.key');
  procs.file('hello.txt', 'hello through XProtocol\n');
  dataDir = procs.dir;
  const bConfig = procs.file(
    'b.yml',
    `identity:
  key_file: ./b.key
  display_name: "Adapter B"
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fs
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${dataDir}'"
    xprotocol_namespace: com.test.fs
    rate_limit:
      requests_per_minute: 5
access:
  default: deny
  grants:
    - key: ${client.ed25519}
      capabilities: [com.test.fs.read]
    - key: ${a.ed25519}
      capabilities: [com.test.fs.read]
state_database: ./b-state.db
logging:
  level: info
  format: json
`,
  );
  await procs.adapter(bConfig);
}, 60_000);
afterAll(() => procs.close());

const call = (kind: string, payload: unknown, key = client.path) =>
  procs.cli([
    'call',
    '--key',
    key,
    '--relay',
    relayUrl,
    '--to',
    b.ed25519,
    '--kind',
    kind,
    '--payload',
    JSON.stringify(payload),
    '--timeout-ms',
    '15000',
  ]);

describe('the two-way bridge end to end', () => {
  it('xprotocol-adapter call reads a file through relay → adapter B → server-filesystem', async () => {
    const { code, stdout, stderr } = await call('com.test.fs.read_text_file', {
      path: `${dataDir}/hello.txt`,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).content[0].text).toBe('hello through XProtocol\n');
  });

  it('refuses a key without the capability with AUTHORIZATION_INSUFFICIENT (exit 1)', async () => {
    const { code, stdout } = await call('com.test.fs.write_file', {
      path: `${dataDir}/x.txt`,
      content: 'no',
    });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        code: 'AUTHORIZATION_INSUFFICIENT',
        message: expect.stringMatching(/com\.test\.fs\.write is required/),
      },
    });
  });

  it('refuses a payload not matching the schema with SCHEMA_VIOLATION and an unknown kind with NOT_FOUND', async () => {
    const bad = await call('com.test.fs.read_text_file', { path: 7 });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('SCHEMA_VIOLATION');
    const unknown = await call('com.test.fs.nothing_here', {});
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('NOT_FOUND');
  });

  it('answers xp.schema.describe with ranked schemas for an intent', async () => {
    const { code, stdout } = await call('xp.schema.describe', {
      intent: 'read the text of a file',
      limit: 3,
    });
    expect(code).toBe(0);
    const { matches } = JSON.parse(stdout) as {
      matches: { kind: string; relevance: number; use_when: string }[];
    };
    expect(matches).toHaveLength(3);
    expect(matches.map((m) => m.kind)).toContain('com.test.fs.read_text_file');
    expect(matches[0]!.use_when.length).toBeGreaterThan(0);
  });

  it('prints a tool result with isError: true and exits 3', async () => {
    const { code, stdout } = await call('com.test.fs.read_text_file', {
      path: `${dataDir}/does-not-exist.txt`,
    });
    expect(code).toBe(3);
    expect(JSON.parse(stdout).isError).toBe(true);
  });

  it('adapter A serves B over MCP stdio: an SDK client lists the tools and reads the file through A → relay → B', async () => {
    const aConfig = procs.file(
      'a.yml',
      `identity:
  key_file: ./a.key
  display_name: "Adapter A"
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${b.ed25519}
    relay: ${relayUrl}
    mcp_tool_prefix: fs_
mcp_server:
  transport: stdio
state_database: ./a-state.db
logging:
  level: warn
  format: json
`,
    );
    const mcp = await procs.mcpClient(aConfig);
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('fs_read_text_file');
      const result = await mcp.callTool({
        name: 'fs_read_text_file',
        arguments: { path: `${dataDir}/hello.txt` },
      });
      expect((result.content as { text: string }[])[0]!.text).toBe('hello through XProtocol\n');
      const denied = await mcp
        .callTool({ name: 'fs_write_file', arguments: { path: `${dataDir}/y.txt`, content: 'no' } })
        .catch((e: unknown) => e);
      expect(denied).toMatchObject({ code: -32600, data: { xp_code: 'AUTHORIZATION_INSUFFICIENT' } });
    } finally {
      await mcp.close();
    }
  });

  it("gateway mode (expose: [mcp_sources]) serves the wrapped server's own tools over MCP", async () => {
    await procs.keygen('g.key');
    const gConfig = procs.file(
      'g.yml',
      `identity:
  key_file: ./g.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fs
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${dataDir}'"
    xprotocol_namespace: com.test.gw
access:
  grants: []
mcp_server:
  transport: stdio
  expose: [mcp_sources]
state_database: ./g-state.db
logging:
  level: warn
  format: json
`,
    );
    const mcp = await procs.mcpClient(gConfig);
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['read_text_file', 'list_directory', 'search_tools']),
      );
      const result = await mcp.callTool({
        name: 'read_text_file',
        arguments: { path: `${dataDir}/hello.txt` },
      });
      expect((result.content as { text: string }[])[0]!.text).toBe('hello through XProtocol\n');
      const bad = await mcp.callTool({ name: 'read_text_file', arguments: { path: 3 } });
      expect(bad.isError).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('rate-limits per key and source with RATE_LIMITED', async () => {
    // 5 per minute for source fs (one token back every 12 s). Ten calls at once: all ten could
    // only pass if their arrivals spread over a minute, which no loaded machine comes near.
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const { stdout } = await call('com.test.fs.read_text_file', { path: `${dataDir}/hello.txt` });
        return (JSON.parse(stdout).error?.code as string | undefined) ?? 'ok';
      }),
    );
    expect(outcomes).toContain('RATE_LIMITED');
  });
});
