/**
 * The face's listing modes (listing-modes.ts, docs/architecture.md "Listing modes") over a real
 * XProtocol endpoint wrapping the real filesystem server: `compact` lists one-line descriptions and
 * top-level properties, `describe_tool` gives the whole definition the `full` listing has, and a
 * call is still checked against the whole schema; `search` lists only the built-in tools and the
 * tools the session used.
 * @module
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Announcer, type ListingMode, McpFace, StateDatabase } from '../src/index.js';
import { testAnnouncePayload } from './support/announce.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
const faces: McpFace[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startStack({ grants: ['com.test.fs.*'] });
  await new Announcer({
    pool: stack.adapterPool,
    identity: stack.adapter,
    payload: () => testAnnouncePayload(stack.adapter, [stack.relay.url], 'B'),
    signatures: nodeSignatures,
  }).publish();
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(faces.map((f) => f.close()));
  await stack?.close();
});

/** A client of a new face over the stack's endpoint, listing in `listing`. */
async function clientOf(listing: ListingMode | undefined): Promise<Client> {
  const face = new McpFace({
    caller: stack.caller,
    state: new StateDatabase(':memory:'),
    sources: [
      { name: 'fs', key: stack.adapter.keys.ed25519, label: 'xp-test', prefix: 'fs_', schemaFilter: [] },
    ],
    callTimeoutMs: 10_000,
    sha256: nodeCipher.sha256,
    serverInfo: { name: 'face-test', version: '0.0.0' },
    ...(listing && { listing }),
  });
  faces.push(face);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await face.createServer().connect(serverSide);
  const client = new Client({ name: 'test-client', version: '0.0.0' }, { capabilities: {} });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

describe('listing modes of the face', () => {
  it('compact: one-line descriptions and top-level properties; describe_tool gives the full definition', async () => {
    const full = (await (await clientOf(undefined)).listTools()).tools;
    const client = await clientOf('compact');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...full.map((t) => t.name), 'describe_tool']);
    expect(JSON.stringify(tools).length).toBeLessThan(JSON.stringify(full).length / 2);
    const edit = tools.find((t) => t.name === 'fs_edit_file')!;
    expect(edit.description).not.toContain('\n');
    expect(edit.inputSchema.properties).toEqual({
      path: { type: 'string' },
      edits: { type: 'array' },
      dryRun: { type: 'boolean' },
    });
    const described = await client.callTool({ name: 'describe_tool', arguments: { name: 'fs_edit_file' } });
    expect((described.structuredContent as { tool: unknown }).tool).toEqual(
      full.find((t) => t.name === 'fs_edit_file'),
    );
    const unknown = await client.callTool({ name: 'describe_tool', arguments: { name: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]!.text).toBe(
      'no tool named "nope" here (search_tools finds tools by task)',
    );
    expect(client.getInstructions()).toContain('call describe_tool');
  }, 60_000);

  it('compact: a call is checked against the whole schema, not the listed summary', async () => {
    const client = await clientOf('compact');
    await client.listTools();
    const refused = await client.callTool({
      name: 'fs_edit_file',
      arguments: { path: `${stack.dir}/hello.txt`, edits: [{ wrong: 1 }] },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toMatch(/edits\/0|oldText/);
    expect(await import('node:fs').then((fs) => fs.readFileSync(`${stack.dir}/hello.txt`, 'utf8'))).toBe(
      'hello from the filesystem\n',
    );
  }, 60_000);

  it('search: only search_tools and describe_tool, then the tools the session called, each new one announced', async () => {
    const client = await clientOf('search');
    let announced = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      announced++;
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tool']);
    const read = await client.callTool({
      name: 'fs_read_text_file',
      arguments: { path: `${stack.dir}/hello.txt` },
    });
    expect(read.isError).not.toBe(true);
    // The notification is sent before the result, on the same in-memory transport.
    expect(announced).toBe(1);
    await client.callTool({ name: 'fs_read_text_file', arguments: { path: `${stack.dir}/hello.txt` } });
    expect(announced).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'fs_read_text_file',
      'search_tools',
      'describe_tool',
    ]);
    const other = await clientOf('search');
    expect((await other.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tool']);
  }, 60_000);
});
