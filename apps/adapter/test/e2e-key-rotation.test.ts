/**
 * Key rotation end to end (docs/protocol.md §11.8; docs/cli.md, `rotate` and `call`), with the
 * built bins, a real relay on loopback and the conformance fixture: adapter A runs with key A;
 * `rotate --relay` publishes A → B with a short grace period. Before B runs, a caller configured
 * with A's key finds the rotation, finds no announce of B, and within the grace period is still
 * answered by A, saying so. Adapter B starts with `identity.rotated_from` (and discloses the
 * rotation in its well-known document); the caller configured with A now reaches B, and warns
 * once to update its configuration; so does an MCP face whose source names A's key; with a trust
 * root, B's own announce must carry a chain (a rotation carries none over). Adapter D runs with key D, rotated to a key C that never
 * runs, with a grace period of one second: after it, a caller configured with D refuses with
 * NOT_FOUND naming the rotation and sends nothing to D, which still runs, and an MCP face whose
 * source names D lists nothing of it. A rotation to another
 * key stops an adapter from starting, with a configuration error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, wrapperConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

type Key = { path: string; ed25519: string };
const procs = new Processes();
afterAll(() => procs.close());

/** The grace period, from the rotation: long enough for the calls made before it ends. */
const GRACE_SECONDS = 45;

let relayUrl: string;
let a: Key;
let b: Key;
let caller: Key;
let other: Key;
let d: Key;
let c: Key;
let aLogs: string[];
let bLogs: string[] = [];
let dLogs: string[];
let dRotation: { grace_until: number };
let rotation: { id: string; grace_until: number };

function adapterConfig(name: string, extraIdentity = '', extra = ''): string {
  const text = wrapperConfig({
    keyFile: `./${name}.key`,
    relayUrl,
    source: { name: 'conf', body: conformanceStdioBody(), namespace: 'com.test.conf' },
    grantTo: caller.ed25519,
    stateDatabase: `./${name}.db`,
    logLevel: 'info',
  }).replace(`  key_file: ./${name}.key`, `  key_file: ./${name}.key${extraIdentity}`);
  return procs.file(`${name}.yml`, `${text}${extra}`);
}

const callTo = (key: Key, ...extra: string[]) =>
  procs.cli([
    'call',
    '--key',
    caller.path,
    '--relay',
    relayUrl,
    '--to',
    key.ed25519,
    '--kind',
    'com.test.conf.test_simple_text',
    '--payload',
    '{}',
    '--timeout-ms',
    '20000',
    ...extra,
  ]);

/** An MCP face (stdio) whose one XProtocol source is configured with `key`. */
function faceConfig(name: string, key: Key): string {
  return procs.file(
    `${name}.yml`,
    `identity:
  key_file: ./caller.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: src
    key: ${key.ed25519}
    relay: ${relayUrl}
    mcp_tool_prefix: src_
mcp_server:
  transport: stdio
state_database: ./${name}.db
logging:
  level: error
`,
  );
}

/** How many tool calls an adapter's log shows it served. */
const served = (logs: string[]) => logs.filter((line) => line.includes('calling upstream tool')).length;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  [a, b, caller, other, d, c] = (await Promise.all(
    ['a.key', 'b.key', 'caller.key', 'other.key', 'd.key', 'c.key'].map((name) => procs.keygen(name)),
  )) as unknown as [Key, Key, Key, Key, Key, Key];
  [{ logs: aLogs }, { logs: dLogs }] = await Promise.all([
    procs.adapter(adapterConfig('a')),
    procs.adapter(adapterConfig('d')),
  ]);
  const toC = await procs.cli([
    'rotate',
    '--key',
    d.path,
    '--new-key',
    c.path,
    '--grace',
    '1s',
    '--relay',
    relayUrl,
  ]);
  expect(toC.code, toC.stderr).toBe(0);
  dRotation = JSON.parse(toC.stdout) as typeof dRotation;
  const graceUntil = Math.floor(Date.now() / 1000) + GRACE_SECONDS;
  const rotated = await procs.cli([
    'rotate',
    '--key',
    a.path,
    '--new-key',
    b.path,
    '--grace',
    String(graceUntil),
    '--output',
    join(procs.dir, 'rotation.json'),
    '--relay',
    relayUrl,
  ]);
  expect(rotated.code, rotated.stderr).toBe(0);
  rotation = JSON.parse(readFileSync(join(procs.dir, 'rotation.json'), 'utf8')) as typeof rotation;
}, 90_000);

describe('a caller configured with the old key', () => {
  it('is still answered by A within the grace period while B has no announce, saying so', async () => {
    const before = served(aLogs);
    const { code, stdout, stderr } = await callTo(a);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: 'text' }] });
    expect(stderr).toContain(`${a.ed25519} was rotated to ${b.ed25519}`);
    expect(stderr).toContain(`no announce of ${b.ed25519} on the relays: sending to the old key`);
    expect(served(aLogs)).toBe(before + 1);
  }, 60_000);

  it('reaches B once B runs with identity.rotated_from, and warns once to update the configuration', async () => {
    const port = await freePort();
    ({ logs: bLogs } = await procs.adapter(
      adapterConfig('b', '\n  rotated_from: ./rotation.json', `discovery:\n  well_known_port: ${port}\n`),
    ));
    const document = (await (
      await fetch(`http://127.0.0.1:${port}/.well-known/xprotocol-endpoint`)
    ).json()) as { public_key: string; rotated_from?: unknown };
    expect(document).toMatchObject({ public_key: b.ed25519, rotated_from: rotation });

    const beforeA = served(aLogs);
    const { code, stdout, stderr } = await callTo(a);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: 'text' }] });
    const warnings = stderr.split('\n').filter((line) => line.includes('was rotated to'));
    expect(warnings).toEqual([expect.stringContaining(`update the configuration to --to ${b.ed25519}`)]);
    expect(served(bLogs)).toBe(1);
    expect(served(aLogs)).toBe(beforeA);

    // With trust roots, the new key needs its own chain: the rotation carries none over.
    const checked = await callTo(a, '--trust-root', other.ed25519);
    expect(checked.code, checked.stderr).toBe(1);
    expect(JSON.parse(checked.stdout)).toMatchObject({
      error: { code: 'UNTRUSTED_ENDPOINT', details: { refusal: 'no_chain' } },
    });
    expect(JSON.parse(checked.stdout).error.message).toContain(b.ed25519);
    expect(served(aLogs)).toBe(beforeA);
  }, 120_000);

  it("an MCP face whose source names the old key lists and calls B's tools", async () => {
    const client = await procs.mcpClient(faceConfig('face-a', a));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('src_test_simple_text');
      const beforeA = served(aLogs);
      const beforeB = served(bLogs);
      const result = await client.callTool({ name: 'src_test_simple_text', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(served(bLogs)).toBe(beforeB + 1);
      expect(served(aLogs)).toBe(beforeA);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('after grace_until, sends nothing to the old key and fails naming the rotation', async () => {
    // Until the clock passes the grace period's last second (a bound, not a measurement).
    while (Date.now() / 1000 <= dRotation.grace_until + 1) await new Promise((r) => setTimeout(r, 200));
    const { code, stdout, stderr } = await callTo(d);
    expect(code, stderr).toBe(1);
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain(`${d.ed25519} was rotated to ${c.ed25519}`);
    expect(error.message).toContain('its grace period ended');
    expect(served(dLogs)).toBe(0);

    // The MCP face neither lists nor calls anything of a source whose key's grace period ended.
    const client = await procs.mcpClient(faceConfig('face-d', d));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.filter((name) => name.startsWith('src_'))).toEqual([]);
    } finally {
      await client.close();
    }
    expect(served(dLogs)).toBe(0);
  }, 120_000);
});

describe('an adapter whose rotation names another key', () => {
  it('does not start, and validate says why', async () => {
    const config = adapterConfig('other', '\n  rotated_from: ./rotation.json');
    const { code, stderr } = await procs.cli(['start', '--config', config]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `the rotation names ${b.ed25519} as the successor of ${a.ed25519}, expected this adapter's key ${other.ed25519}`,
    );
    const validated = await procs.cli(['validate', '--config', config]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain(`expected this adapter's key ${other.ed25519}`);
  }, 60_000);
});
