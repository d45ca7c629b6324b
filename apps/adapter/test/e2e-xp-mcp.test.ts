// MCP without a tool shape across XProtocol (docs/protocol.md §10.4): adapter B wraps the
// conformance fixture over stdio; adapter A names B in xprotocol_sources and serves its face on
// Streamable HTTP; an SDK client on A lists and reads resources (text and binary), lists and gets
// prompts, completes arguments, and gets the upstream's JSON-RPC errors unchanged, every request
// an `xp.mcp.request` through a real relay. A second adapter whose key holds only a tool grant is
// refused with AUTHORIZATION_INSUFFICIENT, and the fixture never sees its requests.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const procs = new Processes();
const events = join(procs.dir, 'events.jsonl');
const clients: Client[] = [];
let granted: Client;
let refused: Client;
/** A face over two endpoints: B lets it read resources and prompts, C only call tools. */
let mixed: Client;

/** Starts an adapter A with B as its XProtocol source; returns a connected SDK client on its face. */
async function faceOf(
  name: string,
  relayUrl: string,
  bKey: string,
  more: { name: string; key: string; prefix: string }[] = [],
): Promise<Client> {
  const port = await freePort();
  const config = procs.file(
    `${name}.yml`,
    `identity:
  key_file: ./${name}.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${bKey}
    relay: ${relayUrl}
    mcp_tool_prefix: conf_
${more.map((m) => `  - name: ${m.name}\n    key: ${m.key}\n    relay: ${relayUrl}\n    mcp_tool_prefix: ${m.prefix}\n`).join('')}mcp_server:
  transport: streamable_http
  port: ${port}
state_database: ./${name}-state.db
logging:
  level: warn
  format: json
`,
  );
  await procs.adapter(config);
  const client = new Client({ name: `e2e-${name}`, version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  clients.push(client);
  return client;
}

function recorded(): { event: string; marker: string }[] {
  if (!existsSync(events)) return [];
  return readFileSync(events, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string; marker: string });
}

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const b = await procs.keygen('b.key');
  const a = await procs.keygen('a.key');
  const other = await procs.keygen('other.key');
  const mix = await procs.keygen('mixed.key');
  const bConfig = procs.file(
    'b.yml',
    `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${conformanceStdioBody()}
    env:
      XP_FIXTURE_EVENTS: "${events}"
    xprotocol_namespace: com.test.conf
access:
  default: deny
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.conf.mcp.resources.read, com.test.conf.mcp.prompts.get, com.test.conf.mcp.completion]
    - key: ${other.ed25519}
      capabilities: [com.test.conf.read]
    - key: ${mix.ed25519}
      capabilities: [com.test.conf.mcp.*]
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
  );
  await procs.adapter(bConfig);
  granted = await faceOf('a', relayUrl, b.ed25519);
  refused = await faceOf('other', relayUrl, b.ed25519);
  const c = await procs.keygen('c.key');
  await procs.adapter(
    procs.file(
      'c.yml',
      `identity:
  key_file: ./c.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${conformanceStdioBody()}
    xprotocol_namespace: com.test.conf
access:
  default: deny
  grants:
    - key: ${mix.ed25519}
      capabilities: [com.test.conf.read]
state_database: ./c-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  mixed = await faceOf('mixed', relayUrl, b.ed25519, [{ name: 'c', key: c.ed25519, prefix: 'c_' }]);
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await procs.close();
});

describe('resources, prompts and completion across XProtocol (A → relay → B → MCP server)', () => {
  it('advertises resources, prompts and completions next to the tools', () => {
    expect(granted.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
    });
  });

  it('lists resources and templates under prefixed names, URIs unchanged', async () => {
    const { resources } = await granted.listResources();
    expect(resources.map((r) => [r.name, r.uri])).toEqual([
      ['conf_static-text', 'test://static-text'],
      ['conf_static-binary', 'test://static-binary'],
      ['conf_watched-resource', 'test://watched-resource'],
    ]);
    const { resourceTemplates } = await granted.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ name: 'conf_template', uriTemplate: 'test://template/{id}/data' }),
    ]);
  }, 60_000);

  it('reads a text, a binary and a templated resource', async () => {
    const textual = await granted.readResource({ uri: 'test://static-text' });
    expect(textual.contents).toEqual([
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ]);
    const binary = await granted.readResource({ uri: 'test://static-binary' });
    const blob = (binary.contents[0] as { blob: string }).blob;
    expect(binary.contents[0]).toMatchObject({ uri: 'test://static-binary', mimeType: 'image/png' });
    expect(Buffer.from(blob, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    const templated = await granted.readResource({ uri: 'test://template/42/data' });
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).toMatchObject({ id: '42' });
  }, 60_000);

  it('lists prompts under prefixed names and gets one with arguments', async () => {
    const { prompts } = await granted.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'conf_test_simple_prompt',
      'conf_test_prompt_with_arguments',
      'conf_test_prompt_with_embedded_resource',
      'conf_test_prompt_with_image',
    ]);
    expect(prompts[1]!.arguments).toEqual([
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ]);
    const prompt = await granted.getPrompt({
      name: 'conf_test_prompt_with_arguments',
      arguments: { arg1: 'one', arg2: 'two' },
    });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='one', arg2='two'" } },
    ]);
  }, 60_000);

  it('completes a prompt argument', async () => {
    const result = await granted.complete({
      ref: { type: 'ref/prompt', name: 'conf_test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(result.completion).toEqual({ values: ['paris', 'park', 'party'], total: 3, hasMore: false });
  }, 60_000);

  it("keeps the upstream's JSON-RPC error: code, message and data", async () => {
    const error = await granted.readResource({ uri: 'test://nowhere' }).catch((e: unknown) => e);
    expect(ProtocolError.isInstance(error)).toBe(true);
    // The fixture answers -32002; the SDK reads it as its ResourceNotFoundError (-32602 with the
    // uri in data, as the current revision says), here exactly as through the gateway directly.
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Resource not found: test://nowhere'),
      data: { uri: 'test://nowhere' },
    });
    const unknown = await granted.getPrompt({ name: 'conf_nothing_here' }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown prompt') });
  }, 60_000);

  it('refuses a caller without the grant with AUTHORIZATION_INSUFFICIENT; the server never sees it', async () => {
    const read = await refused.readResource({ uri: 'test://static-text?refused' }).catch((e: unknown) => e);
    expect(read).toMatchObject({
      code: -32600,
      data: {
        xp_code: 'AUTHORIZATION_INSUFFICIENT',
        xp_message: expect.stringContaining('com.test.conf.mcp.resources.read is required'),
        details: { required_capability: 'com.test.conf.mcp.resources.read' },
      },
    });
    const listed = await refused.listPrompts().catch((e: unknown) => e);
    expect(listed).toMatchObject({ data: { xp_code: 'AUTHORIZATION_INSUFFICIENT' } });
    const completed = await refused
      .complete({
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'id', value: 'refused-value' },
      })
      .catch((e: unknown) => e);
    expect(completed).toMatchObject({ data: { xp_code: 'AUTHORIZATION_INSUFFICIENT' } });
    // The face offers logging; an endpoint that withholds it leaves nothing to set, which is no error.
    await expect(refused.setLoggingLevel('info')).resolves.toEqual({});
    // What the granted client did reached the server; nothing of the refused one did.
    const seen = recorded();
    expect(seen).toContainEqual({ event: 'resources/read', marker: 'test://static-text' });
    expect(seen.filter((e) => e.marker.includes('refused'))).toEqual([]);
  }, 60_000);

  it("lists what the sources that allow it list: one source's refusal hides nothing of the others'", async () => {
    const { resources } = await mixed.listResources();
    expect(resources.map((r) => r.name)).toEqual([
      'conf_static-text',
      'conf_static-binary',
      'conf_watched-resource',
    ]);
    const { prompts } = await mixed.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('conf_test_simple_prompt');
    expect(prompts.every((p) => p.name.startsWith('conf_'))).toBe(true);
    const read = await mixed.readResource({ uri: 'test://static-text' });
    expect(read.contents[0]).toMatchObject({ text: 'This is the content of the static text resource.' });
  }, 60_000);
});
