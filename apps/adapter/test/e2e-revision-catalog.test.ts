// The gateway's catalog per MCP revision: the adapter (the built bin) in front of the strict server
// written by hand from the specification (mcp-bridge's test/fixtures/strict-2026-server.mjs) with
// `--revisions dual`, which offers `confirm_action` to 2026-07-28 clients only and `add` to each
// revision under a definition of its own, and the source's `mcp_revision` left at its default. A
// 2026-07-28 client lists and calls that tool (its input-required round trip included) and its
// arguments are held to the tool's schema like any other; a 2025-11-25 client beside it keeps the
// 2025-11-25 catalog, where the tool does not exist. Each client is listed, and checked against,
// its own revision's `add`. The same holds across XProtocol: a second adapter (B) wraps the same
// server as an endpoint, and the face of a third (A) serves B's tools; B's catalog names its
// 2026-07-28 catalog, which A reads for its 2026-07-28 clients (docs/protocol.md §10.8).
// See docs/architecture.md, "Two MCP revisions".
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceConfig, gatewayConfig, wrapperConfig } from './support/adapter-configs.js';
import { freePort, Processes, STRICT_2026_SERVER } from './support/processes.js';

const procs = new Processes();
/** The faces under test: the gateway's, and the one serving the endpoint that wraps the server. */
const faces = { gateway: '', 'across XProtocol': '' };
/** `tools/call` requests the strict server received, by tool name. */
const received: string[] = [];

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('a.key');
  const { child, firstLine } = await procs.node(STRICT_2026_SERVER, ['--revisions', 'dual'], {
    STRICT_TRACE: '1',
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const match of chunk.toString().matchAll(/"method":"tools\/call","params":\{"name":"([a-z_]+)"/g))
      received.push(match[1]!);
  });
  const { url } = JSON.parse(firstLine) as { url: string };
  const port = await freePort();
  const config = procs.file(
    'dual.yml',
    gatewayConfig({
      keyFile: './a.key',
      relayUrl,
      sources: [
        {
          name: 'strict',
          body: `    transport: streamable_http\n    url: ${url}`,
          namespace: 'com.test.strict',
        },
      ],
      face: { port },
      stateDatabase: './dual.db',
    }),
  );
  await procs.adapter(config);
  faces.gateway = `http://127.0.0.1:${port}/mcp`;
  const a = await procs.keygen('x-a.key');
  const b = await procs.keygen('x-b.key');
  await procs.adapter(
    procs.file(
      'x-b.yml',
      wrapperConfig({
        keyFile: './x-b.key',
        relayUrl,
        source: {
          name: 'strict',
          body: `    transport: streamable_http\n    url: ${url}`,
          namespace: 'com.test.strict',
        },
        grantTo: a.ed25519,
        stateDatabase: './x-b.db',
      }),
    ),
  );
  const xPort = await freePort();
  await procs.adapter(
    procs.file(
      'x-a.yml',
      faceConfig({
        keyFile: './x-a.key',
        relayUrl,
        sources: [{ name: 'b', key: b.ed25519 }],
        port: xPort,
        stateDatabase: './x-a.db',
      }),
    ),
  );
  faces['across XProtocol'] = `http://127.0.0.1:${xPort}/mcp`;
}, 240_000);
afterAll(() => procs.close());

/** A client of `face` in `revision`, whose elicitation handler accepts with `{ok: true}`. */
async function connect(face: string, revision: '2025-11-25' | '2026-07-28') {
  const asked: string[] = [];
  const made = new Client(
    { name: `catalog-${revision}`, version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(revision === '2026-07-28' && { versionNegotiation: { mode: { pin: revision } } }),
    },
  );
  made.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { ok: true } };
  });
  await made.connect(new StreamableHTTPClientTransport(new URL(face)));
  return { client: made, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text?: string }[])[0]?.text;

describe.each(Object.keys(faces) as (keyof typeof faces)[])(
  'a server speaking both revisions, its source at the default revision: %s',
  (path) => {
    const client = (revision: '2025-11-25' | '2026-07-28') => connect(faces[path], revision);
    it('a 2026-07-28 client lists and calls the tool only 2026-07-28 clients are offered', async () => {
      const { client: modern, asked } = await client('2026-07-28');
      try {
        const names = (await modern.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['echo', 'add', 'confirm_action']));
        const confirmed = await modern.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } });
        expect(text(confirmed)).toBe('deploy: confirmed');
        expect(asked).toEqual(['Confirm: deploy?']);
        // Held to the tool's schema like every tool: refused by the gateway, never sent.
        const before = received.filter((name) => name === 'confirm_action').length;
        const refused = await modern.callTool({ name: 'confirm_action', arguments: { action: 7 } });
        expect(refused.isError).toBe(true);
        expect(text(refused)).toMatch(/Request payload does not conform to schema/);
        expect(received.filter((name) => name === 'confirm_action')).toHaveLength(before);
      } finally {
        await modern.close();
      }
    });

    it('a 2025-11-25 client beside it keeps the 2025-11-25 catalog', async () => {
      const { client: legacy } = await client('2025-11-25');
      const { client: modern } = await client('2026-07-28');
      try {
        const names = (await legacy.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['echo', 'add']));
        expect(names).not.toContain('confirm_action');
        const refused = await legacy.callTool({ name: 'confirm_action', arguments: { action: 'x' } }).then(
          (result) => JSON.stringify(result),
          (error: Error) => error.message,
        );
        expect(refused).toMatch(/Unknown tool: confirm_action/);
        expect(text(await legacy.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('old');
        expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain('confirm_action');
      } finally {
        await Promise.allSettled([legacy.close(), modern.close()]);
      }
    });

    it("each revision's client lists and is checked against its own revision's definition of a tool in both", async () => {
      const { client: legacy } = await client('2025-11-25');
      const { client: modern } = await client('2026-07-28');
      try {
        const addOf = async (c: Client) => (await c.listTools()).tools.find((tool) => tool.name === 'add');
        const modernAdd = await addOf(modern);
        const legacyAdd = await addOf(legacy);
        expect(modernAdd?.description).toMatch(/^Adds two integers\./);
        expect(modernAdd?.inputSchema.properties).toEqual({ a: { type: 'integer' }, b: { type: 'integer' } });
        expect(legacyAdd?.description).toMatch(/^Adds two numbers\./);
        expect(legacyAdd?.inputSchema.properties).toEqual({ a: { type: 'number' }, b: { type: 'number' } });
        // 1.5 fits the 2025-11-25 definition only: the 2026-07-28 client's call is refused, never sent.
        const before = received.filter((name) => name === 'add').length;
        const refused = await modern.callTool({ name: 'add', arguments: { a: 1.5, b: 1 } });
        expect(refused.isError).toBe(true);
        expect(text(refused)).toMatch(/Request payload does not conform to schema/);
        expect(received.filter((name) => name === 'add')).toHaveLength(before);
        expect(text(await modern.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
        expect(text(await legacy.callTool({ name: 'add', arguments: { a: 1.5, b: 1 } }))).toBe('2.5');
      } finally {
        await Promise.allSettled([legacy.close(), modern.close()]);
      }
    });
  },
);
