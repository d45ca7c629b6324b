// A gateway in front of a server that speaks both MCP revisions (the hand-written strict server,
// `--revisions dual`: its 2026-07-28 clients get `confirm_action`, which asks for input with an
// input-required result; its 2025-11-25 sessions do not), with the source's revision left at its
// default: a 2026-07-28 client and a 2025-11-25 client side by side each get the server's surface
// of their own revision, and every request the server receives carries the headers and `_meta` of
// its link's revision only. And a source whose gateway link cannot open: a call of a tool it does
// not list says the server's own reason. See docs/architecture.md, "Two MCP revisions".
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { nodeCipher } from '@xprotocol/crypto/node';
import { translateSource } from '@xprotocol/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LocalToolSource,
  McpFace,
  type McpFaceServer,
  StateDatabase,
  serveMcpFace,
  type UpstreamTransport,
} from '../src/index.js';
import { recordingLogger } from './support/http-servers.js';
import { type StrictRequest, startStrict2026, stopStrict2026 } from './support/strict-2026.js';

const NAMESPACE = 'test.strict';
const PREFIX = 'io.modelcontextprotocol/';
const schema = (property: string) => ({
  type: 'object' as const,
  properties: { [property]: { type: 'string' } },
  required: [property],
});
/** The face's catalog: what the adapter publishes of the server (both revisions' tools). */
const listed = translateSource({
  name: 'strict',
  namespace: NAMESPACE,
  adapterVersion: '0.0.0',
  tools: [
    { name: 'echo', description: 'Returns the text it is given, unchanged.', inputSchema: schema('text') },
    {
      name: 'confirm_action',
      description: 'Asks the user to confirm an action, then reports the answer.',
      inputSchema: schema('action'),
    },
  ],
});

const served: McpFaceServer[] = [];
const clients: Client[] = [];
/** What the dual server received. */
const trace: StrictRequest[] = [];
let dualFace = '';

/** A face whose one gateway source, `strict`, is the server at `transport` with these contracts. */
async function face(transport: UpstreamTransport, contracts: LocalToolSource['contracts']): Promise<string> {
  const gateway = new McpFace({
    state: new StateDatabase(':memory:'),
    callTimeoutMs: 10_000,
    sha256: nodeCipher.sha256,
    serverInfo: { name: 'surfaces-test', version: '0.0.0' },
    sources: [],
    localSources: [
      {
        name: 'strict',
        key: 'gateway',
        contracts,
        call: async () => {
          throw new Error('a gateway call goes through the client’s link');
        },
        gateway: {
          transport,
          capabilities: () => ({ tools: {}, prompts: {}, resources: {}, completions: {} }),
          toolName: (kind) => kind.slice(NAMESPACE.length + 1),
        },
      },
    ],
  });
  const server = await serveMcpFace(gateway, { transport: 'streamable_http', port: 0 }, recordingLogger());
  served.push(server);
  return server.url;
}

/** A client of `url` in `revision` that accepts every elicitation with `{ok: true}`. */
async function client(url: string, revision: '2025-11-25' | '2026-07-28') {
  const asked: string[] = [];
  const made = new Client(
    { name: `client-${revision}`, version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(revision === '2026-07-28' && { versionNegotiation: { mode: { pin: revision } } }),
    },
  );
  made.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { ok: true } };
  });
  await made.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(made);
  return { client: made, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text?: string }[])[0]?.text;
const outcome = (call: Promise<{ content?: unknown }>) =>
  call.then(
    (result) => text(result),
    (error: Error) => error.message,
  );

beforeAll(async () => {
  const url = await startStrict2026(['--revisions', 'dual'], trace);
  dualFace = await face({ type: 'streamable_http', url }, () => listed.contracts);
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(served.map((s) => s.close()));
  stopStrict2026();
});

describe('a server speaking both revisions, behind a gateway left at the default revision', () => {
  it('each client gets the surface of its own revision, side by side', async () => {
    const modern = await client(dualFace, '2026-07-28');
    const legacy = await client(dualFace, '2025-11-25');
    expect(await outcome(modern.client.callTool({ name: 'echo', arguments: { text: 'new' } }))).toBe('new');
    expect(await outcome(legacy.client.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('old');
    // The 2026-07-28 tool: its input-required round trip reaches the 2026-07-28 client.
    const confirmed = modern.client.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } });
    expect(await outcome(confirmed)).toBe('deploy: confirmed');
    expect(modern.asked).toEqual(['Confirm: deploy?']);
    // The server offers it to no 2025-11-25 session: that client's link gets the server's own answer.
    const refused = legacy.client.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } });
    expect(await outcome(refused)).toMatch(/Unknown tool: confirm_action/);
    expect(legacy.asked).toEqual([]);
  });

  it('every request the server received carries its link’s revision only', () => {
    const calls = trace.filter((request) => request.body?.method === 'tools/call');
    expect(calls.length).toBeGreaterThanOrEqual(5);
    for (const request of trace.filter((r) => r.method === 'POST')) {
      const meta = (request.body?.params?._meta ?? {}) as Record<string, unknown>;
      const session =
        request.headers['mcp-session-id'] !== undefined || request.body?.method === 'initialize';
      if (session) {
        // A 2025-11-25 link: its session's revision, never a 2026-07-28 envelope.
        expect([undefined, '2025-11-25']).toContain(request.headers['mcp-protocol-version']);
        expect(meta[`${PREFIX}protocolVersion`]).toBeUndefined();
      } else {
        expect(request.headers['mcp-protocol-version']).toBe('2026-07-28');
        expect(meta[`${PREFIX}protocolVersion`]).toBe('2026-07-28');
      }
    }
    // The 2026-07-28 client's calls went as it sent them (its own envelope), the other's in a session.
    const callers = calls.map((request) => {
      const meta = (request.body?.params?._meta ?? {}) as Record<string, { name?: string }>;
      return `${String(request.body?.params?.name)} ${meta[`${PREFIX}clientInfo`]?.name ?? 'session'}`;
    });
    expect(callers).toEqual(
      expect.arrayContaining([
        'echo client-2026-07-28',
        'echo session',
        'confirm_action client-2026-07-28',
        'confirm_action session',
      ]),
    );
  });
});

describe('a gateway source whose link cannot open', () => {
  it('a call of a tool it does not list says the server’s own reason', async () => {
    const url = await startStrict2026(['--refuse-envelope']);
    const refusing = await face({ type: 'streamable_http', url, revision: '2026-07-28' }, () => []);
    const { client: modern } = await client(refusing, '2026-07-28');
    const failed = await outcome(modern.callTool({ name: 'echo', arguments: { text: 'x' } }));
    expect(failed).toMatch(
      /Unknown tool: echo \(MCP source strict serves no tools: strict: cannot open a gateway session: server\/discover was answered -32602 Invalid params: missing _meta or required fields/,
    );
  });
});
