// MCP sessions across XProtocol (docs/protocol.md §10.5), with real pieces: a relay on loopback,
// the conformance fixture as a stdio server behind an endpoint (B), and an MCP face (A) whose
// SDK client offers sampling, elicitation and roots. What the server sends back while it works
// must reach that client, and what the client does (answer, cancel, leave) must reach the server.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { generateIdentity, type Identity, openEvent, sealEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { type Relay, startRelay } from '@xprotocol/relay';
import { RelayPool } from '@xprotocol/relay-client';
import { translateSource } from '@xprotocol/translate';
import { afterEach, describe, expect, it } from 'vitest';
import { _sealSessionTag } from '../src/caller/xp-mcp-session-tag.js';
import {
  AccessPolicy,
  Announcer,
  compileArgumentValidator,
  type EndpointCatalog,
  type EndpointTool,
  McpFace,
  StateDatabase,
  UpstreamSession,
  XpCaller,
  XpEndpoint,
} from '../src/index.js';
import { testAnnouncePayload } from './support/announce.js';
import { loadVectorFile } from './support/vectors.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'conformance-server.mjs');
const backends = { signatures: nodeSignatures, cipher: nodeCipher };

interface Setup {
  dir: string;
  /** The relay's URL, for a test watching what crosses it. */
  relayUrl: string;
  endpoint: XpEndpoint;
  b: Identity;
  a: Identity;
  client: Client;
  /** What the fixture processes recorded. */
  seen: () => { event: string; marker: string }[];
  /** Pids of the fixture processes started so far (the endpoint's own, then one per session). */
  pids: () => number[];
  /** Ends the MCP client's session with the face. */
  leave: () => Promise<void>;
  close: () => Promise<void>;
}

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

async function start(grants = ['com.test.conf.*']): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'xp-session-'));
  const relay: Relay = await startRelay({ port: 0 });
  const b = generateIdentity();
  const a = generateIdentity();
  const upstream = new UpstreamSession({
    name: 'conf',
    transport: {
      type: 'stdio',
      command: [process.execPath, FIXTURE, 'stdio'],
      env: { XP_FIXTURE_EVENTS: join(dir, 'events.jsonl'), XP_FIXTURE_PID_FILE: join(dir, 'pids') },
    },
  });
  const translation = translateSource({
    name: 'conf',
    namespace: 'com.test.conf',
    tools: await upstream.listTools(),
    adapterVersion: '0.0.0-test',
  });
  const byKind = new Map<string, EndpointTool>(
    translation.contracts.map((contract) => [
      contract.kind,
      {
        contract,
        source: 'conf',
        upstreamName: (contract.source as { mcp_tool: string }).mcp_tool,
        validate: compileArgumentValidator(contract.payload),
      },
    ]),
  );
  const catalog: EndpointCatalog = {
    tool: (kind) => byKind.get(kind),
    page: () => ({ contracts: translation.contracts, total: translation.contracts.length }),
    describe: () => [],
  };
  const bState = new StateDatabase(join(dir, 'b.db'));
  const bPool = await RelayPool.open({ urls: [relay.url], outbox: bState.outbox() });
  const endpoint = new XpEndpoint({
    identity: b,
    pool: bPool,
    state: bState,
    catalog,
    upstreams: new Map([['conf', upstream]]),
    mcpSources: [{ name: 'conf', namespace: 'com.test.conf' }],
    access: new AccessPolicy({ default: 'deny', grants: [{ key: a.keys.ed25519, capabilities: grants }] }),
    ...backends,
  });
  await endpoint.start();
  await new Announcer({
    pool: bPool,
    identity: b,
    payload: () => testAnnouncePayload(b, [relay.url], 'B'),
    signatures: nodeSignatures,
  }).publish();
  const aPool = await RelayPool.open({ urls: [relay.url] });
  const face = new McpFace({
    caller: new XpCaller({ identity: a, pool: aPool, ...backends }),
    state: new StateDatabase(':memory:'),
    sources: [{ name: 'b', key: b.keys.ed25519, label: 'b', prefix: 'conf_', schemaFilter: [] }],
    callTimeoutMs: 20_000,
    sha256: nodeCipher.sha256,
    serverInfo: { name: 'face', version: '0.0.0' },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await face.server.connect(serverSide);
  const client = new Client(
    { name: 'session-test-client', version: '1.2.3' },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  await client.connect(clientSide);
  const lines = (file: string) =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  return {
    dir,
    relayUrl: relay.url,
    endpoint,
    a,
    b,
    client,
    seen: () => lines(join(dir, 'events.jsonl')).map((line) => JSON.parse(line)),
    pids: () => lines(join(dir, 'pids')).map(Number),
    leave: () => client.close(),
    async close() {
      await client.close().catch(() => {});
      await endpoint.stop();
      await upstream.close();
      await aPool.close();
      await bPool.close();
      await bState.close();
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The tags of the server requests and their answers on the relay are those of
 * testdata/vectors/xp-answer-tags.json (`session_messages`, docs/protocol.md §10.7): a server
 * request names the tool call it belongs to and ends no later than it; its answer names it and
 * ends with it.
 */
async function _expectSessionTags(s: Setup): Promise<void> {
  const rules = loadVectorFile<{ session_messages: { kind: string; tags: string[][] }[] }>(
    'testdata/vectors/xp-answer-tags.json',
  ).session_messages;
  const watcher = await RelayPool.open({ urls: [s.relayUrl] });
  const events: XpEvent[] = [];
  try {
    await new Promise<void>((resolve) => {
      const subscription = watcher.subscribe(
        [{ kinds: ['xp.mcp.server_request', 'xp.mcp.server_request.result'] }],
        {
          onEvent: (event) => {
            events.push(event);
          },
          onEose: () => {
            subscription.close();
            resolve();
          },
        },
      );
    });
  } finally {
    await watcher.close();
  }
  const names = (kind: string) => rules.find((r) => r.kind === kind)?.tags.map(([name]) => name);
  const requests = events.filter((e) => e.kind === 'xp.mcp.server_request');
  expect(requests.length).toBe(3);
  const tag = (event: XpEvent, name: string) => event.tags.find((t) => t[0] === name)?.[1];
  for (const request of requests) {
    expect(request.tags.map(([name]) => name)).toEqual(names('xp.mcp.server_request'));
    expect(request.tags[0]).toEqual(['p', s.a.keys.ed25519]);
    const answer = events.find(
      (e) => e.kind === 'xp.mcp.server_request.result' && tag(e, 'e') === request.id,
    );
    expect(answer?.tags.map(([name]) => name)).toEqual(names('xp.mcp.server_request.result'));
    expect(answer?.tags[0]).toEqual(['p', s.b.keys.ed25519]);
    expect(tag(answer as XpEvent, 'expiration')).toBe(tag(request, 'expiration'));
  }
}

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;
}

describe('MCP sessions across XProtocol', () => {
  it("the server's sampling, elicitation and roots requests reach the client that called, and its answers go back", async () => {
    setup = await start();
    const asked: string[] = [];
    setup.client.setRequestHandler('sampling/createMessage', async (request) => {
      asked.push(request.method);
      const first = request.params.messages[0]?.content;
      return {
        role: 'assistant',
        content: { type: 'text', text: `echo ${(first as { text: string }).text}` },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    });
    setup.client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.method);
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
    setup.client.setRequestHandler('roots/list', async (request) => {
      asked.push(request.method);
      return { roots: [{ uri: 'file:///work', name: 'work' }] };
    });
    const sampled = await setup.client.callTool({ name: 'conf_test_sampling', arguments: { prompt: 'hi' } });
    expect(textOf(sampled)).toBe('LLM response: echo hi');
    const elicited = await setup.client.callTool({
      name: 'conf_test_elicitation',
      arguments: { message: 'who are you?' },
    });
    // Payloads cross as canonical JSON (keys sorted), so compare the answer as data.
    expect(JSON.parse(textOf(elicited).replace(/^User response: /, ''))).toEqual({
      action: 'accept',
      content: { username: 'ada', email: 'ada@example.com' },
    });
    const roots = await setup.client.callTool({ name: 'conf_test_roots', arguments: {} });
    expect(textOf(roots)).toBe('Roots: [{"uri":"file:///work","name":"work"}]');
    expect(asked).toEqual(['sampling/createMessage', 'elicitation/create', 'roots/list']);
    await _expectSessionTags(setup);
    // One session of this client at the endpoint, with its own server process beside the shared one.
    expect(setup.endpoint.mcpSessionCount).toBe(1);
    expect(new Set(setup.pids()).size).toBe(2);
  }, 60_000);

  it('progress and log messages reach the client before the result, under its own progress token', async () => {
    setup = await start();
    const order: string[] = [];
    setup.client.setNotificationHandler('notifications/message', async (notification) => {
      order.push(`log ${String(notification.params.data)}`);
    });
    await setup.client.setLoggingLevel('debug');
    const progressed: number[] = [];
    const withProgress = await setup.client.callTool(
      { name: 'conf_test_tool_with_progress', arguments: {} },
      {
        onprogress: (progress: { progress: number }) => {
          progressed.push(progress.progress);
        },
      },
    );
    order.push('progress result');
    const logged = await setup.client.callTool({ name: 'conf_test_tool_with_logging', arguments: {} });
    order.push('logging result');
    expect(withProgress.isError).not.toBe(true);
    expect(progressed).toEqual([0, 50, 100]);
    expect(logged.isError).not.toBe(true);
    const logs = order.filter((entry) => entry.startsWith('log '));
    expect(logs).toHaveLength(3);
    // Every log message of the call arrived before its result.
    expect(order.indexOf('logging result')).toBe(order.length - 1);
    expect(order.slice(order.indexOf('progress result') + 1, -1)).toEqual(logs);
  }, 60_000);

  it("the client's cancellation reaches the server across the relay", async () => {
    setup = await start();
    const s = setup;
    const abort = new AbortController();
    const call = s.client
      .callTool(
        { name: 'conf_test_wait_for_cancellation', arguments: { marker: 'm1' } },
        {
          signal: abort.signal,
        },
      )
      .then(
        () => 'answered',
        (error: Error) => `rejected: ${error.message}`,
      );
    await until(() => s.seen().some((e) => e.event === 'started' && e.marker === 'm1'), 'the call to start');
    abort.abort('the user pressed stop');
    expect(await call).toMatch(/^rejected: /);
    await until(
      () => s.seen().some((e) => e.event === 'cancelled' && e.marker === 'm1'),
      'the server to see the cancellation',
    );
  }, 60_000);

  it("the server giving up its own request ends the client's wait for an answer", async () => {
    setup = await start();
    let aborted = false;
    setup.client.setRequestHandler('elicitation/create', async (_request, ctx) => {
      await new Promise<void>((resolve) => {
        ctx.mcpReq.signal.addEventListener('abort', () => {
          aborted = true;
          resolve();
        });
      });
      return { action: 'cancel' };
    });
    const result = await setup.client.callTool({ name: 'conf_test_elicitation_gives_up', arguments: {} });
    expect(textOf(result)).toMatch(/^gave up: /);
    await until(() => aborted, "the client's elicitation handler to be aborted");
  }, 60_000);

  it('when the client leaves, the endpoint ends its session and the server process of that session', async () => {
    setup = await start();
    const s = setup;
    s.client.setRequestHandler('roots/list', async () => ({ roots: [] }));
    await s.client.callTool({ name: 'conf_test_roots', arguments: {} });
    expect(s.endpoint.mcpSessionCount).toBe(1);
    const own = s.pids().at(-1)!;
    expect(_alive(own)).toBe(true);
    await s.leave();
    await until(() => s.endpoint.mcpSessionCount === 0, 'the session to end at the endpoint');
    await until(() => !_alive(own), 'the session server process to exit');
  }, 60_000);

  it('subscriptions and the log level need the session tag and their own capabilities', async () => {
    setup = await start(['com.test.conf.mcp.resources.read']);
    const s = setup;
    const now = Math.floor(Date.now() / 1000);
    const seal = (payload: unknown, tags: string[][] = []) =>
      sealEvent(
        { kind: 'xp.mcp.request', payload, created_at: now, expiration: now + 30, tags },
        s.a,
        s.b.keys,
        backends,
      );
    const answer = async (event: ReturnType<typeof seal>) => {
      const outcome = await s.endpoint.handleEvent(event);
      if (outcome.action !== 'answered') throw new Error(JSON.stringify(outcome));
      return JSON.parse(openEvent(outcome.answer, s.a, backends).plaintext) as {
        code: string;
        message: string;
        details?: Record<string, unknown>;
      };
    };
    const subscribe = { method: 'resources/subscribe', params: { uri: 'test://watched-resource' } };
    const untagged = await answer(seal(subscribe));
    expect(untagged.code).toBe('SCHEMA_VIOLATION');
    expect(untagged.message).toMatch(/needs the mcp tag/);
    const tag = _sealSessionTag({ session: 'a'.repeat(32), capabilities: {} }, s.a, s.b.keys, nodeCipher);
    const refused = await answer(seal(subscribe, [tag]));
    expect(refused.code).toBe('AUTHORIZATION_INSUFFICIENT');
    expect(refused.details).toEqual({ required_capability: 'com.test.conf.mcp.resources.subscribe' });
    const level = await answer(seal({ method: 'logging/setLevel', params: { level: 'info' } }, [tag]));
    expect(level.code).toBe('AUTHORIZATION_INSUFFICIENT');
    expect(level.details).toEqual({ required_capability: 'com.test.conf.mcp.logging' });
    // A tag that does not decrypt (sealed to another key) fails step 9 with the content: dropped,
    // never answered (docs/protocol.md §4, §10.5), and nothing ran.
    const wrong = _sealSessionTag(
      { session: 'b'.repeat(32), capabilities: {} },
      s.a,
      generateIdentity().keys,
      nodeCipher,
    );
    const garbled = await s.endpoint.handleEvent(
      seal({ method: 'resources/read', params: { uri: 'test://static-text' } }, [wrong]),
    );
    expect(garbled).toMatchObject({
      action: 'dropped',
      reason: expect.stringMatching(/^cannot decrypt: the mcp tag does not decrypt/),
    });
    expect(s.endpoint.mcpSessionCount).toBe(0);
  }, 60_000);

  it("a server request the caller never answers ends at the request's expiration, and the call is answered", async () => {
    setup = await start();
    const s = setup;
    const now = Math.floor(Date.now() / 1000);
    // A caller that claims sampling but listens to nothing: no face, no back channel.
    const tag = _sealSessionTag(
      { session: 'c'.repeat(32), capabilities: { sampling: {} } },
      s.a,
      s.b.keys,
      nodeCipher,
    );
    const call = sealEvent(
      {
        kind: 'com.test.conf.test_sampling',
        payload: { prompt: 'anyone?' },
        created_at: now,
        expiration: now + 2,
        tags: [tag],
      },
      s.a,
      s.b.keys,
      backends,
    );
    const outcome = await s.endpoint.handleEvent(call);
    expect(outcome.action).toBe('answered');
    const answer = outcome.action === 'answered' ? outcome.answer : undefined;
    const opened = JSON.parse(openEvent(answer, s.a, backends).plaintext) as Record<string, unknown>;
    // The server got a timeout for its request and failed the tool; the answer says so.
    expect(JSON.stringify(opened)).toMatch(/timed out|TIMEOUT|timeout/i);
  }, 60_000);
});

function _alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
