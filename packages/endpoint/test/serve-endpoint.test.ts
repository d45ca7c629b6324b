// serveEndpoint against a real relay on loopback, called by a real XpCaller: what it refuses at
// start, and how it answers a handler that throws or a result that breaks its output schema.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { type Relay, startRelay } from '@xprotocol/relay';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NativeTool, type RunningEndpoint, serveEndpoint, ToolDefinitionError } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'xp-endpoint-'));
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const text = { type: 'string', description: 'Any text.' };
const handled: string[] = [];
const tools: NativeTool[] = [
  {
    name: 'echo_text',
    description: 'Echo the text it is given back to the caller, unchanged.',
    inputSchema: object({ text }, ['text']),
    outputSchema: object({ text }, ['text']),
    annotations: { readOnlyHint: true },
    handler: async (args) => {
      handled.push(String(args.text));
      // The one input that makes this handler break its own output schema.
      return args.text === 'break the contract' ? { text: 42 } : { text: args.text };
    },
  },
  {
    name: 'fail_always',
    description: 'Fail every time it is called, with an error message that names the input text.',
    inputSchema: object({ text }, ['text']),
    annotations: { readOnlyHint: true },
    handler: async (args) => {
      throw new Error(`the handler refused "${String(args.text)}"`);
    },
  },
];

let relay: Relay;
let endpoint: RunningEndpoint;
let pool: RelayPool;
const client = generateIdentity();
const stranger = generateIdentity();

beforeAll(async () => {
  relay = await startRelay({ port: 0 });
  endpoint = await serveEndpoint({
    key: join(dir, 'endpoint.key'),
    relays: [relay.url],
    namespace: 'test.native',
    tools,
    access: { grants: [{ key: client.keys.ed25519, capabilities: ['test.native.*'] }] },
  });
  pool = await RelayPool.open({ urls: [relay.url] });
});

afterAll(async () => {
  await pool?.close();
  await endpoint?.stop();
  await relay?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (kind: string, payload: unknown, identity = client) =>
  new XpCaller({ identity, pool, signatures: nodeSignatures, cipher: nodeCipher }).call({
    to: endpoint.keys,
    kind,
    payload,
    timeoutMs: 15_000,
  });

describe('serveEndpoint', () => {
  it('answers a granted call with the handler result, sealed to the caller', async () => {
    const outcome = await call('test.native.echo_text', { text: 'hello' });
    expect(outcome).toMatchObject({
      ok: true,
      payload: {
        structuredContent: { text: 'hello' },
        content: [{ type: 'text', text: '{"text":"hello"}' }],
      },
    });
    expect(endpoint.kinds).toEqual([
      { kind: 'test.native.echo_text', capability: 'test.native.execute' },
      { kind: 'test.native.fail_always', capability: 'test.native.read' },
    ]);
  });

  it('announces itself and publishes its catalog with a GBNF grammar per tool', async () => {
    const reader = new XpCaller({ identity: client, pool, signatures: nodeSignatures, cipher: nodeCipher });
    const announce = await reader.resolve(endpoint.keys.ed25519, 15_000);
    expect(announce.keys).toEqual(endpoint.keys);
    expect(announce.payload).toMatchObject({ display_name: 'test.native', mcp_sources: [] });
    expect(announce.payload.counts.schemas).toBe(2);
    // Its own tools are disclosed as a native served source and counted as tools.
    expect(announce.payload.counts.tools).toBe(2);
    expect(announce.payload.served_sources).toEqual([
      { name: 'test.native', transport: 'native', namespace: 'test.native', tool_count: 2, prompt_count: 0 },
    ]);
    const catalog = await reader.catalog(endpoint.keys.ed25519, 15_000);
    expect(catalog.map((c) => c.kind)).toEqual(['test.native.echo_text', 'test.native.fail_always']);
    for (const contract of catalog) expect(contract.gbnf_grammar).toMatch(/^root ::= /m);
  });

  it('refuses a key without a grant before the handler runs', async () => {
    const outcome = await call('test.native.echo_text', { text: 'from a stranger' }, stranger);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'AUTHORIZATION_INSUFFICIENT' } });
    expect(handled).not.toContain('from a stranger');
  });

  it('answers a handler that throws with UPSTREAM_ERROR and its message, and keeps serving', async () => {
    const failed = await call('test.native.fail_always', { text: 'this' });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'UPSTREAM_ERROR', message: 'the handler refused "this"' },
    });
    expect(await call('test.native.echo_text', { text: 'still here' })).toMatchObject({ ok: true });
  });

  it('refuses a result that breaks the output schema instead of sending it', async () => {
    const outcome = await call('test.native.echo_text', { text: 'break the contract' });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'UPSTREAM_ERROR',
        message: expect.stringMatching(
          /result of tool "echo_text" does not match its output schema \(\/text: must be string\)/,
        ),
      },
    });
  });

  it('refuses two tools with one name at start, naming the tool, before any key is made', async () => {
    const key = join(dir, 'dup.key');
    const started = serveEndpoint({
      key,
      relays: [relay.url],
      namespace: 'test.dup',
      tools: [tools[0]!, tools[0]!],
    });
    await expect(started).rejects.toThrow(ToolDefinitionError);
    await expect(started).rejects.toThrow(
      'tool "echo_text": the name is used by an earlier tool; expected unique names',
    );
    expect(existsSync(key)).toBe(false);
  });

  it('refuses a schema that is not valid JSON Schema at start, saying why', async () => {
    const broken: NativeTool = { ...tools[0]!, inputSchema: object({ text: { type: 'strnig' } }) };
    const started = serveEndpoint({
      key: join(dir, 'bad.key'),
      relays: [relay.url],
      namespace: 'test.bad',
      tools: [broken],
    });
    await expect(started).rejects.toThrow(
      /tool "echo_text": inputSchema: not a valid JSON Schema: schema does not compile .*must be equal to one of the allowed values/,
    );
  });

  it('refuses an input schema that takes no named arguments', async () => {
    const started = serveEndpoint({
      key: join(dir, 'array.key'),
      relays: [relay.url],
      namespace: 'test.array',
      tools: [{ ...tools[0]!, inputSchema: { type: 'array' } }],
    });
    await expect(started).rejects.toThrow('inputSchema: expected a schema with "type": "object"');
  });
});
