// SSE polling (MCP 2025-11-25) end to end: the strict fixture (packages/mcp-bridge/test/fixtures/
// strict-sse-polling-server.mjs) closes a tool call's stream after a priming event and `retry`,
// and hands the result only to a GET with `Last-Event-ID`. Through the gateway (an adapter whose
// mcp_sources names the strict server over Streamable HTTP) and across XProtocol (a face whose
// xprotocol_sources names an adapter wrapping another strict server), a face client gets the
// result, and the server ran the call once and saw the resumption. Then the official runner's
// `server-sse-polling` scenario (conformance@0.2.0-alpha.12, fetched by npx with Node 22) against
// the strict server directly, through the gateway and across XProtocol.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceConfig, gatewayConfig, wrapperConfig } from './support/adapter-configs.js';
import { fetchConformance, runConformance, summary } from './support/conformance-runner.js';
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
const faces = { direct: '', gateway: '', xp: '' };
/** How long the strict servers hold a resumed connection while a result is not ready. */
const HOLD_MS = 1000;
const clients: Client[] = [];

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const a = await procs.keygen('a.key');
  const b = await procs.keygen('b.key');
  const timing = { XP_STRICT_HOLD_MS: String(HOLD_MS), XP_STRICT_RETRY_MS: '300' };
  const strictG = await procs.node(STRICT_SERVER, ['0'], { ...timing, XP_STRICT_EVENTS: events.gateway });
  const strictX = await procs.node(STRICT_SERVER, ['0'], { ...timing, XP_STRICT_EVENTS: events.xp });
  faces.direct = strictG.firstLine;
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
        // The result comes on the second resumption: the first resumed connection closes with no
        // new event, and the link must resume from the id it got on the POST stream.
        { name, arguments: { text: `polled-${kind}`, resumptions: 2 } },
        { timeout: 20_000 },
      );
      expect(result.content).toEqual([{ type: 'text', text: `polled-${kind}` }]);
      const seen = recorded(events[kind]);
      expect(seen.filter((e) => e.event === 'call' && e.tool === 'slow_polling')).toHaveLength(1);
      const resumes = seen.filter((e) => e.event === 'resume');
      expect(resumes).toHaveLength(2);
      expect(resumes.every((e) => e.status === 200)).toBe(true);
      // The only refusals are the standalone streams a session may open after initialize (405)
      // and, once, the adapter asking this 2025-11-25 server whether it also speaks 2026-07-28
      // (a request with no session: 400, see modern-surface.ts); once the call started, every GET
      // resumed its stream.
      const probe = (e: Record<string, unknown>) =>
        e.status === 400 && /Mcp-Session-Id/.test(String(e.reason));
      const refused = seen.filter((e) => e.event === 'refused' && e.status !== 405);
      expect(refused.filter((e) => !probe(e))).toEqual([]);
      expect(refused.length).toBeLessThanOrEqual(1);
      const started = seen.findIndex((e) => e.event === 'call');
      expect(seen.slice(started).filter((e) => e.event === 'refused')).toEqual([]);
    }, 60_000);
  }
});

describe('the official runner: server-sse-polling directly, through the gateway and across XProtocol', () => {
  it('fails no check anywhere; directly the server is resumed after its close (3 checks), through the adapter the face keeps its stream whole (2 checks)', async () => {
    const runner = { version: '0.2.0-alpha.12', args: ['--scenario', 'server-sse-polling'] };
    await fetchConformance(runner, procs.dir, 300_000);
    const targets = ['direct', 'gateway', 'xp'] as const;
    const runs = await Promise.all(
      targets.map((target) =>
        runConformance(runner, faces[target], join(procs.dir, `runner-${target}`), procs.dir, 120_000),
      ),
    );
    const results = Object.fromEntries(targets.map((target, i) => [target, runs[i]!]));
    process.stderr.write(`${summary('server-sse-polling', results)}\n`);
    const scenario = (target: (typeof targets)[number]) => results[target]!.get('server-sse-polling');
    expect(scenario('direct')).toMatchObject({ passed: 3, failed: 0, warnings: 0 });
    // The face answers on a stream it keeps open until the result (docs/architecture.md,
    // "Streams"): priming event and retry pass, and the resumption check has nothing to resume.
    expect(scenario('gateway')).toMatchObject({ passed: 2, failed: 0, warnings: 0 });
    expect(scenario('xp')).toMatchObject({ passed: 2, failed: 0, warnings: 0 });
  }, 400_000);
});
