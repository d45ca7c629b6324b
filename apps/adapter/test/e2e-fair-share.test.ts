// Fair shares between principals on the HTTP face (docs/security.md, "Fair shares between
// principals"), end to end: the built adapter bin in gateway mode in front of real stdio MCP
// servers, a real OAuth authorization server on loopback (each subject one principal), and raw
// HTTP requests that keep the statuses and headers. The attacks of one principal, scaled down with
// small caps: filling its sessions does not end another principal's session nor keep it from
// opening one; its waiting leases and its upstream processes do not refuse another; a new session
// or the 2026-07-28 leg brings it no new rate-limit budget; the 2026-07-28 leg is held to the cap
// on requests in flight.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfig } from './support/adapter-configs.js';
import { CONFORMANCE_FIXTURE, freePort, Processes } from './support/processes.js';

const AUTHORIZATION_SERVER = join(import.meta.dirname, 'fixtures', 'servers', 'authorization-server.mjs');
const SECURITY_SERVER = join(import.meta.dirname, 'fixtures', 'servers', 'security-server.mjs');
const SUBJECTS = ['alice', 'bob', 'carol', 'dave', 'erin'] as const;
type Subject = (typeof SUBJECTS)[number];

const procs = new Processes();
const clients: Client[] = [];
/** Requests left open by a test (a call kept running), aborted at the end. */
const open: AbortController[] = [];
let relayUrl = '';
let issuer = '';

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  await procs.keygen('a.key');
  const accounts = procs.file(
    'clients.json',
    JSON.stringify(
      SUBJECTS.map((subject) => ({ id: subject, secret: `${subject}-secret`, subject, scopes: ['mcp'] })),
    ),
  );
  issuer = (await procs.node(AUTHORIZATION_SERVER, [accounts])).firstLine;
}, 60_000);

afterAll(async () => {
  for (const request of open) request.abort();
  await Promise.allSettled(clients.map((client) => client.close()));
  await procs.close();
});

/** A face in gateway mode with OAuth, in front of the conformance fixture (and `extraSources`); its URL and its fixture's event log. */
async function startFace(
  name: string,
  limits: string,
  extraSources: { name: string; body: string; namespace: string }[] = [],
): Promise<{ url: string; events: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const events = join(procs.dir, `${name}-events.jsonl`);
  await procs.adapter(
    procs.file(
      `${name}.yml`,
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'conformance',
            body: `    transport: stdio
    command: ["${process.execPath}", "${CONFORMANCE_FIXTURE}", "stdio"]
    env:
      XP_FIXTURE_EVENTS: "${events}"`,
            namespace: 'com.test.conformance',
          },
          ...extraSources,
        ],
        face: { port },
        serverExtra: `  oauth:
    issuer: ${issuer}
    resource: ${url}
    required_scopes: [mcp]
    grants:
${SUBJECTS.map((subject) => `      - subject: ${subject}\n        capabilities: ["*"]`).join('\n')}
${limits}`,
        stateDatabase: `./${name}.db`,
      }),
    ),
  );
  return { url, events };
}

/** A token of `subject` for the face at `url`. */
async function token(url: string, subject: Subject): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: subject,
      client_secret: `${subject}-secret`,
      resource: url,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** What a raw request got back. */
interface Answer {
  status: number;
  retryAfter: string | null;
  session: string | null;
  body: string;
}

/** One principal speaking raw Streamable HTTP to the face: its sessions and its 2026-07-28 requests. */
async function principal(url: string, subject: Subject) {
  const bearer = await token(url, subject);
  let ids = 100;
  const post = async (
    headers: Record<string, string>,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<Answer & { response: Response }> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${bearer}`,
        ...headers,
      },
      body: JSON.stringify(body),
      ...(signal && { signal }),
    });
    return {
      response,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      session: response.headers.get('mcp-session-id'),
      body: '',
    };
  };
  const read = async (sent: Promise<Answer & { response: Response }>): Promise<Answer> => {
    const { response, ...answer } = await sent;
    return { ...answer, body: await response.text() };
  };
  const inSession = (session: string) => ({
    'mcp-session-id': session,
    'mcp-protocol-version': '2025-11-25',
  });
  return {
    /** `initialize`, then `notifications/initialized` when a session was made. */
    async initialize(): Promise<Answer> {
      const answer = await read(
        post(
          {},
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: subject, version: '0' },
            },
          },
        ),
      );
      if (answer.session)
        await read(post(inSession(answer.session), { jsonrpc: '2.0', method: 'notifications/initialized' }));
      return answer;
    },
    /** A request in the session; its whole answer. */
    request(session: string, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
      return read(post(inSession(session), { jsonrpc: '2.0', id: ++ids, method, params }));
    },
    /**
     * Sends a `tools/call` in the session and leaves it running (its answer is never read; the
     * test waits for the server's own log that it started); its id, to cancel it.
     */
    startCall(session: string, name: string, args: Record<string, unknown>): number {
      const id = ++ids;
      const abort = new AbortController();
      open.push(abort);
      post(
        inSession(session),
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
        abort.signal,
      ).catch(() => {});
      return id;
    },
    /** The client cancels request `id` of the session. */
    async cancel(session: string, id: number): Promise<void> {
      const answer = await read(
        post(inSession(session), {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'done waiting' },
        }),
      );
      expect(answer.status).toBe(202);
    },
    /**
     * A 2026-07-28 `tools/call` (no session): its whole answer; with `running`, sent and left
     * running instead (its answer is never read) until the controller aborts it.
     */
    modernCall(name: string, args: Record<string, unknown>, running?: AbortController): Promise<Answer> {
      const sent = post(
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
        {
          jsonrpc: '2.0',
          id: ++ids,
          method: 'tools/call',
          params: {
            name,
            arguments: args,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        running?.signal,
      );
      if (!running) return read(sent);
      open.push(running);
      sent.catch(() => {});
      return Promise.resolve({ status: 0, retryAfter: null, session: null, body: 'left running' });
    },
  };
}

/** The JSON-RPC error of an answer (a JSON body, or the one message of an SSE stream). */
function errorOf(
  answer: Answer,
): { code: number; message: string; data?: Record<string, unknown> } | undefined {
  const text = answer.body.trim();
  // An SSE stream may open with a priming event whose data is empty.
  const json = text.startsWith('{') ? text : /^data: (\{.*)$/m.exec(text)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as { error?: never }).error;
}

/** The fixture's events so far, as `<event> <marker>`. */
function eventsOf(file: string): string[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { event, marker } = JSON.parse(line) as { event: string; marker: string };
        return `${event} ${marker}`;
      });
  } catch {
    return [];
  }
}

/** Waits (bounded: a hang fails the test) until the fixture logged `wanted`. */
async function eventLogged(file: string, wanted: string): Promise<void> {
  for (let waited = 0; !eventsOf(file).includes(wanted); waited += 50) {
    if (waited > 30_000)
      throw new Error(`the fixture never logged ${wanted}; it logged ${eventsOf(file).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('sessions: a cap per principal under a ceiling for all, and no principal ends another one’s session', () => {
  // max_sessions 4: each OAuth principal may hold a quarter of it, one session.
  let face: { url: string; events: string };
  beforeAll(async () => {
    face = await startFace('sessions', '  max_sessions: 4');
  }, 120_000);

  it('a principal whose sessions are all busy is refused 429; another principal keeps its session and opens one', async () => {
    const alice = await principal(face.url, 'alice');
    const bob = await principal(face.url, 'bob');
    const bobs = await bob.initialize();
    expect(bobs.status).toBe(200);
    const alices = await alice.initialize();
    expect(alices.status).toBe(200);
    const running = alice.startCall(alices.session!, 'test_wait_for_cancellation', { marker: 'alice-1' });
    await eventLogged(face.events, 'started alice-1');

    // Alice's only session is busy: her next one is refused, not made by ending anyone's.
    const refused = await alice.initialize();
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('5');
    expect(refused.session).toBeNull();
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32600,
        message:
          'too many MCP sessions for this principal: it holds 1, at most 1 (mcp_server.max_sessions_per_principal); each of them has a request in flight; end one (DELETE with its Mcp-Session-Id) or retry in 5 s',
        data: { xp_code: 'RATE_LIMITED', retry_after: 5 },
      },
    });
    expect((await bob.request(bobs.session!, 'ping')).status).toBe(200);

    // Once her call is over, her next session ends her own idle one; Bob's lives on.
    await alice.cancel(alices.session!, running);
    await eventLogged(face.events, 'cancelled alice-1');
    const again = await alice.initialize();
    expect(again.status).toBe(200);
    expect((await alice.request(alices.session!, 'ping')).status).toBe(404);
    expect((await alice.request(again.session!, 'ping')).status).toBe(200);
    expect((await bob.request(bobs.session!, 'ping')).status).toBe(200);
  }, 120_000);

  it('a principal opening session after session never ends another principal’s (the oldest once did)', async () => {
    const alice = await principal(face.url, 'alice');
    const carol = await principal(face.url, 'carol');
    const carols = await carol.initialize();
    expect(carols.status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await alice.initialize()).status).toBe(200);
    expect((await carol.request(carols.session!, 'ping')).status).toBe(200);
  }, 120_000);

  it('a principal with no session of its own, at the ceiling, is refused 503 and ends none', async () => {
    const dave = await principal(face.url, 'dave');
    const daves = await dave.initialize();
    expect(daves.status).toBe(200);
    // alice, bob, carol and dave hold one session each: the face holds its 4.
    const erin = await principal(face.url, 'erin');
    const refused = await erin.initialize();
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('5');
    expect(errorOf(refused)).toMatchObject({
      code: -32600,
      message: expect.stringContaining(
        'too many MCP sessions on this MCP face: all principals together hold 4, at most 4 (mcp_server.max_sessions)',
      ),
      data: { xp_code: 'RATE_LIMITED', retry_after: 5 },
    });
    expect((await dave.request(daves.session!, 'ping')).status).toBe(200);
  }, 120_000);
});

describe('rate limits per principal and source, and the 2026-07-28 leg under the cap on requests in flight', () => {
  let face: { url: string; events: string };
  beforeAll(async () => {
    face = await startFace('rates', '  max_requests_in_flight: 2', [
      {
        name: 'limited',
        body: `    transport: stdio
    command: ["${process.execPath}", "${SECURITY_SERVER}"]
    rate_limit:
      requests_per_minute: 2`,
        namespace: 'com.test.limited',
      },
    ]);
  }, 120_000);

  it("a new session, or a 2026-07-28 request, does not refill a principal's bucket; another principal has its own", async () => {
    const alice = await principal(face.url, 'alice');
    const first = (await alice.initialize()).session!;
    const say = (session: string, text: string) =>
      alice.request(session, 'tools/call', { name: 'say', arguments: { text } });
    expect((await say(first, 'one')).status).toBe(200);
    expect((await say(first, 'two')).status).toBe(200);
    const third = await say(first, 'three');
    expect(third.status).toBe(429);
    expect(errorOf(third)?.data?.xp_message).toContain('(2 requests per minute per principal)');

    // A fresh session starts with the same, empty, bucket.
    const fresh = (await alice.initialize()).session!;
    const inFresh = await say(fresh, 'four');
    expect(inFresh.status).toBe(429);
    expect(errorOf(inFresh)).toMatchObject({ code: -32600, data: { xp_code: 'RATE_LIMITED' } });
    const modern = await alice.modernCall('say', { text: 'five' });
    expect(modern.status).toBe(429);
    expect(errorOf(modern)).toMatchObject({ code: -32600, data: { xp_code: 'RATE_LIMITED' } });

    const bob = await principal(face.url, 'bob');
    const bobs = (await bob.initialize()).session!;
    const his = await bob.request(bobs, 'tools/call', { name: 'say', arguments: { text: 'bob' } });
    expect(his.status).toBe(200);
    expect(errorOf(his)).toBeUndefined();
  }, 120_000);

  it('refuses a 2026-07-28 call past max_requests_in_flight with 429; another principal is not held back', async () => {
    const alice = await principal(face.url, 'alice');
    const running = [new AbortController(), new AbortController()];
    for (const [i, abort] of running.entries()) {
      await alice.modernCall('test_wait_for_cancellation', { marker: `modern-${i}` }, abort);
      await eventLogged(face.events, `started modern-${i}`);
    }
    const third = await alice.modernCall('test_wait_for_cancellation', { marker: 'modern-2' });
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1');
    expect(errorOf(third)).toEqual({
      code: -32600,
      message:
        'too many 2026-07-28 requests in flight for this principal: 2 running, at most 2 (mcp_server.max_requests_in_flight); send more when some are answered',
      data: { xp_code: 'RATE_LIMITED', retry_after: 1 },
    });
    expect(eventsOf(face.events)).not.toContain('started modern-2');

    const bob = await principal(face.url, 'bob');
    const his = await bob.modernCall('test_simple_text', {});
    expect(his.status).toBe(200);
    expect(his.body).toContain('This is a simple text response for testing.');

    // Closing a call's request cancels it; the principal may send another.
    for (const abort of running) abort.abort();
    await eventLogged(face.events, 'cancelled modern-0');
    await eventLogged(face.events, 'cancelled modern-1');
    const after = await alice.modernCall('test_simple_text', {});
    expect(after.status).toBe(200);
    expect(after.body).toContain('This is a simple text response for testing.');
  }, 120_000);
});

describe('leases, upstream processes and requests in flight: per principal under a ceiling', () => {
  let face: { url: string; events: string };
  beforeAll(async () => {
    face = await startFace(
      'shares',
      `  max_leases: 3
  max_leases_per_principal: 2
  max_upstream_processes: 10
  max_upstream_processes_per_principal: 2
  max_requests_in_flight_per_principal: 2`,
    );
  }, 120_000);

  /** A 2026-07-28 SDK client of `subject` that answers input requests itself. */
  async function askable(subject: Subject) {
    const client = new Client(
      { name: subject, version: '0' },
      {
        capabilities: { elicitation: {} },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(face.url), {
        requestInit: { headers: { authorization: `Bearer ${await token(face.url, subject)}` } },
      }),
    );
    clients.push(client);
    return (extra: Record<string, unknown> = {}) =>
      client.request(
        {
          method: 'tools/call',
          params: { name: 'test_elicitation', arguments: { message: 'Name?' }, ...extra },
        },
        { allowInputRequired: true },
      ) as Promise<Record<string, unknown>>;
  }

  it("one principal's waiting leases do not refuse another's; over its share, or the ceiling, a call is refused", async () => {
    const alice = await askable('alice');
    const asked = [await alice(), await alice()];
    for (const round of asked) expect(round.resultType).toBe('input_required');
    await expect(alice()).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining(
        'too many leases (2026-07-28 calls that may ask their client for input, each with its own session upstream) for this principal: it holds 2, at most 2 (mcp_server.max_leases_per_principal)',
      ),
      data: { xp_code: 'RATE_LIMITED', retry_after: 5 },
    });
    const bob = await askable('bob');
    expect((await bob()).resultType).toBe('input_required');
    // Three leases wait: the face's ceiling.
    const carol = await askable('carol');
    await expect(carol()).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('all principals together hold 3, at most 3 (mcp_server.max_leases)'),
    });
    // Alice answers one: its lease ends, and she may start another.
    const first = asked[0]!;
    const key = Object.keys(first.inputRequests as object)[0]!;
    const done = await alice({
      inputResponses: { [key]: { action: 'decline' } },
      requestState: first.requestState,
    });
    expect((done.content as { text: string }[])[0]?.text).toBe('User response: {"action":"decline"}');
    expect((await alice()).resultType).toBe('input_required');
  }, 120_000);

  it("a principal's sessions take at most its share of a stdio source's processes; another principal still gets one", async () => {
    // In gateway mode each session runs its own process of a stdio source, started by its first call there.
    const carol = await principal(face.url, 'carol');
    const call = async () =>
      carol.request((await carol.initialize()).session!, 'tools/call', {
        name: 'test_simple_text',
        arguments: {},
      });
    for (let i = 0; i < 2; i++) expect(errorOf(await call())).toBeUndefined();
    const refused = await call();
    expect(errorOf(refused)).toEqual({
      code: -32600,
      message:
        'too many upstream processes of conformance for this principal: it holds 2, at most 2 (mcp_server.max_upstream_processes_per_principal); end an MCP session you no longer use (each runs its own), or retry in 5 s',
      data: { xp_code: 'RATE_LIMITED', retry_after: 5 },
    });
    const dave = await principal(face.url, 'dave');
    const daves = (await dave.initialize()).session!;
    const his = await dave.request(daves, 'tools/call', { name: 'test_simple_text', arguments: {} });
    expect(errorOf(his)).toBeUndefined();
    expect(his.body).toContain('This is a simple text response for testing.');
  }, 120_000);

  it("a principal's requests in flight are counted across its sessions and the 2026-07-28 leg", async () => {
    const erin = await principal(face.url, 'erin');
    const one = (await erin.initialize()).session!;
    const two = (await erin.initialize()).session!;
    erin.startCall(one, 'test_wait_for_cancellation', { marker: 'erin-1' });
    await eventLogged(face.events, 'started erin-1');
    const running = new AbortController();
    await erin.modernCall('test_wait_for_cancellation', { marker: 'erin-2' }, running);
    await eventLogged(face.events, 'started erin-2');
    const third = await erin.request(two, 'tools/call', { name: 'test_simple_text', arguments: {} });
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1');
    expect(errorOf(third)).toMatchObject({
      code: -32600,
      message:
        'too many requests in flight for this principal: it holds 2, at most 2 (mcp_server.max_requests_in_flight_per_principal); send more when some are answered',
    });
    running.abort();
    await eventLogged(face.events, 'cancelled erin-2');
    const after = await erin.request(two, 'tools/call', { name: 'test_simple_text', arguments: {} });
    expect(after.status).toBe(200);
  }, 120_000);
});
