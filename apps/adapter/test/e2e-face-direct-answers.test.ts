// How the HTTP face answers a session's tools/call (docs/performance.md, "What the profiles
// showed"): as application/json when the result comes first and within the JSON window; as a resumable SSE
// stream (priming event, ids, Last-Event-ID) when the upstream sends something for the call before
// its result, or when the call outlasts the window; through the SDK transport's stream when the
// call asks for progress. Raw HTTP against an adapter in gateway mode with the conformance fixture
// as its stdio upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, gatewayConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const procs = new Processes();
let face = '';

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('a.key');
  const port = await freePort();
  await procs.adapter(
    procs.file(
      'direct.yml',
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'conformance',
            namespace: 'com.test.conformance',
            body: conformanceStdioBody(),
          },
        ],
        face: { port },
        stateDatabase: './direct-state.db',
      }),
    ),
  );
  face = `http://127.0.0.1:${port}/mcp`;
}, 120_000);
afterAll(() => procs.close());

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** One raw POST of `message` in session `session` (none for `initialize`). */
async function post(message: unknown, session?: string, headers: Record<string, string> = {}) {
  const response = await fetch(face, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
      ...headers,
    },
    body: JSON.stringify(message),
  });
  const answer: Answer = {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
  };
  return { answer, session: response.headers.get('mcp-session-id') ?? session };
}

/** A new 2025-11-25 session, initialized. */
async function session(): Promise<string> {
  const { answer, session: id } = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  expect(answer.status).toBe(200);
  expect(id).toBeTruthy();
  const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, id!);
  expect(initialized.answer.status).toBe(202);
  // The session's first call opens its link (a new upstream child), which may take longer than the
  // JSON window: that call may stream; the tests below look at the calls after it.
  const first = await post(call(1_000, 'test_simple_text'), id!);
  expect(first.answer.status).toBe(200);
  return id!;
}

/** The JSON-RPC messages of an SSE body, in order (the priming event has no data). */
function events(body: string): { id?: string; message: Record<string, unknown> }[] {
  return body
    .split('\n\n')
    .map((block) => {
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      return data === undefined ? undefined : { ...(id !== undefined && { id }), message: JSON.parse(data) };
    })
    .filter((event) => event !== undefined);
}

const call = (
  id: number,
  name: string,
  meta?: Record<string, unknown>,
  args: Record<string, unknown> = {},
) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta && { _meta: meta }) },
});

describe('the HTTP face answers a tools/call', () => {
  it('as application/json when nothing precedes the result, with the session header', async () => {
    const id = await session();
    const response = await fetch(face, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
      body: JSON.stringify(call(1, 'test_simple_text')),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBe(id);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
    });
    // An error answer (the face's own, for an unknown tool) comes back as JSON too.
    const unknown = await post(call(2, 'no_such_tool'), id);
    expect(unknown.answer.type).toBe('application/json');
    expect(JSON.parse(unknown.answer.body)).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('as an SSE stream when the upstream logs before the result: the log messages first, then the result', async () => {
    const id = await session();
    const level = await post(
      { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } },
      id,
    );
    expect(level.answer.status).toBe(200);
    const { answer } = await post(call(2, 'test_tool_with_logging'), id);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('text/event-stream');
    const messages = events(answer.body).map((event) => event.message);
    expect(messages.map((m) => m.method ?? `result ${m.id}`)).toEqual([
      'notifications/message',
      'notifications/message',
      'notifications/message',
      'result 2',
    ]);
    expect(messages.slice(0, 3).map((m) => (m.params as { data: unknown }).data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    expect(messages[3]).toMatchObject({
      result: { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] },
    });
  });

  it('on the resumable SSE stream (a priming event id) when it asks for progress', async () => {
    const id = await session();
    const { answer } = await post(call(1, 'test_tool_with_progress', { progressToken: 'p1' }), id);
    expect(answer.type).toBe('text/event-stream');
    expect(answer.body).toMatch(/^id: \S+\nretry: \d+\ndata: \n\n/);
    const messages = events(answer.body);
    expect(messages.map((e) => (e.message.params as { progress?: number } | undefined)?.progress)).toEqual([
      0,
      50,
      100,
      undefined,
    ]);
    // Each event has an id a client resumes from (Last-Event-ID).
    expect(messages.every((e) => e.id !== undefined)).toBe(true);
    expect(messages[3]!.message).toMatchObject({ id: 1, result: {} });
  });

  it('as a resumable stream when the result takes longer than the JSON window', async () => {
    const id = await session();
    const slow = { reports: 3, intervalMs: 300 };
    const { answer } = await post(call(1, 'test_long_progress', undefined, slow), id);
    expect(answer.type).toBe('text/event-stream');
    expect(answer.body).toMatch(/^id: direct-\S+\nretry: 1000\ndata: \n\n/);
    const [result] = events(answer.body);
    expect(result?.id).toMatch(/^direct-/);
    expect(result?.message).toMatchObject({ id: 1, result: { content: [{ text: 'reported 3 times' }] } });
  });

  it('resumes a dropped stream with Last-Event-ID: the result still reaches the client', async () => {
    const id = await session();
    const abort = new AbortController();
    const response = await fetch(face, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
      body: JSON.stringify(call(1, 'test_long_progress', undefined, { reports: 4, intervalMs: 400 })),
      signal: abort.signal,
    });
    // Read until the priming event, then drop the connection.
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('data: \n\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    const primingId = /^id: (\S+)$/m.exec(seen)?.[1];
    expect(primingId).toMatch(/^direct-/);
    abort.abort();
    const resumed = await fetch(face, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': primingId!,
      },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toBe('text/event-stream');
    const replayed = events(await resumed.text());
    expect(replayed.map((event) => event.message)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'reported 4 times' }] } },
    ]);
  });

  it('ends a call still waiting when its session ends (DELETE): 404 within the JSON window, else its stream ends', async () => {
    const id = await session();
    const waiting = post(call(1, 'test_wait_for_cancellation', undefined, { marker: 'direct-delete' }), id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const deleted = await fetch(face, {
      method: 'DELETE',
      headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(deleted.status).toBe(200);
    const { answer } = await waiting;
    if (answer.status === 404) {
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32001 } });
    } else {
      // The call had become a stream (a loaded machine): the stream ends with no result.
      expect(answer.type).toBe('text/event-stream');
      expect(events(answer.body)).toEqual([]);
    }
  });

  it('keeps the transport checks: a wrong Accept is 406 and another revision header is refused', async () => {
    const id = await session();
    const accept = await post(call(1, 'test_simple_text'), id, { accept: 'application/json' });
    expect(accept.answer.status).toBe(406);
    const version = await post(call(2, 'test_simple_text'), id, { 'mcp-protocol-version': '1999-01-01' });
    expect(version.answer.status).toBe(400);
    expect(version.answer.body).toContain('Unsupported protocol version');
    // The session still answers afterwards.
    const ok = await post(call(3, 'test_simple_text'), id);
    expect(ok.answer.type).toBe('application/json');
  });
});
