// Callers served under a delegation chain, end to end (docs/protocol.md §11.7, docs/cli.md `call`,
// `register`, `revoke`): a real relay on loopback, adapter B wrapping server-filesystem, and the
// built CLI for everything else. B trusts an organisation's root (`access.trusted_issuers`) and
// grants it `com.test.fs.*`; the caller has no grant of its own, only a chain from the root that
// `register` made with `com.test.fs.read`. `call --delegation` is served for a read, refused for a
// write; an adapter running under that key and chain is served the same way through its MCP face;
// `revoke --relay` publishes a revocation while B runs, and the very next call is REVOKED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FS_SERVER, Processes } from './support/processes.js';

type Key = { path: string; ed25519: string };
const procs = new Processes();
let relayUrl: string;
let b: Key;
let root: Key;
let caller: Key;
let chainFile: string;
let bLogs: string[];

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  [b, root, caller] = (await Promise.all(
    ['b.key', 'root.key', 'caller.key'].map((name) => procs.keygen(name)),
  )) as unknown as [Key, Key, Key];
  procs.file('hello.txt', 'hello under a delegation\n');
  chainFile = `${procs.dir}/caller.chain.json`;
  const registered = await procs.cli([
    'register',
    '--key',
    caller.path,
    '--parent-key',
    root.path,
    '--capabilities',
    'com.test.fs.read',
    '--expires',
    '1d',
    '--output',
    chainFile,
  ]);
  expect({ code: registered.code, stderr: registered.stderr }).toMatchObject({ code: 0 });
  const config = procs.file(
    'b.yml',
    `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fs
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${procs.dir}'"
    xprotocol_namespace: com.test.fs
access:
  trusted_issuers: [${root.ed25519}]
  grants:
    - key: ${root.ed25519}
      capabilities: [com.test.fs.*]
state_database: ./b-state.db
logging:
  level: info
  format: json
`,
  );
  ({ logs: bLogs } = await procs.adapter(config));
}, 60_000);
afterAll(() => procs.close());

const call = (kind: string, payload: unknown, extra: string[] = ['--delegation', chainFile]) =>
  procs.cli([
    'call',
    '--key',
    caller.path,
    '--relay',
    relayUrl,
    '--to',
    b.ed25519,
    '--kind',
    kind,
    '--payload',
    JSON.stringify(payload),
    '--timeout-ms',
    '15000',
    ...extra,
  ]);
const read = () => call('com.test.fs.read_text_file', { path: `${procs.dir}/hello.txt` });

describe('a caller with a chain from a trusted issuer', () => {
  it('is refused without its chain, served with it, and the call is attributed to the root', async () => {
    const bare = await call('com.test.fs.read_text_file', { path: `${procs.dir}/hello.txt` }, []);
    expect(bare.code).toBe(1);
    expect(JSON.parse(bare.stdout).error.code).toBe('AUTHORIZATION_INSUFFICIENT');

    const { code, stdout, stderr } = await read();
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout).content[0].text).toBe('hello under a delegation\n');
    const served = bLogs
      .filter((line) => line.includes('calling upstream tool'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(served.at(-1)).toMatchObject({
      sender: caller.ed25519,
      principal: root.ed25519,
      root: root.ed25519,
    });
  });

  it('is refused AUTHORIZATION_INSUFFICIENT for a tool its chain does not cover', async () => {
    const { code, stdout } = await call('com.test.fs.write_file', {
      path: `${procs.dir}/x.txt`,
      content: 'no',
    });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        code: 'AUTHORIZATION_INSUFFICIENT',
        message: expect.stringContaining(
          'its delegation chain gives com.test.fs.read, which do not include it',
        ),
      },
    });
  });

  it("an adapter's MCP face presents the adapter's own chain when it calls B: served within it", async () => {
    // Adapter A runs under the caller's key and chain (identity.parent_delegation_event) and
    // lists B's tools on its MCP face; an MCP client's calls reach B under A's chain.
    const aConfig = procs.file(
      'a.yml',
      `identity:
  key_file: ./caller.key
  parent_delegation_event: ./caller.chain.json
  parent_key: ${root.ed25519}
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${b.ed25519}
    relay: ${relayUrl}
mcp_server:
  transport: stdio
state_database: ./a-state.db
logging:
  level: warn
`,
    );
    const mcp = await procs.mcpClient(aConfig);
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('read_text_file');
      const read = await mcp.callTool({
        name: 'read_text_file',
        arguments: { path: `${procs.dir}/hello.txt` },
      });
      expect(read.isError).toBeFalsy();
      expect((read.content as { text: string }[])[0]!.text).toBe('hello under a delegation\n');
      const write = await mcp
        .callTool({ name: 'write_file', arguments: { path: `${procs.dir}/y.txt`, content: 'no' } })
        .then(
          (result) => JSON.stringify(result),
          (error: Error & { data?: unknown }) => JSON.stringify({ message: error.message, data: error.data }),
        );
      expect(write).toContain('AUTHORIZATION_INSUFFICIENT');
    } finally {
      await mcp.close();
    }
  });

  it('is refused REVOKED on the next call once the root publishes a revocation to the relay', async () => {
    const revoked = await procs.cli([
      'revoke',
      '--key',
      root.path,
      '--delegation',
      chainFile,
      '--relay',
      relayUrl,
    ]);
    expect({ code: revoked.code, stderr: revoked.stderr }).toMatchObject({
      code: 0,
      stderr: expect.stringContaining(`published to ${relayUrl}`),
    });
    const { code, stdout } = await read();
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        code: 'REVOKED',
        message: expect.stringContaining('its delegation chain was refused (revoked at link 0)'),
      },
    });
  });
});
