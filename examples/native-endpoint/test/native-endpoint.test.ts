// The example native endpoint (notes-endpoint.mjs) as a real child process on a real relay on
// loopback: `xprotocol-conformance` finds it native from its announce and every check of the
// native profile passes, `xprotocol-adapter call` calls its tool, and an MCP client calls it
// through an adapter whose MCP face has it as an XProtocol source.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTER_BIN, CONFORMANCE_BIN, EXAMPLE, freePort, Processes, RELAY_BIN } from './_processes.js';

const BROKEN = join(import.meta.dirname, 'doubles', 'broken-native-endpoint.mjs');

const procs = new Processes();
let relayUrl: string;
let endpointKey: string;
let client: { path: string; ed25519: string };
let face: { path: string; ed25519: string };
let injectPort: number;
const conformanceKeys = join(procs.dir, 'conformance-keys');

beforeAll(async () => {
  const relay = await procs.serving(RELAY_BIN, ['--port', '0'], () => true, { stream: 'stdout' });
  relayUrl = relay.lines[0]!.trim();
  client = await procs.keygen('client.key');
  face = await procs.keygen('face.key');
  // The suite's own client key, made now so that the endpoint can grant it.
  const suiteClient = await procs.keygen('conformance-keys/client.key');
  // The endpoint also listens on the suite's injector relay, which hands it the forged, expired
  // and replayed events a real relay refuses; it reconnects until the suite starts it.
  injectPort = await freePort();
  const started = await procs.serving(EXAMPLE, [], (line) => line.includes('"event":"ready"'), {
    env: {
      ENDPOINT_KEY: join(procs.dir, 'endpoint.key'),
      RELAY_URL: `${relayUrl},ws://127.0.0.1:${injectPort}`,
      CALLER_KEYS: [client.ed25519, face.ed25519, suiteClient.ed25519].join(','),
    },
  });
  endpointKey = (JSON.parse(started.lines.at(-1)!) as { key: string }).key;
});
afterAll(() => procs.close());

const call = (kind: string, payload: unknown, key = client.path) =>
  procs.run(ADAPTER_BIN, [
    'call',
    ...['--key', key, '--relay', relayUrl, '--to', endpointKey],
    ...['--kind', kind, '--payload', JSON.stringify(payload), '--timeout-ms', '15000'],
  ]);

describe('the example native endpoint', () => {
  it('passes every check of the native profile, which the suite finds from its announce', async () => {
    const { code, stdout, stderr } = await procs.run(CONFORMANCE_BIN, [
      ...['--endpoint', endpointKey, '--relay', relayUrl, '--keys', conformanceKeys],
      ...['--inject-port', String(injectPort), '--json'],
    ]);
    const report = JSON.parse(stdout) as {
      passed: boolean;
      target: { profile: string };
      checks: { name: string; status: string; evidence: string[] }[];
      musts: { number: number; status: string }[];
    };
    expect(report.target.profile).toBe('native');
    expect(
      report.checks.map((c) => [c.name, c.status]),
      `${stderr}\n${report.checks.flatMap((c) => c.evidence).join('\n')}`,
    ).toEqual([
      ['deterministic', 'pass'],
      ['signatures', 'pass'],
      ['gbnf', 'pass'],
      ['native-announce', 'pass'],
      ['native-call', 'pass'],
      ['native-refusals', 'pass'],
    ]);
    // The MUSTs about wrapped MCP tools do not apply to a native endpoint; every other is proven.
    expect(report.musts.filter((m) => m.status !== 'proven').map((m) => [m.number, m.status])).toEqual([
      [2, 'not applicable'],
      [3, 'not applicable'],
      [5, 'not applicable'],
    ]);
    expect(report.passed).toBe(true);
    expect(code).toBe(0);
  });

  // The native checks can fail: each broken endpoint fails exactly the checks of the rule it breaks.
  for (const { mode, fails } of [
    { mode: 'allow-all', fails: ['native-refusals'] },
    { mode: 'no-examples', fails: ['signatures', 'native-call'] },
  ]) {
    it(`fails ${fails.join(' and ')} against an endpoint broken by ${mode}`, async () => {
      const port = await freePort();
      const suiteClient = await procs.keygen(`keys-${mode}/client.key`);
      const broken = await procs.serving(BROKEN, [], (line) => line.includes('"event":"ready"'), {
        env: {
          BROKEN_MODE: mode,
          ENDPOINT_KEY: join(procs.dir, `${mode}.key`),
          RELAY_URL: `${relayUrl},ws://127.0.0.1:${port}`,
          CALLER_KEYS: suiteClient.ed25519,
        },
      });
      const key = (JSON.parse(broken.lines.at(-1)!) as { key: string }).key;
      const { code, stdout } = await procs.run(CONFORMANCE_BIN, [
        ...['--endpoint', key, '--relay', relayUrl, '--keys', join(procs.dir, `keys-${mode}`)],
        ...['--inject-port', String(port), '--json'],
      ]);
      const report = JSON.parse(stdout) as { passed: boolean; checks: { name: string; status: string }[] };
      expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(fails);
      expect(report.checks).toHaveLength(6);
      expect(code).toBe(1);
      broken.child.kill('SIGTERM');
    });
  }

  it('fails the adapter profile when it is asked for, saying what was missing', async () => {
    const { code, stdout } = await procs.run(CONFORMANCE_BIN, [
      ...['--endpoint', endpointKey, '--relay', relayUrl, '--keys', conformanceKeys],
      ...[
        '--inject-port',
        String(await freePort()),
        '--profile',
        'adapter',
        '--only',
        'trust-disclosure',
        '--json',
      ],
    ]);
    const report = JSON.parse(stdout) as { passed: boolean; checks: { name: string; evidence: string[] }[] };
    expect(report.passed).toBe(false);
    expect(report.checks[0]!.evidence.join('\n')).toContain('mcp_sources discloses conf-test');
    expect(code).toBe(1);
  });

  it('is called by xprotocol-adapter call, and a handler that throws is an UPSTREAM_ERROR answer', async () => {
    const read = await call('demo.notes.read_note', { title: 'welcome' });
    expect(read.stderr).toBe('');
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout).structuredContent).toEqual({
      title: 'welcome',
      text: 'Hello from a native endpoint.',
    });
    const missing = await call('demo.notes.read_note', { title: 'nothing' });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({
      error: { code: 'UPSTREAM_ERROR', message: 'no note titled "nothing"' },
    });
    const bad = await call('demo.notes.read_note', { title: 7 });
    expect(JSON.parse(bad.stdout).error.code).toBe('SCHEMA_VIOLATION');
  });

  it('refuses a key it has not granted', async () => {
    const stranger = await procs.keygen('stranger.key');
    const refused = await call('demo.notes.read_note', { title: 'welcome' }, stranger.path);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('AUTHORIZATION_INSUFFICIENT');
  });

  it('is called by an MCP client through an adapter whose face has it as an XProtocol source', async () => {
    const config = procs.file(
      'face.yml',
      `identity:
  key_file: ./face.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: notes
    key: ${endpointKey}
    relay: ${relayUrl}
    mcp_tool_prefix: notes_
mcp_server:
  transport: stdio
state_database: ./face-state.db
logging:
  level: warn
  format: json
`,
    );
    // A client that offers roots: for an MCP server behind an adapter the endpoint would open the
    // caller's own link to it; a native endpoint has none and runs the call on its shared path.
    const mcp = new Client(
      { name: 'native-endpoint-test', version: '0.0.0' },
      { capabilities: { roots: { listChanged: true } } },
    );
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [ADAPTER_BIN, 'start', '--config', config],
        cwd: procs.dir,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('notes_read_note');
      const result = await mcp.callTool({ name: 'notes_read_note', arguments: { title: 'welcome' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ title: 'welcome', text: 'Hello from a native endpoint.' });
    } finally {
      await mcp.close();
    }
  });
});
