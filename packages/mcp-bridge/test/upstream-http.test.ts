// UpstreamSession over Streamable HTTP and legacy SSE against the real server-everything
// (@modelcontextprotocol/server-everything, SDK v1 server) running as a child process on loopback.
import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { AddressPolicy } from '@xprotocol/relay-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BridgeError, UpstreamSession } from '../src/index.js';
import {
  type EverythingServer,
  type RecordingProxy,
  recordingLogger,
  startEverything,
  startRecordingProxy,
} from './support/http-servers.js';

const MODES = [
  { mode: 'streamableHttp', transport: 'streamable_http' },
  { mode: 'sse', transport: 'sse' },
] as const;

let servers: EverythingServer[] = [];
let sessions: UpstreamSession[] = [];
let proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(proxies.map((p) => p.close()));
  await Promise.all(servers.map((s) => s.kill()));
  servers = [];
  sessions = [];
  proxies = [];
});

async function everything(mode: 'streamableHttp' | 'sse', port = 0): Promise<EverythingServer> {
  const server = await startEverything(mode, port);
  servers.push(server);
  return server;
}

function session(options: ConstructorParameters<typeof UpstreamSession>[0]): UpstreamSession {
  const s = new UpstreamSession(options);
  sessions.push(s);
  return s;
}

async function rejection(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]?.text;

describe.each(MODES)('UpstreamSession over $transport (server-everything $mode)', ({ mode, transport }) => {
  // One server for the tests that leave it running; the fault tests start their own.
  let shared: EverythingServer;
  beforeAll(async () => {
    shared = await startEverything(mode);
  });
  afterAll(async () => {
    await shared.kill();
  });

  it('lists every tool and calls echo', async () => {
    const server = shared;
    const upstream = session({ name: 'everything', transport: { type: transport, url: server.url } });
    const tools = await upstream.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).toContain('get-sum');
    expect(names).toHaveLength(13);
    expect(upstream.serverInfo?.name).toBe('mcp-servers/everything');
    const echoed = await upstream.callTool('echo', { message: 'over the wire' }, { timeoutMs: 5000 });
    expect(text(echoed)).toBe('Echo: over the wire');
    const sum = await upstream.callTool('get-sum', { a: 2, b: 40 }, { timeoutMs: 5000 });
    expect(text(sum)).toMatch(/42/);
  });

  it('resolves a host name in the URL through the address policy: refused, or dialled at the checked address', async () => {
    // "mcp.test" is in no DNS: only the policy's resolver knows it, so reaching the server proves
    // the connection went to the address the policy checked.
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const url = shared.url.replace('127.0.0.1', 'mcp.test');
    const refused = session({
      name: 'named',
      transport: { type: transport, url, addressPolicy: new AddressPolicy({ resolve }) },
      minReconnectMs: 1,
    });
    const error = await rejection(refused.listTools());
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(/mcp\.test resolves to 127\.0\.0\.1 is a loopback address/);
    const allowed = session({
      name: 'named',
      transport: {
        type: transport,
        url,
        addressPolicy: new AddressPolicy({ resolve, allow: ['127.0.0.0/8'] }),
      },
    });
    expect((await allowed.listTools()).map((t) => t.name)).toContain('echo');
    expect(text(await allowed.callTool('echo', { message: 'pinned' }, { timeoutMs: 5000 }))).toBe(
      'Echo: pinned',
    );
  });

  it("returns the server's JSON-RPC error as UPSTREAM_ERROR and keeps the session", async () => {
    const server = shared;
    const upstream = session({ name: 'everything', transport: { type: transport, url: server.url } });
    await upstream.connect();
    // Arguments that are not an object fail the server's own request schema: a JSON-RPC error.
    const error = await rejection(
      upstream.callTool('echo', ['not', 'an', 'object'] as unknown as Record<string, unknown>, {
        timeoutMs: 5000,
      }),
    );
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toMatch(
      /^everything: tools\/call echo failed: the server answered JSON-RPC error -32603: /,
    );
    expect(error.message).toContain('expected record, received array');
    expect(upstream.connected).toBe(true);
    // A tool-level failure is a result with isError, not an error.
    const unknown = await upstream.callTool('no-such-tool', {}, { timeoutMs: 5000 });
    expect(unknown.isError).toBe(true);
    expect(text(await upstream.callTool('echo', { message: 'still here' }, { timeoutMs: 5000 }))).toBe(
      'Echo: still here',
    );
  });

  it('times a slow call out with UPSTREAM_TIMEOUT and keeps the session', async () => {
    const server = shared;
    const upstream = session({ name: 'everything', transport: { type: transport, url: server.url } });
    const error = await rejection(
      upstream.callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, { timeoutMs: 300 }),
    );
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.message).toMatch(/^everything: tools\/call trigger-long-running-operation timed out/);
    expect(upstream.connected).toBe(true);
    expect(text(await upstream.callTool('echo', { message: 'after' }, { timeoutMs: 5000 }))).toBe(
      'Echo: after',
    );
  });

  it('sends the bearer token on every request, POST and stream GET, and never logs it', async () => {
    const server = shared;
    const proxy = await startRecordingProxy(server.port);
    proxies.push(proxy);
    const token = `xp-test-${randomBytes(16).toString('hex')}`;
    const logger = recordingLogger();
    const path = new URL(server.url).pathname;
    const upstream = session({
      name: 'everything',
      transport: { type: transport, url: `http://127.0.0.1:${proxy.port}${path}`, bearerToken: token },
      logger,
      minReconnectMs: 50,
    });
    expect((await upstream.listTools()).length).toBe(13);
    expect(text(await upstream.callTool('echo', { message: 'authorized' }, { timeoutMs: 5000 }))).toBe(
      'Echo: authorized',
    );
    const jsonRpc = await rejection(
      upstream.callTool('echo', [1] as unknown as Record<string, unknown>, { timeoutMs: 5000 }),
    );
    expect(jsonRpc.code).toBe('UPSTREAM_ERROR');
    // A second session stays open for the outage below; closing the first ends its server session.
    const later = session({
      name: 'everything',
      transport: { type: transport, url: `http://127.0.0.1:${proxy.port}${path}`, bearerToken: token },
      logger,
      minReconnectMs: 50,
    });
    await later.connect();
    await upstream.close();

    const methods = new Set(proxy.requests.map((r) => r.method));
    expect(methods.has('POST')).toBe(true);
    expect(methods.has('GET')).toBe(true);
    // Streamable HTTP sessions are terminated with DELETE on close (legacy SSE has no such request).
    expect(methods.has('DELETE')).toBe(transport === 'streamable_http');
    expect(proxy.requests.length).toBeGreaterThanOrEqual(4);
    for (const request of proxy.requests) {
      expect(request.headers.authorization, `${request.method} ${request.path}`).toBe(`Bearer ${token}`);
    }

    // Take the server away: the failures must not carry the token either.
    await proxy.close();
    const down = await rejection(later.callTool('echo', { message: 'x' }, { timeoutMs: 5000 }));
    expect(down.code).toBe('UPSTREAM_UNAVAILABLE');
    const reconnect = await rejection(later.callTool('echo', { message: 'x' }, { timeoutMs: 5000 }));
    expect(reconnect.code).toBe('UPSTREAM_UNAVAILABLE');
    for (const error of [jsonRpc, down, reconnect]) expect(String(error)).not.toContain(token);
    expect(logger.entries.length).toBeGreaterThan(0);
    expect(JSON.stringify(logger.entries)).not.toContain(token);
  });

  it('reports a refused token as UPSTREAM_UNAVAILABLE naming the credentials, without the token', async () => {
    const proxy = await startRecordingProxy(shared.port, { requireToken: 'the-right-token' });
    proxies.push(proxy);
    const path = new URL(shared.url).pathname;
    const wrong = `xp-wrong-${randomBytes(8).toString('hex')}`;
    const logger = recordingLogger();
    const upstream = session({
      name: 'everything',
      transport: { type: transport, url: `http://127.0.0.1:${proxy.port}${path}`, bearerToken: wrong },
      logger,
    });
    const error = await rejection(upstream.listTools());
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(
      /^everything: cannot connect to the .*: the server refused the credentials \(HTTP 401\); check the bearer token \(auth\.token_env\)/,
    );
    expect(String(error)).not.toContain(wrong);
    expect(JSON.stringify(logger.entries)).not.toContain(wrong);
    expect(proxy.requests.length).toBeGreaterThan(0);
    expect(proxy.requests.every((r) => r.headers.authorization === `Bearer ${wrong}`)).toBe(true);
    // With the right token the same proxy lets the session through.
    const right = session({
      name: 'everything',
      transport: {
        type: transport,
        url: `http://127.0.0.1:${proxy.port}${path}`,
        bearerToken: 'the-right-token',
      },
    });
    expect((await right.listTools()).length).toBe(13);
  });

  it('fails with UPSTREAM_UNAVAILABLE while the server is down and reconnects after the backoff', async () => {
    const first = await everything(mode);
    const logger = recordingLogger();
    const upstream = session({
      name: 'everything',
      transport: { type: transport, url: first.url },
      minReconnectMs: 200,
      logger,
    });
    expect(text(await upstream.callTool('echo', { message: 'one' }, { timeoutMs: 5000 }))).toBe('Echo: one');

    await first.kill();
    // Depending on whether the lost stream is noticed before the next call, the session either
    // fails that call ("cannot be reached") and then fails to reconnect, or fails to reconnect at
    // once; either way a reconnect is tried once and then the backoff holds.
    const errors: BridgeError[] = [];
    for (let i = 0; i < 3; i++) {
      const error = await rejection(upstream.callTool('echo', { message: `down ${i}` }, { timeoutMs: 5000 }));
      errors.push(error);
      if (/next reconnect attempt in/.test(error.message)) break;
    }
    for (const error of errors) expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(upstream.connected).toBe(false);
    const refused = errors.filter((e) => e.message.includes('cannot connect'));
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toContain(`everything: cannot connect to the`);
    expect(refused[0]!.message).toContain(first.url);
    expect(refused[0]!.message).toMatch(/ECONNREFUSED/);
    // Within the backoff no attempt is made.
    expect(errors.at(-1)!.message).toMatch(
      /the server is down \(1 failed connection attempt\); next reconnect attempt in \d+ ms/,
    );
    if (errors.length === 3) {
      expect(errors[0]!.message).toMatch(/the server cannot be reached: .*(ECONNREFUSED|closed|terminated)/i);
    }

    await everything(mode, first.port);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(text(await upstream.callTool('echo', { message: 'back' }, { timeoutMs: 5000 }))).toBe(
      'Echo: back',
    );
    expect(upstream.connected).toBe(true);
    expect(logger.entries.filter((e) => e.message === 'upstream MCP session ready')).toHaveLength(2);
  });

  it('fails a call in flight with UPSTREAM_UNAVAILABLE when the server dies, without waiting for the timeout', async () => {
    const server = await everything(mode);
    const upstream = session({ name: 'everything', transport: { type: transport, url: server.url } });
    await upstream.connect();
    const call = rejection(
      upstream.callTool('trigger-long-running-operation', { duration: 20, steps: 2 }, { timeoutMs: 25_000 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.kill();
    const error = await call;
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(upstream.connected).toBe(false);
  });
});

it('a Streamable HTTP server restarted between calls: the stale session is replaced without a hang', async () => {
  const first = await everything('streamableHttp');
  const upstream = session({ name: 'everything', transport: { type: 'streamable_http', url: first.url } });
  expect(text(await upstream.callTool('echo', { message: 'before' }, { timeoutMs: 5000 }))).toBe(
    'Echo: before',
  );
  await first.kill();
  await everything('streamableHttp', first.port);
  // The new process does not know the old session id. If the session noticed its lost stream
  // already, this call opens a new session and succeeds; otherwise it fails (never re-sent)
  // with UPSTREAM_UNAVAILABLE. It never hangs and is never an UPSTREAM_ERROR.
  const outcome = await upstream.callTool('echo', { message: 'maybe' }, { timeoutMs: 5000 }).then(
    (result) => text(result),
    (error: unknown) => error,
  );
  if (typeof outcome === 'string') expect(outcome).toBe('Echo: maybe');
  else expect(outcome).toMatchObject({ name: 'BridgeError', code: 'UPSTREAM_UNAVAILABLE' });
  // ...and the next one initializes a new session at once (no failed connect, so no backoff).
  expect(text(await upstream.callTool('echo', { message: 'after' }, { timeoutMs: 5000 }))).toBe(
    'Echo: after',
  );
});

it('reports a server that was never up with UPSTREAM_UNAVAILABLE and the URL', async () => {
  // A loopback port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/mcp`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const upstream = session({ name: 'gone', transport: { type: 'streamable_http', url } });
  const error = await rejection(upstream.listTools());
  expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
  expect(error.message).toMatch(
    new RegExp(
      `^gone: cannot connect to the Streamable HTTP endpoint ${url.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`,
    ),
  );
});
