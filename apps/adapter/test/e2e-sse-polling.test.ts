// SSE polling (MCP 2025-11-25) end to end: the strict fixture (packages/mcp-bridge/test/fixtures/
// strict-sse-polling-server.mjs) closes a tool call's stream after a priming event and `retry`,
// and hands the result only to a GET with `Last-Event-ID`. Through the gateway (an adapter whose
// mcp_sources names the strict server over Streamable HTTP) and across XProtocol (a face whose
// xprotocol_sources names an adapter wrapping another strict server), a face client gets the
// result, and the server ran the call once and saw the resumption.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceConfig, gatewayConfig, wrapperConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const STRICT_SERVER = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'packages',
  'mcp-bridge',
  'test',
  'fixtures',
  'strict-sse-polling-server.mjs',
);

const procs = new Processes();
const events = { gateway: join(procs.dir, 'strict-g.jsonl'), xp: join(procs.dir, 'strict-x.jsonl') };
const faces = { gateway: '', xp: '' };
const clients: Client[] = [];

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const a = await procs.keygen('a.key');
  const b = await procs.keygen('b.key');
  // The call works 2.5 s and a resumed connection is held 1 s: the link resumes twice, the second
  // time from an event id it received on an earlier connection of the stream.
  const timing = { XP_STRICT_WORK_MS: '2500', XP_STRICT_HOLD_MS: '1000', XP_STRICT_RETRY_MS: '300' };
  const strictG = await procs.node(STRICT_SERVER, ['0'], { ...timing, XP_STRICT_EVENTS: events.gateway });
  const strictX = await procs.node(STRICT_SERVER, ['0'], { ...timing, XP_STRICT_EVENTS: events.xp });
  const gatewayPort = await freePort();
  await procs.adapter(
    procs.file(
      'g.yml',
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'strict',
            body: `    transport: streamable_http\n    url: ${strictG.firstLine}`,
            namespace: 'com.test.strict',
          },
        ],
        face: { port: gatewayPort },
        stateDatabase: './g-state.db',
      }),
    ),
  );
  faces.gateway = `http://127.0.0.1:${gatewayPort}/mcp`;
  await procs.adapter(
    procs.file(
      'b.yml',
      wrapperConfig({
        keyFile: './b.key',
        relayUrl,
        source: {
          name: 'strict',
          body: `    transport: streamable_http\n    url: ${strictX.firstLine}`,
          namespace: 'com.test.strict',
        },
        grantTo: a.ed25519,
        stateDatabase: './b-state.db',
      }),
    ),
  );
  const xpPort = await freePort();
  await procs.adapter(
    procs.file(
      'x.yml',
      faceConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [{ name: 'b', key: b.ed25519 }],
        port: xpPort,
        stateDatabase: './x-state.db',
      }),
    ),
  );
  faces.xp = `http://127.0.0.1:${xpPort}/mcp`;
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await procs.close();
});

async function connect(face: string): Promise<Client> {
  const client = new Client({ name: 'sse-polling', version: '0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(face)));
  clients.push(client);
  return client;
}

/** The strict server's event lines. */
function recorded(file: string): { event: string; tool?: string; status?: number; lastEventId?: string }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The name under which the face lists `tool` (a face may prefix it). */
async function listedName(client: Client, tool: string): Promise<string> {
  const { tools } = await client.listTools();
  const found = tools.find((t) => t.name === tool || t.name.endsWith(tool));
  expect(found, `${tool} in ${tools.map((t) => t.name).join(', ')}`).toBeDefined();
  return found!.name;
}

describe('a tool call whose upstream stream is closed for polling', () => {
  for (const kind of ['gateway', 'xp'] as const) {
    it(`${kind}: the result reaches the face client once; the server ran the call once and was resumed with Last-Event-ID`, async () => {
      const client = await connect(faces[kind]);
      const name = await listedName(client, 'slow_polling');
      const result = await client.callTool(
        { name, arguments: { text: `polled-${kind}` } },
        { timeout: 20_000 },
      );
      expect(result.content).toEqual([{ type: 'text', text: `polled-${kind}` }]);
      const seen = recorded(events[kind]);
      expect(seen.filter((e) => e.event === 'call' && e.tool === 'slow_polling')).toHaveLength(1);
      const resumes = seen.filter((e) => e.event === 'resume');
      expect(resumes.length).toBeGreaterThanOrEqual(2);
      expect(resumes.every((e) => e.status === 200)).toBe(true);
      // The only refusals are the standalone streams a session may open after initialize (405);
      // once the call started, every GET resumed its stream.
      expect(seen.filter((e) => e.event === 'refused' && e.status !== 405)).toEqual([]);
      const started = seen.findIndex((e) => e.event === 'call');
      expect(seen.slice(started).filter((e) => e.event === 'refused')).toEqual([]);
    }, 60_000);
  }
});
