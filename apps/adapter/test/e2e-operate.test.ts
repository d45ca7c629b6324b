// Operating the adapter (docs/operating.md), against the built adapter bin wrapping the real
// server-filesystem, with a real relay: calls on the HTTP face (ok, an unknown tool, a rate-limit
// refusal) and over XProtocol through `xprotocol-adapter call` (ok, a grant refusal, an unknown
// kind); then /metrics on the admin listener, parsed by an independent parser from npm, counts
// exactly those calls, and the audit log has one line per call with no argument value. Requests
// the face refuses before any call (no or a wrong token, a foreign Host or Origin) are counted by
// reason; a second source whose child is SIGKILLed until its crash breaker opens shows its
// restarts and the open breaker. The admin listener's defences are attacked: missing or wrong
// token, foreign Host or Origin, other methods, a body, an oversized request.
import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody } from './support/adapter-configs.js';
import { FS_SERVER, freePort, Processes } from './support/processes.js';

const TOKEN = 'admin-token-for-the-test-0123456789';
const FACE_TOKEN = 'face-token-for-the-test-0123456789';
const SECRET_TEXT = 'do-not-log-this-argument-value';
const procs = new Processes();
let relayUrl: string;
let adapter: { ed25519: string };
let client: { path: string; ed25519: string };
let facePort: number;
let adminPort: number;
let auditPath: string;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  adapter = await procs.keygen('adapter.key');
  client = await procs.keygen('client.key');
  procs.file('hello.txt', `${SECRET_TEXT}\n`);
  [facePort, adminPort] = [await freePort(), await freePort()];
  auditPath = `${procs.dir}/audit.log`;
  const config = procs.file(
    'adapter.yml',
    `identity:
  key_file: ./adapter.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fs
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${procs.dir}'"
    xprotocol_namespace: com.test.fs
    rate_limit:
      requests_per_minute: 3
  - name: crashy
${conformanceStdioBody()}
    env: { XP_FIXTURE_PID_FILE: ${JSON.stringify(`${procs.dir}/crashy.pids`)} }
    xprotocol_namespace: com.test.crashy
access:
  default: deny
  grants:
    - key: ${client.ed25519}
      capabilities: [com.test.fs.read]
mcp_server:
  transport: streamable_http
  port: ${facePort}
  expose: [mcp_sources]
  auth:
    token_env: XP_FACE_TOKEN
admin:
  port: ${adminPort}
  token_env: XP_ADMIN_TOKEN
audit:
  path: ./audit.log
state_database: ./state.db
logging:
  level: warn
  format: json
`,
  );
  await procs.adapter(config, { ...process.env, XP_ADMIN_TOKEN: TOKEN, XP_FACE_TOKEN: FACE_TOKEN });
}, 90_000);
afterAll(() => procs.close());

const xpCall = (kind: string, payload: unknown) =>
  procs.cli([
    'call',
    '--key',
    client.path,
    '--relay',
    relayUrl,
    '--to',
    adapter.ed25519,
    '--kind',
    kind,
    '--payload',
    JSON.stringify(payload),
    '--timeout-ms',
    '15000',
  ]);

/** A raw Streamable HTTP session on the face: `call(name, args)` gives the status and JSON body. */
async function faceSession() {
  const url = `http://127.0.0.1:${facePort}/mcp`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${FACE_TOKEN}`,
  };
  let id = 0;
  const post = async (method: string, params: unknown) => {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const text = await response.text();
    const data = text.startsWith('{') ? text : (/^data: (.+)$/m.exec(text)?.[1] ?? 'null');
    return {
      status: response.status,
      session: response.headers.get('mcp-session-id'),
      body: JSON.parse(data),
    };
  };
  const init = await post('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'operate-test', version: '0' },
  });
  headers['mcp-session-id'] = init.session ?? '';
  headers['mcp-protocol-version'] = '2025-11-25';
  await fetch(url, {
    method: 'POST',
    headers,
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  });
  return {
    list: () => post('tools/list', {}),
    call: (name: string, args: Record<string, unknown>) => post('tools/call', { name, arguments: args }),
  };
}

/** GET /metrics with `headers`; status and body. */
async function scrape(headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const response = await fetch(`http://127.0.0.1:${adminPort}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** A raw HTTP exchange with the admin listener (what fetch will not send: any Host, a GET body). */
function raw(options: {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  port?: number;
}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: options.port ?? adminPort,
        method: options.method ?? 'GET',
        path: options.path ?? '/metrics',
        headers: { authorization: `Bearer ${TOKEN}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * The count of one histogram series (its `+Inf` bucket), with its buckets checked cumulative. The
 * parser keeps the buckets of a histogram by `le` alone, so it is given that series' lines only.
 */
function histogramCount(text: string, family: string, labels: Record<string, string>): number {
  const prefix = `${family}_bucket{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',')},le=`;
  const series = text.split('\n').filter((line) => line.startsWith(prefix));
  const [parsed] = parsePrometheusTextFormat(`# TYPE ${family} histogram\n${series.join('\n')}\n`);
  // By bound (an object keeps integer-like keys first, whatever the order they came in).
  const buckets = Object.entries(parsed?.metrics[0]?.buckets ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, count]) => Number(count));
  expect(buckets.length).toBeGreaterThan(1);
  expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
  return buckets.at(-1) ?? 0;
}

/** The value of the sample of `family` whose labels include `labels`; 0 when there is none. */
function sample(text: string, family: string, labels: Record<string, string>): number {
  const parsed = parsePrometheusTextFormat(text).find((f) => f.name === family);
  const match = parsed?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!match) return 0;
  return Number(match.value ?? match.count);
}

describe('metrics and the audit log of real calls', () => {
  it('counts each call the face and the endpoint served, and audits one line per call without argument values', async () => {
    const face = await faceSession();
    const tools = (await face.list()).body.result.tools as { name: string }[];
    const read = tools.find((t) => t.name.endsWith('read_text_file'))?.name;
    expect(read).toBeDefined();
    const file = `${procs.dir}/hello.txt`;
    // The face: an unknown tool, three reads (the rate limit's budget), then a fourth: 429.
    const unknown = await face.call('no_such_tool', { secret: SECRET_TEXT });
    expect(unknown.body.error.code).toBe(-32602);
    for (let i = 0; i < 3; i++) {
      const ok = await face.call(read!, { path: file });
      expect(ok.status).toBe(200);
      expect(ok.body.result.content[0].text).toContain(SECRET_TEXT);
    }
    expect((await face.call(read!, { path: file })).status).toBe(429);
    // XProtocol: a read, a write without the grant, an unknown kind.
    const xpOk = await xpCall('com.test.fs.read_text_file', { path: file });
    expect(xpOk.code).toBe(0);
    const xpDenied = await xpCall('com.test.fs.write_file', {
      path: `${procs.dir}/x.txt`,
      content: SECRET_TEXT,
    });
    expect(JSON.parse(xpDenied.stdout).error.code).toBe('AUTHORIZATION_INSUFFICIENT');
    const xpUnknown = await xpCall('com.test.fs.nothing_here', { secret: SECRET_TEXT });
    expect(JSON.parse(xpUnknown.stdout).error.code).toBe('NOT_FOUND');

    const { status, type, body } = await scrape();
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const calls = 'xprotocol_adapter_calls_total';
    const faceRead = { path: 'face', source: 'fs', tool: read! };
    expect(sample(body, calls, { ...faceRead, outcome: 'ok' })).toBe(3);
    expect(sample(body, calls, { ...faceRead, outcome: 'refused' })).toBe(1);
    expect(sample(body, calls, { path: 'face', source: 'other', tool: 'other', outcome: 'refused' })).toBe(1);
    const xp = { path: 'xprotocol', source: 'fs' };
    expect(sample(body, calls, { ...xp, tool: 'com.test.fs.read_text_file', outcome: 'ok' })).toBe(1);
    expect(sample(body, calls, { ...xp, tool: 'com.test.fs.write_file', outcome: 'refused' })).toBe(1);
    expect(
      sample(body, calls, { path: 'xprotocol', source: 'other', tool: 'other', outcome: 'refused' }),
    ).toBe(1);
    const refusals = 'xprotocol_adapter_refusals_total';
    expect(sample(body, refusals, { path: 'face', reason: 'rate_limit' })).toBe(1);
    expect(sample(body, refusals, { path: 'face', reason: 'unknown_tool' })).toBe(1);
    expect(sample(body, refusals, { path: 'xprotocol', reason: 'grant' })).toBe(1);
    expect(sample(body, refusals, { path: 'xprotocol', reason: 'unknown_tool' })).toBe(1);
    // The histogram holds every call of its series, refused ones included.
    const histogram = 'xprotocol_adapter_call_duration_seconds';
    expect(histogramCount(body, histogram, faceRead)).toBe(4);
    expect(histogramCount(body, histogram, { ...xp, tool: 'com.test.fs.read_text_file' })).toBe(1);
    expect(parsePrometheusTextFormat(body).find((f) => f.name === histogram)?.type).toBe('HISTOGRAM');
    expect(sample(body, 'xprotocol_adapter_relay_connected', { relay: relayUrl })).toBe(1);
    expect(sample(body, 'xprotocol_adapter_upstream_connected', { source: 'fs' })).toBe(1);
    expect(sample(body, 'xprotocol_adapter_face_sessions', {})).toBeGreaterThanOrEqual(1);
    expect(body).not.toContain(SECRET_TEXT);
    expect(body).not.toContain('no_such_tool');

    const text = readFileSync(auditPath, 'utf8');
    expect(statSync(auditPath).mode & 0o777).toBe(0o600);
    expect(text).not.toContain(SECRET_TEXT);
    expect(text).not.toContain(file);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(8);
    const verdicts = lines.map((l) => `${l.path} ${l.tool} ${l.verdict} ${l.reason ?? ''}`.trim());
    expect(verdicts).toEqual([
      'face null refused unknown_tool',
      `face ${read} ok`,
      `face ${read} ok`,
      `face ${read} ok`,
      `face ${read} refused rate_limit`,
      'xprotocol com.test.fs.read_text_file ok',
      'xprotocol com.test.fs.write_file refused grant',
      'xprotocol null refused unknown_tool',
    ]);
    // The same arguments hash the same; every line has its time and latency.
    expect(new Set(lines.slice(1, 4).map((l) => l.arguments_sha256)).size).toBe(1);
    expect(lines[1]!.arguments_sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const line of lines) {
      expect(typeof line.time).toBe('string');
      expect(typeof line.latency_ms).toBe('number');
    }
    expect(lines[5]!.caller).toBe(client.ed25519);
  }, 120_000);
});

describe('metrics of what the face refuses before a call, and of a crashing source', () => {
  it('counts 401 and 403 refusals of the HTTP face by reason, none of them as a call', async () => {
    const before = (await scrape()).body;
    const calls = (text: string) =>
      parsePrometheusTextFormat(text)
        .find((f) => f.name === 'xprotocol_adapter_calls_total')
        ?.metrics.reduce((sum, m) => sum + Number(m.value), 0) ?? 0;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    const face = (headers: Record<string, string>) =>
      raw({
        port: facePort,
        method: 'POST',
        path: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${FACE_TOKEN}`,
          ...headers,
        },
        body: initialize,
      });
    expect((await face({ authorization: '' })).status).toBe(401);
    expect((await face({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await face({ host: 'evil.example' })).status).toBe(403);
    expect((await face({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await face({ origin: 'http://evil.example' })).status).toBe(403);
    const { body } = await scrape();
    const refused = 'xprotocol_adapter_http_refusals_total';
    expect(sample(body, refused, { status: '401', reason: 'authentication' })).toBe(2);
    expect(sample(body, refused, { status: '403', reason: 'host' })).toBe(1);
    expect(sample(body, refused, { status: '403', reason: 'origin' })).toBe(2);
    expect(parsePrometheusTextFormat(body).find((f) => f.name === refused)?.type).toBe('COUNTER');
    expect(body).not.toContain('evil.example');
    expect(calls(body)).toBe(calls(before));
  });

  it('counts the restarts of a crashing source and shows its breaker open after the crash loop', async () => {
    const pidFile = `${procs.dir}/crashy.pids`;
    const pids = () => readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number);
    const restarts = async () =>
      sample((await scrape()).body, 'xprotocol_adapter_upstream_restarts_total', { source: 'crashy' });
    const until = async (what: string, check: () => Promise<boolean>) => {
      for (let i = 0; i < 3000 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
      if (!(await check())) throw new Error(`still waiting for ${what}`);
    };
    await until(
      'the crashy source to connect',
      async () =>
        sample((await scrape()).body, 'xprotocol_adapter_upstream_connected', { source: 'crashy' }) === 1,
    );
    expect(await restarts()).toBe(0);
    expect(
      sample((await scrape()).body, 'xprotocol_adapter_upstream_breaker_open', { source: 'crashy' }),
    ).toBe(0);
    // The breaker opens at the fifth crash within a minute: four restarts before it.
    for (let crash = 1; crash <= 5; crash++) {
      process.kill(pids().at(-1)!, 'SIGKILL');
      if (crash < 5) await until(`restart ${crash}`, async () => (await restarts()) === crash);
    }
    await until(
      'the breaker to open',
      async () =>
        sample((await scrape()).body, 'xprotocol_adapter_upstream_breaker_open', { source: 'crashy' }) === 1,
    );
    const { body } = await scrape();
    expect(sample(body, 'xprotocol_adapter_upstream_restarts_total', { source: 'crashy' })).toBe(4);
    expect(sample(body, 'xprotocol_adapter_upstream_restarts_total', { source: 'fs' })).toBe(0);
    expect(sample(body, 'xprotocol_adapter_upstream_breaker_open', { source: 'fs' })).toBe(0);
    expect(sample(body, 'xprotocol_adapter_upstream_connected', { source: 'crashy' })).toBe(0);
  }, 120_000);
});

describe('the admin listener refuses what is not a scrape', () => {
  it('asks for its own token: none, a wrong one, or the token without Bearer is 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
      const { status, body } = await scrape(headers);
      expect(status).toBe(401);
      expect(body).not.toContain('xprotocol_adapter_');
    }
  });

  it('refuses a foreign Host (DNS rebinding) and any Origin (a browser) with 403', async () => {
    const foreign = await raw({ headers: { host: 'evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatch(/Host/);
    const otherPort = await raw({ headers: { host: `127.0.0.1:${adminPort + 1}` } });
    expect(otherPort.status).toBe(403);
    const origin = await raw({ headers: { origin: 'http://evil.example' } });
    expect(origin.status).toBe(403);
    expect(origin.body).toMatch(/Origin/);
  });

  it('serves GET /metrics only: other methods 405, a body 413, other paths 404', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      expect((await raw({ method })).status).toBe(405);
    }
    expect((await raw({ headers: { 'content-length': '5' }, body: 'hello' })).status).toBe(413);
    expect((await raw({ path: '/' })).status).toBe(404);
    expect((await raw({ path: '/metrics/../admin' })).status).toBe(404);
  });

  it('refuses an oversized request: a long URL 414, oversized headers 431', async () => {
    expect((await raw({ path: `/metrics?${'a'.repeat(2000)}` })).status).toBe(414);
    expect((await raw({ headers: { 'x-filler': 'a'.repeat(16 * 1024) } })).status).toBe(431);
  });
});
