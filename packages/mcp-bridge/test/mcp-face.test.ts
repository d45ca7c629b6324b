import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { afterEach, describe, expect, it } from 'vitest';
import { Announcer, McpFace, StateDatabase } from '../src/index.js';
import { testAnnouncePayload } from './support/announce.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await stack?.close();
  stack = undefined;
  client = undefined;
});

async function faceOverStack(s: Stack): Promise<{ client: Client; face: McpFace }> {
  const announcer = new Announcer({
    pool: s.adapterPool,
    identity: s.adapter,
    payload: () => testAnnouncePayload(s.adapter, [s.relay.url], 'B'),
    signatures: nodeSignatures,
  });
  await announcer.publish();
  const face = new McpFace({
    caller: s.caller,
    state: new StateDatabase(':memory:'),
    sources: [{ name: 'fs', key: s.adapter.keys.ed25519, label: 'xp-test', prefix: 'fs_', schemaFilter: [] }],
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

describe('Direction 2: the MCP face over a real XProtocol endpoint', () => {
  it('lists the endpoint catalog as prefixed tools and calls one through the relay', async () => {
    stack = await startStack();
    const { client: mcp } = await faceOverStack(stack);
    client = mcp;
    const { tools } = await mcp.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('fs_read_text_file');
    expect(names).toHaveLength(15); // 14 tools of the endpoint, and search_tools
    expect(names.at(-1)).toBe('search_tools');
    const read = tools.find((t) => t.name === 'fs_read_text_file')!;
    expect(read.description).toMatch(/\[XProtocol: com\.test\.fs\.read_text_file via xp-test\]$/);
    const result = await mcp.callTool({
      name: 'fs_read_text_file',
      arguments: { path: `${stack.dir}/hello.txt` },
    });
    expect(result.isError).not.toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toBe('hello from the filesystem\n');
    expect(stack.upstreamCalls()).toBe(1);
  });

  it('a tool of a source whose first catalog fetch failed is fetched again when called, not refused', async () => {
    stack = await startStack();
    const s = stack;
    // The face starts before the endpoint announced itself: its first fetch fails.
    const face = new McpFace({
      caller: s.caller,
      state: new StateDatabase(':memory:'),
      sources: [
        { name: 'fs', key: s.adapter.keys.ed25519, label: 'xp-test', prefix: 'fs_', schemaFilter: [] },
      ],
      callTimeoutMs: 10_000,
      catalogTimeoutMs: 500,
      sha256: nodeCipher.sha256,
      serverInfo: { name: 'face-test', version: '0.0.0' },
    });
    await face.ready();
    expect(face.status()[0]?.error).toBeDefined();
    await new Announcer({
      pool: s.adapterPool,
      identity: s.adapter,
      payload: () => testAnnouncePayload(s.adapter, [s.relay.url], 'B'),
      signatures: nodeSignatures,
    }).publish();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await face.server.connect(serverSide);
    client = new Client({ name: 'test-client', version: '0.0.0' }, { capabilities: {} });
    await client.connect(clientSide);
    const result = await client.callTool({
      name: 'fs_read_text_file',
      arguments: { path: `${s.dir}/hello.txt` },
    });
    expect((result.content as { text: string }[])[0]!.text).toBe('hello from the filesystem\n');
    expect(face.status()[0]?.error).toBeUndefined();
    // A name no source has is still refused.
    await expect(client.callTool({ name: 'fs_no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('search_tools finds the right tool for a task without loading every schema', async () => {
    stack = await startStack();
    const { client: mcp } = await faceOverStack(stack);
    client = mcp;
    const result = await mcp.callTool({
      name: 'search_tools',
      arguments: { query: 'list the files in a directory', limit: 3 },
    });
    expect(result.isError).not.toBe(true);
    const { matches } = result.structuredContent as { matches: { name: string; relevance: number }[] };
    expect(matches).toHaveLength(3);
    expect(matches.map((m) => m.name)).toContain('fs_list_directory');
    const bad = await mcp.callTool({ name: 'search_tools', arguments: { query: '' } });
    expect(bad.isError).toBe(true);
    expect(stack.upstreamCalls()).toBe(0);
  });

  it('returns a schema violation as an isError tool result without sending anything', async () => {
    stack = await startStack();
    const { client: mcp } = await faceOverStack(stack);
    client = mcp;
    const result = await mcp.callTool({ name: 'fs_read_text_file', arguments: { path: 42 } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      /^Request payload does not conform to schema: \/path: must be string/,
    );
    expect(stack.upstreamCalls()).toBe(0);
  });

  it('turns AUTHORIZATION_INSUFFICIENT into InvalidRequest with data.xp_code, and an unknown tool into InvalidParams', async () => {
    stack = await startStack();
    const { client: mcp } = await faceOverStack(stack);
    client = mcp;
    const denied = await mcp
      .callTool({ name: 'fs_write_file', arguments: { path: `${stack.dir}/x`, content: 'y' } })
      .catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: -32600, data: { xp_code: 'AUTHORIZATION_INSUFFICIENT' } });
    const unknown = await mcp.callTool({ name: 'fs_nope', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32602 });
    expect(stack.upstreamCalls()).toBe(0);
  });
});

describe('XpCaller.resolve', () => {
  it('waits for an announce published after the query started (an endpoint still starting)', async () => {
    stack = await startStack();
    const pending = stack.caller.resolve(stack.adapter.keys.ed25519, 10_000);
    await new Promise((r) => setTimeout(r, 300)); // the stored query has answered EOSE by now
    await new Announcer({
      pool: stack.adapterPool,
      identity: stack.adapter,
      payload: () => testAnnouncePayload(stack!.adapter, [stack!.relay.url], 'late'),
      signatures: nodeSignatures,
    }).publish();
    const found = await pending;
    expect(found.keys).toEqual(stack.adapter.keys);
    expect(found.payload.display_name).toBe('late');
  });
});
