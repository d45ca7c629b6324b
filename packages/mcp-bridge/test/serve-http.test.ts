// The MCP face served over Streamable HTTP: a real SDK v2 client over HTTP lists and calls the
// tools of an XProtocol endpoint (relay on loopback, filesystem MCP server behind it), and raw
// requests prove the Host/Origin checks, the path and the bind address.
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Announcer, McpFace, type McpFaceServer, StateDatabase, serveMcpFace } from '../src/index.js';
import { testAnnouncePayload } from './support/announce.js';
import { recordingLogger } from './support/http-servers.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
let face: McpFace;
let served: McpFaceServer;
const logger = recordingLogger();
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startStack();
  const announcer = new Announcer({
    pool: stack.adapterPool,
    identity: stack.adapter,
    payload: () => testAnnouncePayload(stack.adapter, [stack.relay.url], 'B'),
    signatures: nodeSignatures,
  });
  await announcer.publish();
  face = new McpFace({
    caller: stack.caller,
    state: new StateDatabase(':memory:'),
    sources: [
      { name: 'fs', key: stack.adapter.keys.ed25519, label: 'xp-test', prefix: 'fs_', schemaFilter: [] },
    ],
    callTimeoutMs: 10_000,
    sha256: nodeCipher.sha256,
    serverInfo: { name: 'face-http-test', version: '0.0.0' },
  });
  served = await serveMcpFace(face, { transport: 'streamable_http', port: 0 }, logger);
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await served?.close();
  await stack?.close();
});

async function connectClient(url = served.url): Promise<Client> {
  const client = new Client({ name: 'http-test-client', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

interface RawResponse {
  status: number;
  body: string;
  authenticate?: string | undefined;
}

/** A raw POST of an `initialize` with the given headers (Host and Origin set by hand). */
function rawInitialize(
  path: string,
  headers: Record<string, string>,
  rawBody?: string,
  base = served.url,
): Promise<RawResponse> {
  const url = new URL(base);
  const body =
    rawBody ??
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
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
          resolve({
            status: response.statusCode ?? 0,
            body: text,
            authenticate: response.headers['www-authenticate'],
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('the MCP face over Streamable HTTP', () => {
  it('binds 127.0.0.1 by default and reports the real port of port 0 in its URL', () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(Number(new URL(served.url).port)).toBeGreaterThan(0);
  });

  it('lists the endpoint tools and calls one through the relay for an SDK client over HTTP', async () => {
    const client = await connectClient();
    expect(client.getServerVersion()?.name).toBe('face-http-test');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('fs_read_text_file');
    // The endpoint's 14 filesystem tools, prefixed (the face may add tools of its own).
    expect(names.filter((n) => n.startsWith('fs_'))).toHaveLength(14);
    const before = stack.upstreamCalls();
    const result = await client.callTool({
      name: 'fs_read_text_file',
      arguments: { path: `${stack.dir}/hello.txt` },
    });
    expect(result.isError).not.toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toBe('hello from the filesystem\n');
    expect(stack.upstreamCalls()).toBe(before + 1);
    // The error channels cross HTTP unchanged: an unknown tool is InvalidParams.
    const unknown = await client.callTool({ name: 'fs_nope', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32602 });
  });

  it('serves several clients at once, each in its own session', async () => {
    const first = await connectClient();
    await first.listTools();
    const second = await connectClient();
    const { tools } = await second.listTools();
    expect(tools.map((t) => t.name)).toContain('fs_read_text_file');
    // The first client's session lives on beside the second one.
    const result = await first.callTool({
      name: 'fs_read_text_file',
      arguments: { path: `${stack.dir}/hello.txt` },
    });
    expect((result.content as { text: string }[])[0]?.text).toBe('hello from the filesystem\n');
    await Promise.all([first.close(), second.close()]);
  });

  it('ends the oldest session beyond maxSessions; its next request gets 404', async () => {
    const small = await serveMcpFace(face, { transport: 'streamable_http', port: 0, maxSessions: 1 }, logger);
    try {
      const first = await connectClient(small.url);
      await first.listTools();
      const second = await connectClient(small.url);
      await second.listTools();
      const stale = await first.listTools().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(stale).toMatchObject({ data: { status: 404 } });
      expect(String(stale)).toContain('Session not found');
      expect(logger.entries.some((e) => e.level === 'warn' && /too many MCP sessions/.test(e.message))).toBe(
        true,
      );
      await second.close();
    } finally {
      await small.close();
    }
  });

  it('holds the static token, one principal for every client, to maxSessions only; ends a session left unused past sessionIdleMs', async () => {
    const own = recordingLogger();
    const small = await serveMcpFace(
      face,
      {
        transport: 'streamable_http',
        port: 0,
        bearerToken: 't0ken',
        maxSessions: 2,
        maxSessionsPerPrincipal: 1,
        sessionIdleMs: 200,
      },
      own,
    );
    const post = (body: unknown, session?: string) =>
      fetch(small.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: 'Bearer t0ken',
          ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
        },
        body: JSON.stringify(body),
      });
    const initialize = async () => {
      const response = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '0' },
        },
      });
      await response.text();
      expect(response.status).toBe(200);
      return response.headers.get('mcp-session-id')!;
    };
    const ping = async (session: string) => {
      const response = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session);
      await response.text();
      return response.status;
    };
    try {
      // Two clients of the static token: the cap per principal does not apply to the face's one principal.
      const first = await initialize();
      const second = await initialize();
      expect([await ping(first), await ping(second)]).toEqual([200, 200]);
      // Left unused (no request in flight, no stream open), the sessions end: their clients get 404.
      const ended = () => own.entries.filter((e) => e.message === 'an idle MCP session ends').length;
      for (let waited = 0; ended() < 2; waited += 50) {
        if (waited > 30_000) throw new Error('no idle session ended within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect([await ping(first), await ping(second)]).toEqual([404, 404]);
    } finally {
      await small.close();
    }
  });

  it('refuses a foreign Host header with 403', async () => {
    const response = await rawInitialize('/mcp', { host: 'attacker.example:80' });
    expect(response.status).toBe(403);
    expect(response.body).toContain('Invalid Host: attacker.example');
    expect(logger.entries.some((e) => e.level === 'warn' && /Invalid Host/.test(e.message))).toBe(true);
  });

  it('refuses a foreign Origin, and a local origin on another port, with 403; accepts its own origin', async () => {
    const port = new URL(served.url).port;
    const foreign = await rawInitialize('/mcp', {
      host: `127.0.0.1:${port}`,
      origin: 'https://attacker.example',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain(
      'Invalid Origin: https://attacker.example is not one of the allowed origins',
    );
    const otherPort = await rawInitialize('/mcp', {
      host: `localhost:${port}`,
      origin: 'http://localhost:6274',
    });
    expect(otherPort.status).toBe(403);
    expect(otherPort.body).toContain('list it in mcp_server.allowed_origins');
    const own = await rawInitialize('/mcp', {
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(own.status).toBe(200);
    expect(own.body).toContain('face-http-test');
  });

  it('accepts an origin listed in allowedOrigins, and refuses a listed entry that is not an origin', async () => {
    const inspector = await serveMcpFace(
      face,
      { transport: 'streamable_http', port: 0, allowedOrigins: ['http://localhost:6274'] },
      logger,
    );
    try {
      const port = new URL(inspector.url).port;
      const listed = await rawInitialize(
        '/mcp',
        { host: `localhost:${port}`, origin: 'http://localhost:6274' },
        undefined,
        inspector.url,
      );
      expect(listed.status).toBe(200);
    } finally {
      await inspector.close();
    }
    await expect(
      serveMcpFace(
        face,
        { transport: 'streamable_http', port: 0, allowedOrigins: ['http://localhost:6274/app'] },
        logger,
      ),
    ).rejects.toThrow(
      'allowed origin: expected an http:// or https:// origin (scheme://host[:port], no path), got "http://localhost:6274/app"',
    );
  });

  it('answers 404 on any other path', async () => {
    const port = new URL(served.url).port;
    const response = await rawInitialize('/other', { host: `127.0.0.1:${port}` });
    expect(response.status).toBe(404);
    expect(response.body).toBe('not found: the MCP endpoint is /mcp\n');
  });

  it('answers a body that is not JSON with 400 and one over 4 MiB with 413', async () => {
    const host = `127.0.0.1:${new URL(served.url).port}`;
    const garbled = await rawInitialize('/mcp', { host }, '{"jsonrpc": "2.0", ');
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toMatchObject({ error: { code: -32700 } });
    const huge = await rawInitialize('/mcp', { host }, `"${'x'.repeat(4 * 1024 * 1024)}"`);
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({
      error: { code: -32600, message: 'request body over 4194304 bytes' },
    });
  });

  it('refuses to serve legacy SSE, naming the package it would need', async () => {
    await expect(serveMcpFace(face, { transport: 'sse' }, logger)).rejects.toThrow(
      /@modelcontextprotocol\/server-legacy.*not installed; use streamable_http or stdio/,
    );
  });
});

describe('the MCP face over Streamable HTTP with a bearer token', () => {
  const token = 'face-token-3f9c1e77a2b4';
  let guarded: McpFaceServer;
  const guardedLogger = recordingLogger();
  beforeAll(async () => {
    guarded = await serveMcpFace(
      face,
      { transport: 'streamable_http', port: 0, bearerToken: token },
      guardedLogger,
    );
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('serves an SDK client that sends the token', async () => {
    const client = new Client({ name: 'token-client', version: '0.0.0' }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(guarded.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('fs_read_text_file');
  });

  it('refuses with 401 and WWW-Authenticate: no header, another scheme, a wrong token', async () => {
    const host = `127.0.0.1:${new URL(guarded.url).port}`;
    const cases: [Record<string, string>, string][] = [
      [{}, 'expected an Authorization: Bearer <token> header, got none'],
      [
        { authorization: `Basic ${Buffer.from(`u:${token}`).toString('base64')}` },
        'of the form "Bearer <token>"',
      ],
      [{ authorization: `Bearer ${token}x` }, 'the bearer token is not valid'],
      [{ authorization: 'Bearer' }, 'of the form "Bearer <token>"'],
    ];
    for (const [headers, reason] of cases) {
      const response = await rawInitialize('/mcp', { host, ...headers }, undefined, guarded.url);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.authenticate).toBe('Bearer realm="mcp"');
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32000 } });
      expect(JSON.parse(response.body).error.message).toContain(reason);
    }
    // The right token passes the same raw request.
    const ok = await rawInitialize(
      '/mcp',
      { host, authorization: `bearer ${token}` },
      undefined,
      guarded.url,
    );
    expect(ok.status).toBe(200);
  });

  it('never logs the token', () => {
    expect(guardedLogger.entries.some((e) => e.message.includes('refused an MCP request'))).toBe(true);
    expect(JSON.stringify(guardedLogger.entries)).not.toContain(token);
  });

  it('refuses an empty token at start', async () => {
    await expect(
      serveMcpFace(face, { transport: 'streamable_http', port: 0, bearerToken: '' }, logger),
    ).rejects.toThrow(/expected a non-empty string/);
  });
});

describe('idle connections', () => {
  it('keeps a kept-alive connection open past 7 s of idleness, so a client reusing it does not lose a request', async () => {
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(served.url);
    const post = () =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      });
    const first = await post();
    // Node's default (5 s, plus its 1 s grace) would have closed the connection by now.
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    const second = await post();
    expect(second.status).toBe(first.status);
    expect(second.socket).toBe(first.socket);
    agent.destroy();
  }, 20_000);
});
