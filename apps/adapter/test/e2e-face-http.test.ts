// The HTTP MCP face held to its rules, against the built adapter bin in gateway mode (a real stdio
// MCP server behind it), with raw HTTP requests as an attacker or a broken client would send them
// (docs/security.md, "The HTTP face"): Origin compared exactly, and JSON-RPC per the session's
// protocol revision — no empty batch, no batch where the revision removed them, -32600 and -32700
// where each is due, no invalid UTF-8 or lone surrogate passed upstream, no request id reused while
// the first request is in flight.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, Processes } from './support/processes.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'security-server.mjs');
const procs = new Processes();
let port: number;
let effects: string;

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('face.key');
  port = await freePort();
  effects = join(procs.dir, 'effects.txt');
  const config = procs.file(
    'face.yml',
    `identity:
  key_file: ./face.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fixture
    transport: stdio
    command: "'${process.execPath}' '${FIXTURE}'"
    env:
      FIXTURE_EFFECTS_FILE: ${effects}
    xprotocol_namespace: com.test.face
mcp_server:
  transport: streamable_http
  port: ${port}
  expose: [mcp_sources]
  allowed_origins: [http://localhost:6274]
  max_requests_in_flight: 3
  max_result_bytes: 4096
state_database: ./face-state.db
logging:
  level: warn
  format: json
`,
  );
  await procs.adapter(config);
}, 90_000);
afterAll(async () => {
  await procs.close();
});

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One raw POST to the face. */
function post(body: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text, headers: response.headers }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The JSON-RPC messages of an answer: a JSON body, or the `data:` lines of an SSE stream. */
function messages(answer: Answer): Record<string, unknown>[] {
  const text = answer.text.trim();
  if (text.startsWith('{') || text.startsWith('[')) return [JSON.parse(text)].flat();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 6)
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
}

/** A raw session: initialize with `revision`, then `notifications/initialized`. */
async function session(revision: string): Promise<(body: string | Buffer) => Promise<Answer>> {
  const init = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  );
  expect(init.status).toBe(200);
  expect(messages(init)[0]).toMatchObject({ result: { protocolVersion: revision } });
  const headers = {
    'mcp-session-id': String(init.headers['mcp-session-id']),
    'mcp-protocol-version': revision,
  };
  expect((await post('{"jsonrpc":"2.0","method":"notifications/initialized"}', headers)).status).toBe(202);
  return (body) => post(body, headers);
}

const call = (id: number | string, name: string, args: string) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

const said = () => {
  try {
    return readFileSync(effects, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('Origin, compared as an origin', () => {
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'o', version: '0' } },
  });

  it.each([
    [
      `http://127.0.0.1:PORT/x`,
      'Forbidden: Invalid Origin: expected an origin (scheme://host[:port], nothing after it), got "http://127.0.0.1:PORT/x"',
    ],
    ['ftp://127.0.0.1', 'Forbidden: Invalid Origin: ftp://127.0.0.1 is not one of the allowed origins'],
    [
      'http://127.0.0.1:6274',
      'Forbidden: Invalid Origin: http://127.0.0.1:6274 is not one of the allowed origins',
    ],
    [
      'null',
      'Forbidden: Invalid Origin: expected an origin (scheme://host[:port], nothing after it), got "null"',
    ],
  ])('refuses %s with 403 and says why', async (origin, message) => {
    const answer = await post(init, { origin: origin.replace('PORT', String(port)) });
    expect(answer.status).toBe(403);
    const body = JSON.parse(answer.text) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message.startsWith(message.replace('PORT', String(port)))).toBe(true);
  });

  it('serves its own origin and the one listed in allowed_origins', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'http://localhost:6274']) {
      const answer = await post(init, { origin });
      expect(answer.status).toBe(200);
      expect(messages(answer)[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    }
  });
});

describe('JSON-RPC strictness on a 2025-11-25 session', () => {
  it('answers [] with -32600, not 202', async () => {
    const send = await session('2025-11-25');
    const answer = await send('[]');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          'Invalid Request: an empty batch ([]) holds no message; send a request, a notification or a response',
      },
    });
  }, 60_000);

  it('refuses a batch: the revision has none; nothing in it runs', async () => {
    const send = await session('2025-11-25');
    const before = said().length;
    const answer = await send(
      `[${call(1, 'say', '{"text":"batched"}')},${call(2, 'say', '{"text":"batched"}')}]`,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error).toEqual({
      code: -32600,
      message:
        'Invalid Request: this session speaks protocol revision 2025-11-25, which has no JSON-RPC batches (removed in 2025-06-18); send each message in its own request',
    });
    expect(said().length).toBe(before);
  }, 60_000);

  it('uses -32600 for JSON that is not a request, -32700 for what is not JSON', async () => {
    const send = await session('2025-11-25');
    const notRequest = await send('{"jsonrpc":"2.0","id":3}');
    expect(notRequest.status).toBe(400);
    expect(JSON.parse(notRequest.text)).toMatchObject({
      id: 3,
      error: { code: -32600, message: 'Invalid Request: a response has exactly one of result and error' },
    });
    const notJson = await send('{"jsonrpc":"2.0","id":4,');
    expect(JSON.parse(notJson.text)).toMatchObject({ id: null, error: { code: -32700 } });
  }, 60_000);

  it('refuses invalid UTF-8 (-32700) and a lone surrogate (-32600); neither reaches the server', async () => {
    const send = await session('2025-11-25');
    const before = said();
    const bad = Buffer.concat([
      Buffer.from(
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"say","arguments":{"text":"a',
      ),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}}}'),
    ]);
    const invalidUtf8 = await send(bad);
    expect(invalidUtf8.status).toBe(400);
    expect(JSON.parse(invalidUtf8.text).error.code).toBe(-32700);
    expect(JSON.parse(invalidUtf8.text).error.message).toMatch(/^Parse error: the body is not valid UTF-8/);
    const lone = await send(call(6, 'say', '{"text":"x\\ud800y"}'));
    expect(lone.status).toBe(400);
    expect(JSON.parse(lone.text)).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: {
        code: -32600,
        message:
          'Invalid Request: the string at /params/arguments/text holds a lone surrogate (\\ud800), which is not Unicode text',
      },
    });
    // A well-formed call on the same session still goes through, and is the only thing recorded.
    const good = await send(call(7, 'say', '{"text":"fine 😀"}'));
    expect(messages(good)[0]).toMatchObject({
      id: 7,
      result: { content: [{ type: 'text', text: 'fine 😀' }] },
    });
    expect(said().slice(before.length)).toEqual(['said "fine 😀"']);
  }, 60_000);

  it('refuses a request id in flight; the first request still gets its answer, and runs once', async () => {
    const send = await session('2025-11-25');
    const first = send(call(42, 'sleep', '{"ms":1500}'));
    // Wait until the first request runs on the server before reusing its id.
    while (!said().includes('sleeping 1500')) await new Promise((resolve) => setTimeout(resolve, 50));
    const reused = await send(call(42, 'say', '{"text":"reused"}'));
    expect(reused.status).toBe(400);
    expect(JSON.parse(reused.text)).toEqual({
      jsonrpc: '2.0',
      id: 42,
      error: {
        code: -32600,
        message:
          'Invalid Request: the request id 42 is already in use by a request in flight in this session; use a new id',
      },
    });
    const answer = await first;
    expect(messages(answer).find((m) => m.id === 42)).toMatchObject({
      result: { content: [{ type: 'text', text: 'slept 1500 ms' }] },
    });
    expect(said()).not.toContain('said "reused"');
    // Answered: the id is free again.
    const again = await send(call(42, 'echo', '{"value":1}'));
    expect(messages(again)[0]).toMatchObject({
      id: 42,
      result: { content: [{ type: 'text', text: 'number' }] },
    });
  }, 60_000);
});

describe('named limits: requests in flight per session, result size', () => {
  it('answers 429 past max_requests_in_flight, and takes requests again once some are answered', async () => {
    const send = await session('2025-11-25');
    const running = [1, 2, 3].map((id) => send(call(`slow-${id}`, 'sleep', '{"ms":1600}')));
    while (said().filter((line) => line === 'sleeping 1600').length < 3)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const fourth = await send(call('fourth', 'echo', '{"value":1}'));
    expect(fourth.status).toBe(429);
    expect(fourth.headers['retry-after']).toBe('1');
    expect(JSON.parse(fourth.text)).toMatchObject({
      id: 'fourth',
      error: { code: -32600, data: { xp_code: 'RATE_LIMITED' } },
    });
    expect(JSON.parse(fourth.text).error.message).toContain('at most 3 (mcp_server.max_requests_in_flight)');
    await Promise.all(running);
    const after = await send(call('after', 'echo', '{"value":1}'));
    expect(messages(after)[0]).toMatchObject({
      id: 'after',
      result: { content: [{ type: 'text', text: 'number' }] },
    });
  }, 60_000);

  it('replaces a result over max_result_bytes by an error that says its size and the limit', async () => {
    const send = await session('2025-11-25');
    const big = await send(call('big', 'say', JSON.stringify({ text: 'x'.repeat(5000) })));
    expect(messages(big)[0]).toMatchObject({
      id: 'big',
      error: { code: -32603, data: { xp_code: 'TOO_LARGE', limit: 4096 } },
    });
    const small = await send(call('small', 'say', '{"text":"fits"}'));
    expect(messages(small)[0]).toMatchObject({
      id: 'small',
      result: { content: [{ type: 'text', text: 'fits' }] },
    });
  }, 60_000);
});

describe('cancellation from the client', () => {
  it('an explicit notifications/cancelled reaches the upstream server, and frees the request id', async () => {
    const send = await session('2025-11-25');
    // The cancelled request gets no answer: its stream ends when the adapter stops.
    void send(call(77, 'sleep', '{"ms":30000}')).catch(() => {});
    while (!said().includes('sleeping 30000')) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await send(call(77, 'echo', '{"value":1}'))).status).toBe(400); // still in flight
    const cancel = await send(
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77,"reason":"changed my mind"}}',
    );
    expect(cancel.status).toBe(202);
    while (!said().includes('cancelled 30000')) await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await send(call(77, 'echo', '{"value":"x"}'));
    expect(messages(again)[0]).toMatchObject({
      id: 77,
      result: { content: [{ type: 'text', text: 'string' }] },
    });
  }, 60_000);
});

describe('a 2025-03-26 session', () => {
  it('still runs a batch (that revision has them), answering each request', async () => {
    const send = await session('2025-03-26');
    const answer = await send(`[${call(1, 'echo', '{"value":"a"}')},${call(2, 'echo', '{"value":[1]}')}]`);
    expect(answer.status).toBe(200);
    const byId = new Map(messages(answer).map((m) => [m.id, m]));
    expect(byId.get(1)).toMatchObject({ result: { content: [{ type: 'text', text: 'string' }] } });
    expect(byId.get(2)).toMatchObject({ result: { content: [{ type: 'text', text: 'array' }] } });
    expect((await send('[]')).status).toBe(400);
  }, 60_000);
});
