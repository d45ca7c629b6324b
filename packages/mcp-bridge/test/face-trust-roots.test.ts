/**
 * The MCP face over an XProtocol source with trust roots (docs/config.md,
 * `xprotocol_sources[].trust_root`; docs/security.md, "Trust roots"), over a real relay and the
 * real filesystem server: the endpoint's announce carries a root → department → endpoint chain
 * granting `com.test.fs.read`. With that root trusted, the read tools are listed and called and
 * the write tools are neither listed nor callable (the error names the capability and the
 * chain's); with another root, nothing is listed and the error says why; once the chain has
 * expired on the caller's clock, a call is refused before anything is sent.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { type Delegation, generateIdentity, type Identity, signDelegation } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { afterEach, describe, expect, it } from 'vitest';
import { Announcer, McpFace, StateDatabase, XpCaller } from '../src/index.js';
import { testAnnouncePayload } from './support/announce.js';
import { type Stack, startStack } from './support/stack.js';

const HOUR = 3600;
let stack: Stack | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await stack?.close();
  stack = undefined;
  client = undefined;
});

const root = generateIdentity();
const dept = generateIdentity();

/** root → dept → `endpoint`, granting `com.test.fs.read`, valid from an hour ago for `hours`. */
function chainFor(endpoint: Identity, hours: number): Delegation[] {
  const now = Math.floor(Date.now() / 1000);
  const template = {
    capabilities: ['com.test.fs.read'],
    not_before: now - HOUR,
    expires_at: now + hours * HOUR,
  };
  const first = signDelegation(
    { ...template, capabilities: ['com.test.*'], delegated_key: dept.keys.ed25519 },
    root.ed25519.secretKey,
    nodeSignatures,
  );
  const second = signDelegation(
    { ...template, delegated_key: endpoint.keys.ed25519, proof: first.id },
    dept.ed25519.secretKey,
    nodeSignatures,
  );
  return [first, second];
}

/**
 * Announces the stack's endpoint with a chain, and connects an MCP client to a face whose one
 * source trusts `trustRoots`; `clock` is the face caller's clock (default the real one).
 */
async function faceTrusting(
  s: Stack,
  trustRoots: string[],
  options: { hours?: number; clock?: () => number } = {},
): Promise<{ client: Client; face: McpFace }> {
  const chain = chainFor(s.adapter, options.hours ?? 24);
  await new Announcer({
    pool: s.adapterPool,
    identity: s.adapter,
    payload: () => ({ ...testAnnouncePayload(s.adapter, [s.relay.url], 'B'), delegation_chain: chain }),
    signatures: nodeSignatures,
  }).publish();
  const caller = new XpCaller({
    identity: s.client,
    pool: s.clientPool,
    signatures: nodeSignatures,
    cipher: nodeCipher,
    ...(options.clock && { now: options.clock }),
  });
  const face = new McpFace({
    caller,
    state: new StateDatabase(':memory:'),
    sources: [
      {
        name: 'fs',
        key: s.adapter.keys.ed25519,
        label: 'xp-test',
        prefix: 'fs_',
        schemaFilter: [],
        trustRoots,
      },
    ],
    callTimeoutMs: 10_000,
    sha256: nodeCipher.sha256,
    serverInfo: { name: 'face-test', version: '0.0.0' },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await face.server.connect(serverSide);
  const mcp = new Client({ name: 'test-client', version: '0.0.0' }, { capabilities: {} });
  await mcp.connect(clientSide);
  return { client: mcp, face };
}

describe('xprotocol source with trust roots', () => {
  it('lists and calls only the tools whose capability the chain grants', async () => {
    stack = await startStack({ grants: ['com.test.fs.*'] });
    const { client: mcp, face } = await faceTrusting(stack, [root.keys.ed25519]);
    client = mcp;
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    expect(names).toContain('fs_read_text_file');
    expect(names).toContain('fs_list_directory');
    expect(names).not.toContain('fs_write_file');
    expect(face.status()[0]).toEqual({ name: 'fs', tools: names.length - 1, error: undefined });
    const read = await mcp.callTool({
      name: 'fs_read_text_file',
      arguments: { path: `${stack.dir}/hello.txt` },
    });
    expect((read.content as { text: string }[])[0]!.text).toBe('hello from the filesystem\n');
    await expect(
      mcp.callTool({ name: 'fs_write_file', arguments: { path: `${stack.dir}/x.txt`, content: 'x' } }),
    ).rejects.toThrow(
      `the tool fs_write_file needs com.test.fs.write, which the delegation chain of endpoint ${stack.adapter.keys.ed25519} (xprotocol source fs) does not grant: it grants com.test.fs.read`,
    );
    const found = await mcp.callTool({
      name: 'search_tools',
      arguments: { query: 'write a file', limit: 20 },
    });
    const matches = (found.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
    expect(matches).not.toContain('fs_write_file');
    expect(stack.upstreamCalls()).toBe(1);
  });

  it('lists nothing of an endpoint whose chain starts at another root, and says why', async () => {
    stack = await startStack();
    const other = generateIdentity();
    const { client: mcp, face } = await faceTrusting(stack, [other.keys.ed25519]);
    client = mcp;
    expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(['search_tools']);
    const why = `endpoint ${stack.adapter.keys.ed25519} is not vouched for by a trusted root (untrusted_root, link 0): its chain starts at ${root.keys.ed25519}, not one of trust_root (xprotocol source fs) ${other.keys.ed25519}`;
    expect(face.status()[0]).toEqual({ name: 'fs', tools: 0, error: why });
    await expect(
      mcp.callTool({ name: 'fs_read_text_file', arguments: { path: `${stack.dir}/hello.txt` } }),
    ).rejects.toThrow(`Unknown tool: fs_read_text_file (xprotocol source fs lists nothing: ${why})`);
    expect(stack.upstreamCalls()).toBe(0);
  });

  it("refuses a call once the chain has expired on the caller's clock, before sending it", async () => {
    stack = await startStack();
    let skew = 0;
    const { client: mcp } = await faceTrusting(stack, [root.keys.ed25519], {
      hours: 1,
      clock: () => Date.now() + skew,
    });
    client = mcp;
    expect((await mcp.listTools()).tools.map((t) => t.name)).toContain('fs_read_text_file');
    skew = 2 * HOUR * 1000;
    await expect(
      mcp.callTool({ name: 'fs_read_text_file', arguments: { path: `${stack.dir}/hello.txt` } }),
    ).rejects.toThrow(
      new RegExp(
        `endpoint ${stack.adapter.keys.ed25519} is not vouched for by a trusted root \\(expired, link 0\\)`,
      ),
    );
    expect(stack.upstreamCalls()).toBe(0);
  });
});
