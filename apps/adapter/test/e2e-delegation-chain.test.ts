/**
 * An adapter that presents its delegation chain, and a caller that checks it (docs/protocol.md
 * §10.3 and §11; docs/cli.md, `call --trust-root`), with the built bins, a real relay on loopback
 * and the conformance fixture: `keygen` makes a root, a department, adapter B, a caller and an
 * outsider; two `register` calls make root → department → B. B starts with that chain (warning
 * that it ends within 7 days) and discloses it in its announce and well-known document;
 * `call --trust-root <root>` gets its answer, `call --trust-root <outsider>` is refused naming
 * the link, and an MCP face lists B's tools through a source whose `trust_root` is the root, and
 * none through one whose `trust_root` is the outsider. A chain that has expired, and a chain for
 * another key, stop B from starting. Once the department revokes B's link on the relay, both
 * `call --trust-root` and the face refuse B (the caller reads the chain's revocations first).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, wrapperConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

type Key = { path: string; ed25519: string };
const procs = new Processes();
afterAll(() => procs.close());

let relayUrl: string;
let root: Key;
let dept: Key;
let b: Key;
let caller: Key;
let outsider: Key;
let wellKnownPort: number;
let logs: string[];
/** B's chain, its last link valid for one second. */
let shortChain: string;
/** A chain for the outsider's key, not B's. */
let outsiderChain: string;

/** `register --key <key> --parent-key <parent>` writing `output`; fails the test when it fails. */
async function register(key: string, parent: Key, output: string, ...extra: string[]): Promise<string> {
  const path = join(procs.dir, output);
  const { code, stderr } = await procs.cli([
    'register',
    '--key',
    key,
    '--parent-key',
    parent.path,
    '--capabilities',
    'com.test.conf.*',
    '--output',
    path,
    ...extra,
  ]);
  expect(code, stderr).toBe(0);
  return path;
}

/** Adapter B's config with the chain file `chain` (the department issued its last link). */
function configWith(name: string, chain: string, extra = ''): string {
  const text = wrapperConfig({
    keyFile: './b.key',
    relayUrl,
    source: { name: 'conf', body: conformanceStdioBody(), namespace: 'com.test.conf' },
    grantTo: caller.ed25519,
    stateDatabase: `./${name}.db`,
  }).replace(
    '  key_file: ./b.key',
    `  key_file: ./b.key\n  parent_key: ${dept.ed25519}\n  parent_delegation_event: ${chain}`,
  );
  return procs.file(`${name}.yml`, `${text}${extra}`);
}

const call = (...trustRoots: string[]) =>
  procs.cli([
    'call',
    '--key',
    caller.path,
    '--relay',
    relayUrl,
    '--to',
    b.ed25519,
    '--kind',
    'com.test.conf.test_simple_text',
    '--payload',
    '{}',
    '--timeout-ms',
    '20000',
    ...trustRoots.flatMap((key) => ['--trust-root', key]),
  ]);

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  [root, dept, b, caller, outsider] = (await Promise.all(
    ['root.key', 'dept.key', 'b.key', 'caller.key', 'outsider.key'].map((name) => procs.keygen(name)),
  )) as unknown as [Key, Key, Key, Key, Key];
  const deptChain = await register(dept.ed25519, root, 'dept.chain.json', '--expires', '30d');
  const under = ['--parent-delegation', deptChain];
  let bChain: string;
  [bChain, shortChain, outsiderChain] = await Promise.all([
    // Five days: B warns at start that its chain ends within seven.
    register(b.ed25519, dept, 'b.chain.json', ...under, '--expires', '5d'),
    register(b.ed25519, dept, 'short.chain.json', ...under, '--expires', '1s'),
    register(outsider.ed25519, dept, 'outsider.chain.json', ...under),
  ]);
  wellKnownPort = await freePort();
  const config = configWith('b', bChain, `discovery:\n  well_known_port: ${wellKnownPort}\n`);
  ({ logs } = await procs.adapter(config));
}, 60_000);

describe('the adapter presents its chain', () => {
  it('warns at start that the chain ends within 7 days', () => {
    const warning = logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.code === 'CHAIN_EXPIRES_SOON');
    expect(warning?.msg).toMatch(
      /b\.chain\.json ends at \d+ \(.*\), in 5 days: sign a new one with xprotocol-adapter register/,
    );
  });

  it('discloses the chain file as it is in the well-known document', async () => {
    const response = await fetch(`http://127.0.0.1:${wellKnownPort}/.well-known/xprotocol-endpoint`);
    const document = (await response.json()) as { public_key: string; delegation_chain?: unknown };
    expect(document.public_key).toBe(b.ed25519);
    expect(document.delegation_chain).toEqual(
      JSON.parse(readFileSync(join(procs.dir, 'b.chain.json'), 'utf8')),
    );
  });
});

describe('call --trust-root', () => {
  it('gets the answer when the chain in the announce starts at a trusted root', async () => {
    const { code, stdout, stderr } = await call(outsider.ed25519, root.ed25519);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: 'text' }] });
  }, 40_000);

  it('is refused when no trusted root starts the chain, naming the link and the roots', async () => {
    const { code, stdout } = await call(outsider.ed25519);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        code: 'UNTRUSTED_ENDPOINT',
        message: `endpoint ${b.ed25519} is not vouched for by a trusted root (untrusted_root, link 0): its chain starts at ${root.ed25519}, not one of --trust-root ${outsider.ed25519}`,
        details: { refusal: 'untrusted_root', link: 0 },
      },
    });
  }, 40_000);
});

describe('xprotocol_sources[].trust_root', () => {
  it("lists the endpoint's tools only through the source that trusts its root", async () => {
    const config = procs.file(
      'face.yml',
      `identity:
  key_file: ./caller.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
${[
  ['trusted', root.ed25519],
  ['untrusted', outsider.ed25519],
]
  .map(
    ([name, key]) =>
      `  - name: ${name}\n    key: ${b.ed25519}\n    relay: ${relayUrl}\n    mcp_tool_prefix: ${name}_\n    trust_root: ${key}\n`,
  )
  .join('')}mcp_server:
  transport: stdio
state_database: ./face.db
logging:
  level: error
`,
    );
    const client = await procs.mcpClient(config);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('trusted_test_simple_text');
      expect(names.filter((name) => name.startsWith('untrusted_'))).toEqual([]);
    } finally {
      await client.close();
    }
  }, 40_000);
});

describe('an adapter whose chain does not hold does not start', () => {
  it('a chain that has expired: exit 1 naming the link, its id and what to do', async () => {
    const short = shortChain;
    const link = (JSON.parse(readFileSync(short, 'utf8')) as { id: string; expires_at: number }[])[1]!;
    // Until the clock passes the link's last second (a bound, not a measurement).
    while (Date.now() / 1000 <= link.expires_at + 1) await new Promise((r) => setTimeout(r, 100));
    const config = configWith('short', short);
    const { code, stderr } = await procs.cli(['start', '--config', config]);
    expect(code).toBe(1);
    // validate checks the chain as start does.
    const validated = await procs.cli(['validate', '--config', config]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain(`link 1 (${link.id.slice(0, 8)}…) expired at ${link.expires_at} (`);
    expect(stderr).toContain(
      `identity.parent_delegation_event: ${short}: link 1 (${link.id.slice(0, 8)}…) expired at ${link.expires_at} (`,
    );
    expect(stderr).toContain(
      'the chain check refuses it (expired); sign a new one with xprotocol-adapter register',
    );
  }, 30_000);

  it('a chain for another key: exit 1 naming both keys', async () => {
    const { code, stderr } = await procs.cli(['start', '--config', configWith('theirs', outsiderChain)]);
    expect(code).toBe(1);
    expect(stderr).toContain(`delegates to ${outsider.ed25519}, expected this adapter's key ${b.ed25519}`);
  }, 30_000);
});

describe("a caller consults the revocations of the endpoint's chain", () => {
  it('refuses B once the department revoked its link, through call --trust-root and a face source', async () => {
    const bChain = join(procs.dir, 'b.chain.json');
    const revoked = await procs.cli([
      'revoke',
      '--key',
      dept.path,
      '--delegation',
      bChain,
      '--relay',
      relayUrl,
    ]);
    expect({ code: revoked.code, stderr: revoked.stderr }).toMatchObject({ code: 0 });

    const { code, stdout } = await call(root.ed25519);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      error: {
        code: 'UNTRUSTED_ENDPOINT',
        message: expect.stringContaining(`not vouched for by a trusted root (revoked, link 1)`),
        details: { refusal: 'revoked', link: 1 },
      },
    });
    expect(JSON.parse(stdout).error.message).toContain(`revoked by ${dept.ed25519}`);

    const config = procs.file(
      'face-revoked.yml',
      `identity:
  key_file: ./caller.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: trusted
    key: ${b.ed25519}
    relay: ${relayUrl}
    mcp_tool_prefix: trusted_
    trust_root: ${root.ed25519}
mcp_server:
  transport: stdio
state_database: ./face-revoked.db
logging:
  level: error
`,
    );
    const client = await procs.mcpClient(config);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.filter((name) => name.startsWith('trusted_'))).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
