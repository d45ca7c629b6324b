// The adapter's caller side against an endpoint it shares no code with: test/independent/
// strict-endpoint.mjs, a native XProtocol endpoint written from docs/protocol.md alone (node:crypto
// and `ws`), serves the catalog of testdata/vectors/xp-discovery.json on the real relay bin. The
// real adapter bin reaches it two ways: its MCP face (an `xprotocol_sources` entry naming the
// endpoint's key) lists the catalog as tools and an MCP client calls them; `xprotocol-adapter call`
// calls one from the command line. What the endpoint ran is recorded on its side, so a call the
// adapter refused never shows up there, and one it made shows up once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newIdentity } from './independent/strict-client.mjs';
import { StrictEndpoint } from './independent/strict-endpoint.mjs';
import { Processes } from './support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CATALOG = JSON.parse(readFileSync(join(ROOT, 'testdata', 'vectors', 'xp-discovery.json'), 'utf8'))
  .catalog as { kind: string }[];

const notes = new Map<string, string>([['groceries', 'eggs, flour, milk']]);
const procs = new Processes();
let endpoint: StrictEndpoint;
let relayUrl: string;
let face: Client;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  endpoint = await StrictEndpoint.start(relayUrl, newIdentity(), {
    displayName: 'Independent notes endpoint',
    catalog: CATALOG,
    tools: {
      'com.example.notes.list_notes': () => ({
        content: [{ type: 'text', text: [...notes.keys()].join('\n') }],
      }),
      'com.example.notes.read_note': ({ title }) => {
        const text = notes.get(String(title));
        return text === undefined
          ? { isError: true, content: [{ type: 'text', text: `no note titled ${String(title)}` }] }
          : { content: [{ type: 'text', text }] };
      },
      'com.example.notes.write_note': ({ title, text }) => {
        notes.set(String(title), String(text));
        return {
          content: [{ type: 'text', text: `saved ${String(title)}` }],
          structuredContent: { saved: true },
        };
      },
    },
  });
  await procs.keygen('face.key');
  face = await procs.mcpClient(
    procs.file(
      'face.yml',
      `identity:
  key_file: ./face.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: notes
    key: ${endpoint.keys.ed25519}
    relay: ${relayUrl}
mcp_server:
  transport: stdio
state_database: ./face-state.db
logging:
  level: warn
`,
    ),
  );
}, 120_000);
afterAll(async () => {
  await face?.close();
  await endpoint?.close();
  await procs.close();
});

/** The face's tool whose name ends with `suffix` (the face may prefix a source's tools). */
async function toolNamed(suffix: string) {
  const { tools } = await face.listTools();
  const found = tools.filter((t) => t.name.endsWith(suffix));
  expect(found, `a tool ending in ${suffix} among ${tools.map((t) => t.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
}

describe('an MCP face over an independent endpoint (xprotocol_sources)', () => {
  it("lists the endpoint's catalog as tools, with their schemas", async () => {
    const read = await toolNamed('read_note');
    expect(read.inputSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', maxLength: 200 } },
      required: ['title'],
    });
    await toolNamed('list_notes');
    await toolNamed('write_note');
  });

  it('calls a tool across XProtocol: sealed, run once at the endpoint, the result unchanged', async () => {
    const before = endpoint.calls.length;
    const result = await face.callTool({
      name: (await toolNamed('read_note')).name,
      arguments: { title: 'groceries' },
    });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'eggs, flour, milk' }] });
    expect(result.isError).toBeFalsy();
    expect(endpoint.calls.slice(before)).toEqual([
      { kind: 'com.example.notes.read_note', args: { title: 'groceries' }, sender: expect.any(String) },
    ]);
  });

  it("passes a tool's own error (isError) and structured content through as they came", async () => {
    const missing = await face.callTool({
      name: (await toolNamed('read_note')).name,
      arguments: { title: 'nope' },
    });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'no note titled nope' }],
    });
    const saved = await face.callTool({
      name: (await toolNamed('write_note')).name,
      arguments: { title: 'ideas', text: 'a bridge' },
    });
    expect(saved).toMatchObject({ structuredContent: { saved: true } });
    expect(notes.get('ideas')).toBe('a bridge');
  });

  it("refuses arguments against the contract's schema at the face: nothing reaches the endpoint", async () => {
    const before = endpoint.calls.length;
    const result = await face.callTool({
      name: (await toolNamed('read_note')).name,
      arguments: { title: 'x'.repeat(201) },
    });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { xp_code: 'SCHEMA_VIOLATION', details: { errors: [{ path: '/title' }] } },
    });
    expect(endpoint.calls.length).toBe(before);
  });
});

describe('xprotocol-adapter call against an independent endpoint', () => {
  it('calls a tool by its kind and prints the result', async () => {
    const caller = await procs.keygen('caller.key');
    const { code, stdout, stderr } = await procs.cli([
      'call',
      '--key',
      caller.path,
      '--relay',
      relayUrl,
      '--to',
      endpoint.keys.ed25519,
      '--kind',
      'com.example.notes.list_notes',
      '--payload',
      '{}',
      '--timeout-ms',
      '15000',
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout).content[0].text.split('\n')).toContain('groceries');
    expect(endpoint.calls.at(-1)).toEqual({
      kind: 'com.example.notes.list_notes',
      args: {},
      sender: caller.ed25519,
    });
  });

  it('an unknown kind is answered NOT_FOUND by the endpoint, and the CLI says so', async () => {
    const caller = await procs.keygen('caller2.key');
    const { code, stdout } = await procs.cli([
      'call',
      '--key',
      caller.path,
      '--relay',
      relayUrl,
      '--to',
      endpoint.keys.ed25519,
      '--kind',
      'com.example.notes.delete_note',
      '--payload',
      '{}',
      '--timeout-ms',
      '15000',
    ]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).error.code).toBe('NOT_FOUND');
  });
});
