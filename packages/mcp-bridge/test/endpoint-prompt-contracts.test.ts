// Prompt and resource-template contracts at the endpoint (docs/protocol.md §10.11), with real pieces:
// a relay on loopback, the conformance fixture over stdio, sealed events injected below the relay.
// A contract kind is checked like a tool call (authority, rate limit, schema) and then runs
// `prompts/get` or `resources/read` upstream.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity, type Identity, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { type Relay, startRelay } from '@xprotocol/relay';
import { RelayPool, SqliteOutbox } from '@xprotocol/relay-client';
import { type SchemaContract, translateSource } from '@xprotocol/translate';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AccessPolicy,
  compileArgumentValidator,
  type EndpointCatalog,
  type EndpointTool,
  type InboundOutcome,
  StateDatabase,
  UpstreamSession,
  XpEndpoint,
} from '../src/index.js';
import { openedAnswer, sealedRequest } from './support/sealed-requests.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'conformance-server.mjs');
const backends = { signatures: nodeSignatures, cipher: nodeCipher };
const NS = 'com.test.one';

interface Setup {
  endpoint: XpEndpoint;
  adapter: Identity;
  client: Identity;
  seen: () => { event: string; marker: string }[];
  close: () => Promise<void>;
}

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

/** The endpoint's catalog: what the fixture lists, translated, served as the adapter serves it. */
async function catalogOf(upstream: UpstreamSession): Promise<EndpointCatalog> {
  const templates = await upstream.request('resources/templates/list', undefined, { timeoutMs: 10_000 });
  const contracts = translateSource({
    name: 'one',
    namespace: NS,
    tools: [],
    prompts: await upstream.listPrompts(),
    // One template the server does not serve, for its error.
    resourceTemplates: [
      ...(templates.resourceTemplates as unknown[]),
      { name: 'missing', uriTemplate: 'test://nowhere/{id}' },
    ],
    adapterVersion: '0.1.0',
  }).contracts;
  const byKind = new Map<string, SchemaContract>(contracts.map((c) => [c.kind, c]));
  return {
    tool: (kind) => {
      const contract = byKind.get(kind);
      if (!contract) return undefined;
      const source = contract.source as {
        mcp_prompt?: string;
        mcp_resource_template?: string;
        uri_template?: string;
      };
      const entry: EndpointTool['entry'] =
        source.mcp_prompt !== undefined
          ? { type: 'prompt' }
          : { type: 'resource_template', uriTemplate: source.uri_template as string };
      const upstreamName = source.mcp_prompt ?? (source.mcp_resource_template as string);
      return {
        contract,
        source: 'one',
        upstreamName,
        entry,
        validate: compileArgumentValidator(contract.payload),
      };
    },
    page: () => ({ contracts: [] }) as never,
    describe: () => [],
  };
}

async function start(grants: string[]): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'xp-entries-'));
  const relay: Relay = await startRelay({ port: 0 });
  const adapter = generateIdentity();
  const client = generateIdentity();
  const statePath = join(dir, 'state.db');
  const events = join(dir, 'one.jsonl');
  const upstream = new UpstreamSession({
    name: 'one',
    transport: {
      type: 'stdio',
      command: [process.execPath, FIXTURE, 'stdio'],
      env: { XP_FIXTURE_EVENTS: events },
    },
  });
  await upstream.connect();
  const state = new StateDatabase(statePath);
  const pool = await RelayPool.open({ urls: [relay.url], outbox: new SqliteOutbox(statePath) });
  const endpoint = new XpEndpoint({
    identity: adapter,
    pool,
    state,
    catalog: await catalogOf(upstream),
    upstreams: new Map([['one', upstream]]),
    mcpSources: [{ name: 'one', namespace: NS }],
    access: new AccessPolicy({
      default: 'deny',
      grants: [{ key: client.keys.ed25519, capabilities: grants }],
    }),
    ...backends,
  });
  return {
    endpoint,
    adapter,
    client,
    seen: () =>
      existsSync(events)
        ? readFileSync(events, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { event: string; marker: string })
        : [],
    async close() {
      await endpoint.stop();
      await pool.close();
      await state.close();
      await upstream.close();
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function call(s: Setup, kind: string, payload: unknown): XpEvent {
  return sealedRequest(kind, payload, s.client, s.adapter);
}

function answerOf(s: Setup, outcome: InboundOutcome): { kind: string; payload: Record<string, unknown> } {
  return openedAnswer(outcome, s.client);
}

const PROMPT = `${NS}.prompt.test_prompt_with_arguments`;
const TEMPLATE = `${NS}.resource.template`;

describe('prompt and resource-template contracts at the endpoint', () => {
  it('answers a prompt kind with the prompts/get result, the payload as its arguments', async () => {
    setup = await start([`${NS}.mcp.prompts.get`]);
    const s = setup;
    const got = answerOf(s, await s.endpoint.handleEvent(call(s, PROMPT, { arg1: 'one', arg2: 'two' })));
    expect(got.kind).toBe(`${PROMPT}.result`);
    expect(got.payload).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='one', arg2='two'" } },
      ],
    });
    expect(s.seen()).toEqual([{ event: 'prompts/get', marker: 'test_prompt_with_arguments' }]);
  });
  it('answers a resource-template kind by reading the expanded URI', async () => {
    setup = await start([`${NS}.mcp.resources.read`]);
    const s = setup;
    const got = answerOf(s, await s.endpoint.handleEvent(call(s, TEMPLATE, { id: 'a b' })));
    expect(got.kind).toBe(`${TEMPLATE}.result`);
    expect((got.payload.contents as { uri: string }[])[0]?.uri).toBe('test://template/a%20b/data');
    expect(s.seen()).toEqual([{ event: 'resources/read', marker: 'test://template/a%20b/data' }]);
  });
  it('refuses without the grant, and a bad payload, before the server hears anything', async () => {
    setup = await start([`${NS}.read`, `${NS}.mcp.resources.read`]);
    const s = setup;
    const refused = answerOf(s, await s.endpoint.handleEvent(call(s, PROMPT, { arg1: 'one', arg2: 'two' })));
    expect(refused.kind).toBe('xp.error');
    expect(refused.payload).toMatchObject({
      code: 'AUTHORIZATION_INSUFFICIENT',
      details: { required_capability: `${NS}.mcp.prompts.get` },
    });
    const bad = answerOf(s, await s.endpoint.handleEvent(call(s, TEMPLATE, { id: 'x', other: 'y' })));
    expect(bad.payload).toMatchObject({ code: 'SCHEMA_VIOLATION' });
    const missing = answerOf(s, await s.endpoint.handleEvent(call(s, TEMPLATE, {})));
    expect(missing.payload).toMatchObject({ code: 'SCHEMA_VIOLATION' });
    expect(s.seen()).toEqual([]);
  });
  it('maps the server error of a read as it maps a tool call error', async () => {
    setup = await start([`${NS}.mcp.resources.read`]);
    const s = setup;
    const got = answerOf(s, await s.endpoint.handleEvent(call(s, `${NS}.resource.missing`, { id: 'a/b' })));
    expect(got.kind).toBe('xp.error');
    expect(got.payload).toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: expect.stringContaining('Resource not found: test://nowhere/a%2Fb'),
    });
    expect(s.seen()).toEqual([{ event: 'resources/read', marker: 'test://nowhere/a%2Fb' }]);
  });
});
