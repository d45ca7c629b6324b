// The latency the MCP gateway adds to a `tools/call`, against its baseline, in one run: an SDK
// client calls the conformance fixture's `test_simple_text` (1) directly over Streamable HTTP,
// (2) through an adapter face (`expose: [mcp_sources]`) with the fixture as a stdio upstream,
// (3) the same with a Streamable HTTP upstream, and (4) across XProtocol: adapter A's face → the
// relay → adapter B → the fixture over stdio. All real processes on loopback. Vitest prints hz,
// mean and p99 per task; the median, p99, calls/s, ratio to direct and the added latency per call
// are printed after the run.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { faceConfig, wrapperConfig } from '../test/support/adapter-configs.js';
import { CONFORMANCE_FIXTURE, freePort, Processes } from '../test/support/processes.js';

type Target = 'direct' | 'stdio' | 'http' | 'xp';
const TARGETS: Target[] = ['direct', 'stdio', 'http', 'xp'];
const LABELS: Record<Target, string> = {
  direct: 'direct to the fixture (baseline)',
  stdio: 'gateway, stdio upstream',
  http: 'gateway, Streamable HTTP upstream',
  xp: 'across XProtocol (A → relay → B)',
};

const procs = new Processes();
const clients = {} as Record<Target, Client>;
const tools = {} as Record<Target, string>;
const samples: Record<Target, number[]> = { direct: [], stdio: [], http: [], xp: [] };
// The defaults (600 calls a minute per source, 6000 events a minute per key) would throttle a bench.
const UNLIMITED = `    rate_limit:
      requests_per_minute: 1000000`;

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay(['--rate', '1000000']);
  const a = await procs.keygen('a.key');
  const b = await procs.keygen('b.key');
  const fixture = await procs.node(CONFORMANCE_FIXTURE, ['0']);
  const urls = { direct: fixture.firstLine } as Record<Target, string>;
  const stdioSource = `    transport: stdio
    command: ["${process.execPath}", "${CONFORMANCE_FIXTURE}", "stdio"]`;
  for (const kind of ['stdio', 'http'] as const) {
    const port = await freePort();
    const source =
      kind === 'stdio' ? stdioSource : `    transport: streamable_http\n    url: ${fixture.firstLine}`;
    await procs.adapter(
      procs.file(
        `${kind}.yml`,
        `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${source}
    xprotocol_namespace: com.test.conformance
${UNLIMITED}
access:
  grants: []
mcp_server:
  transport: streamable_http
  port: ${port}
  expose: [mcp_sources]
state_database: ./${kind}-state.db
logging:
  level: warn
  format: json
`,
      ),
    );
    urls[kind] = `http://127.0.0.1:${port}/mcp`;
  }
  // Across XProtocol: B wraps the fixture over stdio and grants A; A serves B's tools on its face.
  await procs.adapter(
    procs.file(
      'b.yml',
      wrapperConfig({
        keyFile: './b.key',
        relayUrl,
        source: { name: 'conformance', body: stdioSource, namespace: 'com.test.conformance' },
        sourceExtra: UNLIMITED,
        grantTo: a.ed25519,
        stateDatabase: './b-state.db',
      }),
    ),
  );
  const port = await freePort();
  await procs.adapter(
    procs.file(
      'xp.yml',
      faceConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [{ name: 'b', key: b.ed25519 }],
        port,
        stateDatabase: './xp-state.db',
      }),
    ),
  );
  urls.xp = `http://127.0.0.1:${port}/mcp`;
  for (const target of TARGETS) {
    const client = new Client({ name: `bench-${target}`, version: '0.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(urls[target])));
    clients[target] = client;
    tools[target] = await _simpleTextTool(client, target);
  }
}, 120_000);

afterAll(async () => {
  _report();
  await Promise.allSettled(Object.values(clients).map((client) => client.close()));
  await procs.close();
}, 60_000);

/** The name under which `target` lists the fixture's `test_simple_text` (A's face prefixes B's tools). */
async function _simpleTextTool(client: Client, target: Target): Promise<string> {
  // B's catalog reaches A asynchronously after start; poll until it is listed.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { tools: listed } = await client.listTools();
    const found = listed.find((tool) => tool.name.endsWith('test_simple_text'));
    if (found) return found.name;
    if (Date.now() > deadline)
      throw new Error(
        `${target}: expected a tool named …test_simple_text, received ${JSON.stringify(listed.map((t) => t.name))}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function _call(target: Target): Promise<void> {
  const started = performance.now();
  const result = await clients[target].callTool({ name: tools[target], arguments: {} }, { timeout: 30_000 });
  samples[target].push(performance.now() - started);
  if (result.isError)
    throw new Error(`${target}: tools/call ${tools[target]} failed: ${JSON.stringify(result)}`);
}

function _stats(values: number[]): { n: number; median: number; p99: number; hz: number } {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return { n: sorted.length, median: at(0.5), p99: at(0.99), hz: (1000 * sorted.length) / total };
}

/** Prints median, p99, calls/s, the median's ratio to direct, and the added latency per call. */
function _report(): void {
  const direct = _stats(samples.direct);
  const rows = TARGETS.map((target) => {
    const s = _stats(samples[target]);
    return `${LABELS[target].padEnd(36)} ${String(s.n).padStart(6)} ${s.median.toFixed(2).padStart(9)} ${s.p99
      .toFixed(2)
      .padStart(9)} ${s.hz.toFixed(0).padStart(8)} ${(s.median / direct.median).toFixed(2).padStart(6)}x ${(
      s.median - direct.median
    )
      .toFixed(2)
      .padStart(9)}`;
  });
  console.log(
    [
      '',
      `${'tools/call test_simple_text'.padEnd(36)} ${'n'.padStart(6)} ${'median ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'calls/s'.padStart(8)} ${'ratio'.padStart(7)} ${'added ms'.padStart(9)}`,
      ...rows,
      '',
    ].join('\n'),
  );
}

describe('tools/call through the MCP gateway, against calling the server directly', () => {
  for (const target of TARGETS) {
    bench(LABELS[target], () => _call(target), { time: 4000, warmupIterations: 10 });
  }
});
