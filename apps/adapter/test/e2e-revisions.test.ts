// MCP 2025-11-25 and 2026-07-28, both ways, through the gateway: a client of either revision in
// front of an upstream of either revision (the conformance fixture over stdio, which serves both;
// `mcp_sources[].mcp_revision` says which one the adapter speaks to it). Each combination makes a
// sampling call and an elicitation call, answered by the client's own handlers:
// - 2025 client, 2025 upstream: the server's requests are forwarded on the client's session;
// - 2025 client, 2026 upstream: the upstream's input-required results are asked of the client as
//   requests of the server's, and the link calls again with the answers;
// - 2026 client, 2026 upstream: input-required results pass through as they are;
// - 2026 client, 2025 upstream: the call runs on a lease; the server's requests are parked and
//   reach the client as an input-required result, whose answers the lease sends back.
// The same four across XProtocol: the face's client, and the server behind adapter B (which speaks
// to it in the revision its `mcp_revision` names); a 2026-07-28 client of a 2025 server there gets
// the server's requests (xp.mcp.server_request) as an input-required result of the face's lease.
// See docs/architecture.md, "Two MCP revisions".
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conformanceStdioBody,
  faceConfig,
  gatewayConfig,
  type SourceBody,
  wrapperConfig,
} from './support/adapter-configs.js';
import { ADAPTER_BIN, CONFORMANCE_FIXTURE, freePort, Processes } from './support/processes.js';

type Revision = '2025-11-25' | '2026-07-28';
const procs = new Processes();
/** The gateway's URL, by the revision the adapter speaks to the upstream. */
const faces: Record<Revision, string> = { '2025-11-25': '', '2026-07-28': '' };
/** The URL of a face across XProtocol, by the revision adapter B speaks to the server. */
const across: Record<Revision, string> = { '2025-11-25': '', '2026-07-28': '' };
/** A gateway told `mcp_revision: auto`: it asks the fixture which revision it speaks. */
let autoFace = '';
/** A gateway in front of the fixture over Streamable HTTP (one process: its list changes reach every session). */
let httpFace = '';
/** The configuration file of a gateway whose face is stdio (each client starts one), by upstream revision. */
const stdioFaces: Record<Revision, string> = { '2025-11-25': '', '2026-07-28': '' };

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const a = await procs.keygen('a.key');
  for (const upstream of ['2025-11-25', '2026-07-28'] as const) {
    const port = await freePort();
    const fixture: SourceBody = `${conformanceStdioBody()}\n    mcp_revision: "${upstream}"`;
    const source = { name: 'fixture', body: fixture, namespace: 'com.test.fixture' };
    await procs.adapter(
      procs.file(
        `gateway-${upstream}.yml`,
        gatewayConfig({
          keyFile: './a.key',
          relayUrl,
          sources: [source],
          face: { port },
          stateDatabase: `./state-${upstream}.db`,
        }),
      ),
    );
    faces[upstream] = `http://127.0.0.1:${port}/mcp`;
    // Across XProtocol: adapter B wraps the fixture; a face (key a) serves B's tools.
    const b = await procs.keygen(`b-${upstream}.key`);
    await procs.adapter(
      procs.file(
        `b-${upstream}.yml`,
        wrapperConfig({
          keyFile: `./b-${upstream}.key`,
          relayUrl,
          source,
          grantTo: a.ed25519,
          stateDatabase: `./b-${upstream}.db`,
        }),
      ),
    );
    const facePort = await freePort();
    await procs.adapter(
      procs.file(
        `face-${upstream}.yml`,
        faceConfig({
          keyFile: './a.key',
          relayUrl,
          sources: [{ name: 'b', key: b.ed25519 }],
          port: facePort,
          stateDatabase: `./face-${upstream}.db`,
        }),
      ),
    );
    across[upstream] = `http://127.0.0.1:${facePort}/mcp`;
    stdioFaces[upstream] = procs.file(
      `stdio-face-${upstream}.yml`,
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [source],
        face: { stdio: true, logFile: `./stdio-face-${upstream}.log` },
        stateDatabase: `./stdio-${upstream}.db`,
      }),
    );
  }
  const autoPort = await freePort();
  await procs.adapter(
    procs.file(
      'gateway-auto.yml',
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'fixture',
            body: `${conformanceStdioBody()}\n    mcp_revision: auto`,
            namespace: 'com.test.fixture',
          },
        ],
        face: { port: autoPort },
        stateDatabase: './state-auto.db',
      }),
    ),
  );
  autoFace = `http://127.0.0.1:${autoPort}/mcp`;
  const fixture = await procs.node(CONFORMANCE_FIXTURE, ['0']);
  const httpPort = await freePort();
  await procs.adapter(
    procs.file(
      'gateway-http.yml',
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'fixture',
            body: `    transport: streamable_http\n    url: ${fixture.firstLine}\n    mcp_revision: "2026-07-28"`,
            namespace: 'com.test.fixture',
          },
        ],
        face: { port: httpPort },
        stateDatabase: './state-http.db',
      }),
    ),
  );
  httpFace = `http://127.0.0.1:${httpPort}/mcp`;
}, 180_000);
afterAll(() => procs.close());

/**
 * A client of `revision` with sampling and elicitation handlers that note what they were asked,
 * connected to the face at `url`, or to a stdio face started with the configuration file `url`.
 */
async function clientOf(revision: Revision, url: string) {
  const asked: string[] = [];
  const client = new Client(
    { name: `client-${revision}`, version: '1.0.0' },
    {
      capabilities: { sampling: {}, elicitation: {} },
      versionNegotiation: { mode: revision === '2026-07-28' ? { pin: revision } : 'legacy' },
    },
  );
  client.setRequestHandler('sampling/createMessage', async (request) => {
    asked.push(`sampling: ${JSON.stringify(request.params.messages[0]?.content)}`);
    return { role: 'assistant', model: 'stub', content: { type: 'text', text: 'Paris' } };
  });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { name: 'Alice', username: 'alice', email: 'a@example.com' } };
  });
  await client.connect(
    url.startsWith('http')
      ? new StreamableHTTPClientTransport(new URL(url))
      : new StdioClientTransport({
          command: process.execPath,
          args: [ADAPTER_BIN, 'start', '--config', url],
          cwd: procs.dir,
        }),
  );
  return { client, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text?: string }[])[0]?.text;

describe('both MCP revisions through the gateway', () => {
  for (const [route, urls] of [
    ['the gateway', faces],
    ['across XProtocol', across],
    ['a stdio face', stdioFaces],
  ] as const)
    for (const clientRevision of ['2025-11-25', '2026-07-28'] as const) {
      for (const upstream of ['2025-11-25', '2026-07-28'] as const) {
        it(`${route}: a ${clientRevision} client, a ${upstream} server: sampling and elicitation reach the client and its answers the server`, async () => {
          const { client, asked } = await clientOf(clientRevision, urls[upstream]);
          try {
            expect(client.getNegotiatedProtocolVersion()).toBe(clientRevision);
            const sampled = await client.callTool({
              name: 'test_sampling',
              arguments: { prompt: 'Capital of France?' },
            });
            expect(text(sampled)).toBe('LLM response: Paris');
            const elicited = await client.callTool({
              name: 'test_elicitation',
              arguments: { message: 'Who are you?' },
            });
            // Parsed: across XProtocol the answer crosses as canonical JSON (keys sorted).
            const said = text(elicited) ?? '';
            expect(said.startsWith('User response: ')).toBe(true);
            expect(JSON.parse(said.slice('User response: '.length))).toEqual({
              action: 'accept',
              content: { name: 'Alice', username: 'alice', email: 'a@example.com' },
            });
            expect(asked).toEqual([
              'sampling: {"type":"text","text":"Capital of France?"}',
              'elicitation: Who are you?',
            ]);
          } finally {
            await client.close();
          }
        }, 60_000);
      }
    }

  it('a request of neither revision is refused saying what each expects', async () => {
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(faces['2025-11-25'], {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as { error: { code: number; message: string } },
      };
    };
    const meta = (version: string) => ({
      _meta: {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    });
    const plain = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(
      /send initialize first \(MCP 2025-11-25\), or give each request the 2026-07-28 _meta envelope/,
    );
    const batch = await post([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2026-07-28') }]);
    expect(batch.status).toBe(400);
    expect(batch.body.error.message).toMatch(/MCP 2026-07-28 has no batches/);
    const future = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2099-01-01') },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    );
    expect(future.body.error).toMatchObject({
      code: -32022,
      message: 'Unsupported protocol version: 2099-01-01',
    });
    const headerless = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2026-07-28') },
      { 'mcp-protocol-version': '2026-07-28' },
    );
    expect(headerless.status).toBe(400);
    expect(headerless.body.error).toMatchObject({ code: -32020 });
    expect(headerless.body.error.message).toMatch(/Mcp-Method header is absent/);
  });

  it("a 2026-07-28 client hears of the upstream's changed prompt list on subscriptions/listen", async () => {
    const client = new Client(
      { name: 'listener', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const heard: string[] = [];
    client.setNotificationHandler('notifications/prompts/list_changed', () => {
      heard.push('prompts');
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(httpFace)));
    try {
      const subscription = await client.listen({ promptsListChanged: true });
      // The fixture's trigger tool publishes a prompt-list change on its subscriptions/listen
      // streams, the adapter's own session's among them.
      await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
      await expect.poll(() => heard, { timeout: 10_000 }).toEqual(['prompts']);
      await subscription.close();
    } finally {
      await client.close();
    }
  }, 60_000);

  it('mcp_revision: auto finds that the fixture speaks 2026-07-28, and every session speaks it', async () => {
    const { client, asked } = await clientOf('2025-11-25', autoFace);
    try {
      // The fixture lists its 2026-07-28-only tools only to 2026-07-28 clients: the adapter's own
      // session found that revision.
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('test_custom_headers');
      // The client's own link speaks it too: the input-required result is asked of the client.
      const sampled = await client.callTool({ name: 'test_input_required_result_sampling', arguments: {} });
      expect(text(sampled)).toBe('LLM response: Paris');
      expect(asked).toEqual(['sampling: {"type":"text","text":"What is the capital of France?"}']);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a 2026-07-28 client of a 2025 upstream gets the server request as an input-required result, signed; a changed requestState is refused', async () => {
    const client = new Client(
      { name: 'manual', version: '1.0.0' },
      {
        capabilities: { elicitation: {} },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(faces['2025-11-25'])));
    try {
      const call = (extra: Record<string, unknown> = {}) =>
        client.request(
          {
            method: 'tools/call',
            params: { name: 'test_elicitation', arguments: { message: 'Name?' }, ...extra },
          },
          { allowInputRequired: true },
        ) as Promise<Record<string, unknown>>;
      const first = await call();
      expect(first.resultType).toBe('input_required');
      const requests = first.inputRequests as Record<string, { method: string; params: { message: string } }>;
      const [key, request] = Object.entries(requests)[0]!;
      expect(request.method).toBe('elicitation/create');
      expect(request.params.message).toBe('Name?');
      expect(typeof first.requestState).toBe('string');
      const answer = { [key]: { action: 'decline' } };
      // A requestState that was changed, or never minted here, is refused before anything runs.
      await expect(
        call({ inputResponses: answer, requestState: `${first.requestState}x` }),
      ).rejects.toMatchObject({
        code: -32602,
      });
      const done = await call({ inputResponses: answer, requestState: first.requestState });
      expect(done.resultType ?? 'complete').toBe('complete');
      expect(text(done as { content?: unknown })).toBe('User response: {"action":"decline"}');
      // The lease ended with the call: its state names nothing any more.
      await expect(call({ inputResponses: answer, requestState: first.requestState })).rejects.toMatchObject({
        code: -32602,
      });
    } finally {
      await client.close();
    }
  }, 60_000);
});
