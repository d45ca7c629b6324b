// Idempotency and replay (docs/operating.md, "Idempotency and replay"), against the built adapter
// bin in gateway mode wrapping the conformance fixture (the MCP SDK's server), which writes one line
// per tools/call it runs, so the test counts what the server really ran. Real SDK clients over
// Streamable HTTP send `_meta["io.xprotocol/idempotency-key"]`: a retry (from another session too)
// gets the first result and the server ran once; the same key with other arguments is refused; two
// calls with one key at the same moment run once. `xprotocol-adapter calls` lists the recorded calls
// and `replay <id>` shows one without running it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const KEY = 'io.xprotocol/idempotency-key';
const procs = new Processes();
const metaFile = join(procs.dir, 'meta.jsonl');
const clients: Client[] = [];
let config: string;
let url: string;
let tool: string;

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  config = procs.file(
    'gateway.yml',
    `mcp_sources:
  - name: conf
${conformanceStdioBody()}
    env:
      XP_FIXTURE_META: "${metaFile}"
    xprotocol_namespace: com.test.conf
mcp_server:
  transport: streamable_http
  port: ${port}
  expose: [mcp_sources]
audit:
  path: ./audit.log
state_database: ./gateway.db
logging:
  level: warn
  format: json
`,
  );
  await procs.adapter(config);
  const first = await client();
  tool = (await first.listTools()).tools.find((t) => t.name.endsWith('test_structured'))!.name;
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await procs.close();
});

async function client(): Promise<Client> {
  const c = new Client({ name: 'idempotency', version: '0.0.0' }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(c);
  return c;
}

/** How many times the server ran test_structured. */
function ran(): number {
  if (!existsSync(metaFile)) return 0;
  return readFileSync(metaFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .filter((line) => (JSON.parse(line) as { name: string }).name === 'test_structured').length;
}

const call = (c: Client, city: string, key?: string) =>
  c.callTool({ name: tool, arguments: { city }, ...(key !== undefined && { _meta: { [KEY]: key } }) });

describe('idempotent retries: the first result, the server ran once', () => {
  let first: Awaited<ReturnType<typeof call>>;

  it('answers a retry with the same key from the record, also on another session', async () => {
    const [a, b] = [clients[0]!, await client()];
    first = await call(a, 'Lyon', 'order-1');
    expect(first.structuredContent).toMatchObject({ city: 'Lyon' });
    expect(ran()).toBe(1);
    expect(await call(a, 'Lyon', 'order-1')).toEqual(first);
    expect(await call(b, 'Lyon', 'order-1')).toEqual(first);
    expect(ran()).toBe(1);
  });

  it('refuses the same key with other arguments, and runs nothing', async () => {
    const error = await call(clients[0]!, 'Paris', 'order-1').then(
      () => undefined,
      (e: unknown) => e as ProtocolError,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error!.code).toBe(-32602);
    expect(error!.message).toContain('idempotency key "order-1" was used for another call (');
    expect(error!.message).toContain(
      'a retry must repeat the tool and its arguments exactly, a new call needs a new key',
    );
    expect(error!.data).toMatchObject({ idempotency: 'conflict' });
    expect(ran()).toBe(1);
  });

  it('runs a new key, and a call without a key, each time', async () => {
    await call(clients[0]!, 'Paris', 'order-2');
    await call(clients[0]!, 'Lyon');
    await call(clients[0]!, 'Lyon');
    expect(ran()).toBe(4);
  });

  it('runs two calls made at once with one key only once', async () => {
    const [x, y] = await Promise.all([
      call(clients[0]!, 'Oslo', 'order-3'),
      call(clients[1]!, 'Oslo', 'order-3'),
    ]);
    expect(y).toEqual(x);
    expect(ran()).toBe(5);
  });

  it('refuses a key that is not 1-256 printable characters', async () => {
    const error = await call(clients[0]!, 'Lyon', 'has space').then(
      () => undefined,
      (e: unknown) => e as ProtocolError,
    );
    expect(error?.message).toContain(
      `_meta["${KEY}"]: expected 1 to 256 printable ASCII characters (no space), got "has space"`,
    );
    expect(ran()).toBe(5);
  });
});

describe('calls and replay: what was recorded, shown without running it', () => {
  it('lists the recorded calls and replays one as it was, the server untouched', async () => {
    const listed = await procs.cli(['calls', '--config', config, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const calls = JSON.parse(listed.stdout) as { id: string; idempotency_key: string; tool: string }[];
    expect(calls.map((c) => c.idempotency_key).sort()).toEqual(['order-1', 'order-2', 'order-3']);
    const id = calls.find((c) => c.idempotency_key === 'order-1')!.id;
    const replayed = await procs.cli(['replay', id, '--config', config]);
    expect(replayed.code, replayed.stderr).toBe(0);
    const shown = JSON.parse(replayed.stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({
      id,
      tool,
      idempotency_key: 'order-1',
      request: { method: 'tools/call', params: { name: tool, arguments: { city: 'Lyon' } } },
      result: { structuredContent: { city: 'Lyon' } },
    });
    expect(ran()).toBe(5);
    const missing = await procs.cli(['replay', 'f'.repeat(32), '--config', config]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no recorded call "${'f'.repeat(32)}": expected one of the ids`);
  });

  it('audits the refusal as an idempotency refusal', () => {
    const lines = readFileSync(join(procs.dir, 'audit.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { verdict: string; reason?: string });
    expect(lines.filter((l) => l.reason === 'idempotency')).toHaveLength(1);
  });
});
