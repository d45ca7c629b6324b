// The MCP gateway end to end (`mcp_server.expose: [mcp_sources]`): the conformance fixture as the
// upstream, once over stdio and once over Streamable HTTP, each wrapped by an adapter bin whose MCP
// face an SDK client uses over Streamable HTTP. Resources, prompts, completion, logging, progress,
// sampling, elicitation and roots cross both ways; the upstream's JSON-RPC errors are kept; two
// clients with the same request ids never see each other's traffic; a client that goes away
// mid-call has its call cancelled upstream.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, gatewayConfig } from './support/adapter-configs.js';
import { ADAPTER_BIN, CONFORMANCE_FIXTURE, freePort, Processes } from './support/processes.js';

const procs = new Processes();
const events = {
  stdio: join(procs.dir, 'events-stdio.jsonl'),
  http: join(procs.dir, 'events-http.jsonl'),
  short: join(procs.dir, 'events-short.jsonl'),
};
const faces: Record<'stdio' | 'http' | 'both' | 'short', string> = {
  stdio: '',
  http: '',
  both: '',
  short: '',
};
const clients: Client[] = [];
let relayUrl: string;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  await procs.keygen('a.key');
  const fixture = await procs.node(CONFORMANCE_FIXTURE, ['0'], {
    XP_FIXTURE_EVENTS: events.http,
    XP_FIXTURE_LABEL: 'two',
  });
  for (const kind of ['stdio', 'http'] as const) {
    const port = await freePort();
    const source =
      kind === 'stdio'
        ? `${conformanceStdioBody()}
    env:
      XP_FIXTURE_EVENTS: "${events.stdio}"`
        : `    transport: streamable_http
    url: ${fixture.firstLine}`;
    const config = procs.file(
      `${kind}.yml`,
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${source}
    xprotocol_namespace: com.test.conformance
access:
  grants: []
mcp_server:
  transport: streamable_http
  port: ${port}
  expose: [mcp_sources]
state_database: ./${kind}-state.db
logging:
  level: warn
  format: json
`,
    );
    await procs.adapter(config);
    faces[kind] = `http://127.0.0.1:${port}/mcp`;
  }
  // Both upstreams behind one face: `one` over stdio, `two` (the HTTP fixture) over Streamable HTTP.
  const port = await freePort();
  const config = procs.file(
    'both.yml',
    gatewayConfig({
      keyFile: './a.key',
      relayUrl,
      sources: [
        {
          name: 'one',
          body: `${conformanceStdioBody()}
    env:
      XP_FIXTURE_LABEL: one`,
          namespace: 'com.test.one',
        },
        {
          name: 'two',
          body: `    transport: streamable_http\n    url: ${fixture.firstLine}`,
          namespace: 'com.test.two',
        },
      ],
      face: { port },
      stateDatabase: './both-state.db',
    }),
  );
  await procs.adapter(config);
  faces.both = `http://127.0.0.1:${port}/mcp`;
  // A short call timeout (2 s), to show progress restarting it, and a tool with a longer one.
  const shortPort = await freePort();
  await procs.adapter(
    procs.file(
      'short.yml',
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${conformanceStdioBody()}
    env:
      XP_FIXTURE_EVENTS: "${events.short}"
    xprotocol_namespace: com.test.conformance
    timeouts:
      tools:
        test_long_progress: 20
access:
  grants: []
mcp_server:
  transport: streamable_http
  port: ${shortPort}
  expose: [mcp_sources]
call_timeout_seconds: 2
state_database: ./short-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  faces.short = `http://127.0.0.1:${shortPort}/mcp`;
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await procs.close();
});

interface Seen {
  logs: { level: string; data: unknown }[];
  updates: string[];
}

/** A client that answers sampling, elicitation and roots with its own name, and records what it is sent. */
async function connect(kind: keyof typeof faces, name: string): Promise<{ client: Client; seen: Seen }> {
  const seen: Seen = { logs: [], updates: [] };
  const client = new Client(
    { name, version: '0.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    content: { type: 'text', text: `sampled by ${name}` },
    model: 'test-model',
  }));
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { username: name, email: `${name}@example.com` },
  }));
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: `file:///${name}`, name }] }));
  client.setNotificationHandler('notifications/message', (n) => {
    seen.logs.push(n.params as Seen['logs'][number]);
  });
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.updates.push(n.params.uri);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(faces[kind])));
  clients.push(client);
  return { client, seen };
}

const text = (result: { content?: unknown }) => (result.content as { type: string; text: string }[])[0]!.text;

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function recorded(kind: keyof typeof events): { event: string; marker: string }[] {
  if (!existsSync(events[kind])) return [];
  return readFileSync(events[kind], 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string; marker: string });
}

describe.each(['stdio', 'http'] as const)('the MCP gateway over a %s upstream', (kind) => {
  it('advertises what the upstream offers and forwards resources, templates and subscriptions', async () => {
    const { client, seen } = await connect(kind, `resources-${kind}`);
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      logging: {},
      completions: {},
    });
    // The face's summary, then the upstream's own guidance under its name.
    expect(client.getInstructions()).toMatch(
      /^This MCP server gathers the tools of one source: conformance\. [^\n]+\n\n## conformance\n\nThe conformance fixture: every tool, resource and prompt the MCP conformance suite checks\.$/,
    );
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
    ]);
    const textRead = await client.readResource({ uri: 'test://static-text' });
    expect(textRead.contents).toEqual([
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ]);
    const binary = await client.readResource({ uri: 'test://static-binary' });
    expect((binary.contents[0] as { blob: string }).blob).toMatch(/^iVBORw0KGgo/);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
    const templated = await client.readResource({ uri: 'test://template/42/data' });
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).toMatchObject({ id: '42' });
    await client.subscribeResource({ uri: 'test://watched-resource' });
    await until('notifications/resources/updated', () =>
      seen.updates.includes('test://watched-resource') ? true : undefined,
    );
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
  });

  it('lists the tools as the upstream does and returns their results as they are', async () => {
    const { client } = await connect(kind, `tools-${kind}`);
    const { tools } = await client.listTools();
    const structured = tools.find((t) => t.name === 'test_structured');
    expect(structured).toEqual({
      name: 'test_structured',
      title: 'Structured weather',
      description: 'Returns structured content matching its output schema',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'number' } },
        required: ['city', 'celsius'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      icons: [
        { src: expect.stringMatching(/^data:image\/png;base64,/), mimeType: 'image/png', sizes: ['1x1'] },
      ],
      _meta: { 'com.example/fixture': true },
    });
    const result = await client.callTool({ name: 'test_structured', arguments: { city: 'Paris' } });
    expect(result.structuredContent).toEqual({ city: 'Paris', celsius: 21.5 });
    const failed = await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(failed).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    });
    const audio = await client.callTool({ name: 'test_audio_content', arguments: {} });
    expect((audio.content as { type: string; mimeType: string }[])[0]).toMatchObject({
      type: 'audio',
      mimeType: 'audio/wav',
    });
  });

  it('forwards prompts and completion, and keeps the upstream JSON-RPC error as it was', async () => {
    const { client } = await connect(kind, `prompts-${kind}`);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
    ]);
    const prompt = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'alpha', arg2: 'beta' },
    });
    expect(prompt.messages[0]!.content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='alpha', arg2='beta'",
    });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
    const error = await client.getPrompt({ name: 'no_such_prompt' }).catch((e: unknown) => e);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: -32602, data: { name: 'no_such_prompt' } });
    expect((error as Error).message).toContain('Unknown prompt: no_such_prompt');
    const missing = await client.readResource({ uri: 'test://nowhere' }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ data: { uri: 'test://nowhere' } });
    expect((missing as Error).message).toContain('Resource not found: test://nowhere');
  });

  it('delivers log messages at the level the client set, and progress under the client token', async () => {
    const { client, seen } = await connect(kind, `logging-${kind}`);
    await client.setLoggingLevel('info');
    const logged = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(text(logged)).toBe('Tool with logging executed successfully');
    await until('three log messages', () => (seen.logs.length >= 3 ? true : undefined));
    expect(seen.logs.map((l) => l.data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(seen.logs).toHaveLength(3); // info messages are now below the level the upstream applies
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: (p) => progress.push(p.progress), resetTimeoutOnProgress: true },
    );
    expect(text(result)).toBe('Tool with progress executed successfully');
    expect(progress).toEqual([0, 50, 100]);
  });

  it('routes sampling, elicitation and roots to the calling client; two clients with the same ids never cross', async () => {
    const [a, b] = await Promise.all([connect(kind, `alice-${kind}`), connect(kind, `bob-${kind}`)]);
    // Both sessions number their requests alike; both calls run on the upstream at once.
    const [fromA, fromB] = await Promise.all([
      a.client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } }),
      b.client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } }),
    ]);
    expect(text(fromA)).toBe(`LLM response: sampled by alice-${kind}`);
    expect(text(fromB)).toBe(`LLM response: sampled by bob-${kind}`);
    const [elicitA, elicitB] = await Promise.all([
      a.client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } }),
      b.client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } }),
    ]);
    expect(text(elicitA)).toContain(`"username":"alice-${kind}"`);
    expect(text(elicitB)).toContain(`"username":"bob-${kind}"`);
    const roots = await b.client.callTool({ name: 'test_roots', arguments: {} });
    expect(text(roots)).toBe(`Roots: [{"uri":"file:///bob-${kind}","name":"bob-${kind}"}]`);
  });

  it('cancels both ways: the upstream call when the client cancels or goes away mid-call, the client request when the server gives up', async () => {
    const { client } = await connect(kind, `cancel-${kind}`);
    const controller = new AbortController();
    const cancelled = client
      .callTool(
        { name: 'test_wait_for_cancellation', arguments: { marker: `abort-${kind}` } },
        { signal: controller.signal },
      )
      .catch((e: unknown) => e);
    await until('the upstream call to start', () =>
      recorded(kind).some((e) => e.event === 'started' && e.marker === `abort-${kind}`) ? true : undefined,
    );
    controller.abort('changed my mind');
    await cancelled;
    await until('the upstream to see notifications/cancelled', () =>
      recorded(kind).some((e) => e.event === 'cancelled' && e.marker === `abort-${kind}`) ? true : undefined,
    );

    // The other way: the server gives up its own request to the client, and the client is told.
    const asked = await connect(kind, `asked-${kind}`);
    let toldToStop: unknown;
    asked.client.setRequestHandler('elicitation/create', async (_request, ctx) => {
      await new Promise<void>((resolve) => ctx.mcpReq.signal.addEventListener('abort', () => resolve()));
      toldToStop = ctx.mcpReq.signal.reason;
      return { action: 'cancel' };
    });
    const gaveUp = await asked.client.callTool({ name: 'test_elicitation_gives_up', arguments: {} });
    expect(text(gaveUp)).toMatch(/^gave up: /);
    await until('the client to see notifications/cancelled', () =>
      toldToStop === undefined ? undefined : true,
    );

    const leaving = await connect(kind, `leaving-${kind}`);
    const running = leaving.client
      .callTool({ name: 'test_wait_for_cancellation', arguments: { marker: `gone-${kind}` } })
      .catch((e: unknown) => e);
    await until('the upstream call to start', () =>
      recorded(kind).some((e) => e.event === 'started' && e.marker === `gone-${kind}`) ? true : undefined,
    );
    // The client ends its session (DELETE) and goes, its call still running.
    await (leaving.client.transport as StreamableHTTPClientTransport).terminateSession();
    await leaving.client.close();
    await running;
    await until('the upstream to see notifications/cancelled', () =>
      recorded(kind).some((e) => e.event === 'cancelled' && e.marker === `gone-${kind}`) ? true : undefined,
    );
  });
});

describe('the MCP gateway over two upstreams', () => {
  it('pages through both upstreams with its own cursors and names colliding entries by the tool rule', async () => {
    const { client } = await connect('both', 'aggregate');
    const fixture =
      'The conformance fixture: every tool, resource and prompt the MCP conformance suite checks.';
    // Two upstreams with the same guidance: one heading for both, the text once.
    expect(client.getInstructions()).toMatch(
      /^This MCP server gathers the tools of 2 sources: one, two\. [^\n]+\n\n/,
    );
    expect(client.getInstructions()!.endsWith(`\n\n## one, two\n\n${fixture}`)).toBe(true);
    // Page by page (the SDK's listResources/listPrompts would walk every page themselves).
    const page = (method: 'resources/list' | 'prompts/list', cursor?: string) =>
      client.request({ method, params: cursor === undefined ? {} : { cursor } } as never) as Promise<{
        resources: { uri: string; name: string }[];
        prompts: { name: string }[];
        nextCursor?: string;
      }>;
    const first = await page('resources/list');
    expect(first.resources.map((r) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
    ]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await page('resources/list', first.nextCursor);
    expect(second.resources).toHaveLength(3);
    expect(second.nextCursor).toBeUndefined();
    // The second upstream's names are taken by the first: they get the hashed form (55 + _ + 8 hex).
    expect(second.resources[0]!.name).toMatch(/^static-text_[0-9a-f]{8}$/);

    const one = await page('prompts/list');
    expect(one.prompts.map((p) => p.name)).toContain('test_simple_prompt');
    const two = await page('prompts/list', one.nextCursor);
    expect(two.nextCursor).toBeUndefined();
    const renamed = two.prompts.find((p) => p.name.startsWith('test_simple_prompt_'))!.name;
    expect(renamed).toMatch(/^test_simple_prompt_[0-9a-f]{8}$/);
    const fromOne = await client.getPrompt({ name: 'test_simple_prompt' });
    const fromTwo = await client.getPrompt({ name: renamed });
    expect(fromOne.messages[0]!.content).toEqual({
      type: 'text',
      text: 'This is a simple prompt for testing. (one)',
    });
    expect(fromTwo.messages[0]!.content).toEqual({
      type: 'text',
      text: 'This is a simple prompt for testing. (two)',
    });
    const withArgs = two.prompts.find((p) => p.name.startsWith('test_prompt_with_arguments_'))!.name;
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: withArgs },
      argument: { name: 'arg1', value: 'pa' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);

    const { tools } = await client.listTools();
    const simple = tools.filter((t) => t.name.startsWith('test_simple_text')).map((t) => t.name);
    expect(simple).toHaveLength(2);
    const hashed = simple.find((name) => name !== 'test_simple_text')!;
    expect(hashed).toMatch(/^test_simple_text_[0-9a-f]{8}$/);
    const result = await client.callTool({ name: hashed, arguments: {} });
    expect(text(result)).toBe('This is a simple text response for testing.');

    const bad = await page('prompts/list', 'not-a-cursor').catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: -32602 });
  });
});

describe('the MCP gateway timeout (call_timeout_seconds: 2; test_long_progress: 20)', () => {
  it('lets a call that keeps reporting progress run past the timeout, and times out one that does not', async () => {
    const { client } = await connect('short', 'patient');
    const long = await client
      .callTool(
        { name: 'test_wait_for_cancellation', arguments: { marker: 'progress-less' } },
        { timeout: 60_000 },
      )
      .catch((e: unknown) => e);
    // No progress: the call ends at the 2 s timeout and the server is told to stop.
    expect(long).toMatchObject({ code: -32603, data: { xp_code: 'TIMEOUT' } });
    await until('the server to see the cancellation', () =>
      recorded('short').find((e) => e.event === 'cancelled' && e.marker === 'progress-less'),
    );
    // 30 reports, 100 ms apart: about 3 s, past the 2 s timeout, which each report restarts.
    const progress: number[] = [];
    const reported = await client.callTool(
      { name: 'test_long_progress', arguments: { reports: 30, intervalMs: 100 } },
      { onprogress: (p) => progress.push(p.progress), resetTimeoutOnProgress: true },
    );
    expect(text(reported)).toBe('reported 30 times');
    expect(progress).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it("keeps a tool's own timeout (mcp_sources[].timeouts.tools) through the gateway", async () => {
    const { client } = await connect('short', 'long-tool');
    // Without a progress token the server reports nothing; about 3 s, past the 2 s default,
    // within the tool's own 20 s.
    const silent = await client.callTool({
      name: 'test_long_progress',
      arguments: { reports: 30, intervalMs: 100 },
    });
    expect(text(silent)).toBe('reported 30 times');
  });

  it('does not time out a call while its client answers the server (a person thinking over an elicitation)', async () => {
    const { client } = await connect('short', 'thinker');
    client.setRequestHandler('elicitation/create', async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000)); // longer than the 2 s timeout
      return { action: 'accept', content: { username: 'thinker', email: 'thinker@example.com' } };
    });
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
    expect(text(result)).toContain('"username":"thinker"');
  });
});

describe('the MCP gateway behind a stdio face', () => {
  it('serves one client over stdin/stdout: sampling, logging and progress cross as over HTTP', async () => {
    const config = procs.file(
      'stdio-face.yml',
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${conformanceStdioBody()}
    xprotocol_namespace: com.test.conformance
access:
  grants: []
mcp_server:
  transport: stdio
  expose: [mcp_sources]
state_database: ./stdio-face-state.db
logging:
  level: warn
  format: json
`,
    );
    const logs: unknown[] = [];
    const client = new Client({ name: 'stdio-client', version: '0.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled over stdio' },
      model: 'test-model',
    }));
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params.data);
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ADAPTER_BIN, 'start', '--config', config],
      cwd: procs.dir,
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    // Progress as it arrives on stdout: the SDK client itself drops a report that shares a read
    // with the result it precedes (it does so against the fixture directly too).
    const wire: unknown[] = [];
    const dispatch = transport.onmessage!;
    transport.onmessage = (message) => {
      const m = message as { method?: string; params?: { progress?: number } };
      if (m.method === 'notifications/progress') wire.push(m.params?.progress);
      dispatch(message);
    };
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true }, prompts: {} });
    const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    expect(text(sampled)).toBe('LLM response: sampled over stdio');
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await until('three log messages', () => (logs.length >= 3 ? true : undefined));
    await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: () => {} });
    expect(wire).toEqual([0, 50, 100]);
  });
});
