// The three attacks of docs/security.md, reproduced with real processes on loopback against the
// built adapter bin: a catastrophic `pattern` that used to stall the event loop, relays learned
// from a hostile well-known document (and an endless document body), and arguments nested deep
// enough to overflow a serializer and take a shared upstream down for every client.
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, Processes } from './support/processes.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'security-server.mjs');
const procs = new Processes();
const servers: (HttpServer | NetServer)[] = [];
let relayUrl: string;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
}, 60_000);
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await procs.close();
});

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'e2e-security', version: '0.0.0' }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

/** Polls `check` every 50 ms until it is true (the test's own timeout bounds the wait). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

const lines = (path: string): string[] => {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('a gateway adapter in front of one shared upstream', () => {
  let faceUrl: string;
  let starts: string;
  let effects: string;

  beforeAll(async () => {
    await procs.keygen('gateway.key');
    const facePort = await freePort();
    starts = join(procs.dir, 'starts.txt');
    effects = join(procs.dir, 'effects.txt');
    const config = procs.file(
      'gateway.yml',
      `identity:
  key_file: ./gateway.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fixture
    transport: stdio
    command: "'${process.execPath}' '${FIXTURE}'"
    env:
      FIXTURE_STARTS_FILE: ${starts}
      FIXTURE_EFFECTS_FILE: ${effects}
    xprotocol_namespace: com.test.sec
mcp_server:
  transport: streamable_http
  port: ${facePort}
  expose: [mcp_sources]
state_database: ./gateway-state.db
logging:
  level: warn
  format: json
`,
    );
    await procs.adapter(config);
    faceUrl = `http://127.0.0.1:${facePort}/mcp`;
  }, 60_000);

  it('validates ^(a+)+$ against 40 characters without stalling: a concurrent client is answered meanwhile', async () => {
    const evil = await client(faceUrl);
    const other = await client(faceUrl);
    try {
      expect((await other.listTools()).tools.map((t) => t.name)).toContain('match');
      // A backtracking engine needs hours for this (7 s at 31 characters, doubling per character);
      // while it ran, nothing else in the adapter would be answered.
      const evilCall = evil.callTool({ name: 'match', arguments: { s: `${'a'.repeat(39)}!` } });
      for (let i = 0; i < 5; i++) expect(await other.ping()).toEqual({});
      const result = await evilCall;
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/must match pattern "\^\(a\+\)\+\$"/);
      const good = await evil.callTool({ name: 'match', arguments: { s: 'a'.repeat(10_000) } });
      expect(good.isError).toBeFalsy();
    } finally {
      await evil.close();
      await other.close();
    }
  }, 120_000);

  it('refuses arguments nested 100,000 levels deep with -32602; the upstream and other calls are untouched', async () => {
    const victim = await client(faceUrl);
    try {
      await victim.listTools();
      const before = lines(starts);
      const inFlight = victim.callTool({ name: 'sleep', arguments: { ms: 2000 } });
      // The attacker speaks raw JSON-RPC: an SDK client cannot even serialize such arguments.
      const depth = 100_000;
      const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const answer = await _rawToolCall(faceUrl, `{"name":"echo","arguments":{"value":${deep}}}`);
      expect(answer.error).toMatchObject({
        code: -32602,
        message: 'the arguments: 100001 levels of nesting; the limit is 64',
        data: { xp_code: 'SCHEMA_VIOLATION', limit: 'depth', max: 64, found: 100_001 },
      });
      const slept = await inFlight;
      expect((slept.content as { text: string }[])[0]!.text).toBe('slept 2000 ms');
      expect(lines(effects)).toContain('slept 2000');
      // The victim's upstream child was never restarted: the only start since is the one the
      // attacker's own session opened (the gateway gives each client its own upstream session).
      expect(lines(starts).slice(0, before.length)).toEqual(before);
      expect(lines(starts).length).toBeLessThanOrEqual(before.length + 1);
      expect((await victim.callTool({ name: 'echo', arguments: { value: [1] } })).content).toEqual([
        { type: 'text', text: 'array' },
      ]);
    } finally {
      await victim.close();
    }
  }, 120_000);
});

describe('an xp:// endpoint whose well-known document lists hostile relays', () => {
  it('dials none of them, and a document that never ends is cut at 64 KiB', async () => {
    // A loopback listener standing for everything the document points at: it records each dial.
    const dials: string[] = [];
    const trap = createNetServer((socket) => {
      dials.push(`${socket.remoteAddress}`);
      socket.destroy();
    });
    servers.push(trap);
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const trapPort = (trap.address() as { port: number }).port;
    const hostile = [
      `ws://[::ffff:127.0.0.1]:${trapPort}`,
      `ws://localhost:${trapPort}`,
      `ws://127.0.0.1:${trapPort}/`,
      `ws://2130706433:${trapPort}`,
      `ws://0x7f.1:${trapPort}`,
    ];
    const doc = {
      version: 'xp1',
      public_key: `ed25519:${'1'.repeat(64)}`,
      x25519: `x25519:${'2'.repeat(64)}`,
      relays: [relayUrl, ...hostile],
      schema_url: 'http://127.0.0.1:1/xp/schemas',
      adapter: true,
    };
    const docServer = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(doc));
    });
    // The endless document: chunked, no length, written as fast as the reader takes it.
    let streamed = 0;
    let streamClosed = false;
    const bigServer = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && streamed < 1024 ** 3) {
          streamed += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => {
        streamClosed = true;
      });
      pump();
    });
    servers.push(docServer, bigServer);
    for (const s of [docServer, bigServer])
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const docPort = (docServer.address() as { port: number }).port;
    const bigPort = (bigServer.address() as { port: number }).port;

    await procs.keygen('client.key');
    const facePort = await freePort();
    const config = procs.file(
      'client.yml',
      `identity:
  key_file: ./client.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: hostile
    endpoint: xp://127.0.0.1:${docPort}
    mcp_tool_prefix: h_
  - name: endless
    endpoint: xp://127.0.0.1:${bigPort}
    mcp_tool_prefix: e_
mcp_server:
  transport: streamable_http
  port: ${facePort}
state_database: ./client-state.db
logging:
  level: info
  format: json
`,
    );
    const { child, logs } = await procs.adapter(config);
    const c = await client(`http://127.0.0.1:${facePort}/mcp`);
    try {
      await c.listTools(); // the first tools/list resolves both endpoints
      const refusals = () =>
        logs.filter((l) => l.includes('not dialling a relay from the discovery document'));
      await until(() => refusals().length === hostile.length);
      for (const relay of hostile) {
        expect(refusals().some((l) => l.includes(JSON.stringify(relay)))).toBe(true);
      }
      expect(refusals().join('\n')).toMatch(/::ffff:7f00:1 is an IPv4-mapped address 127\.0\.0\.1/);
      expect(refusals().join('\n')).toMatch(/localhost is a loopback address/);
      expect(logs.some((l) => l.includes('added a relay from discovery'))).toBe(false);

      await until(() => logs.some((l) => l.includes('stopped reading at')));
      const failure = logs.find((l) => l.includes('stopped reading at')) ?? '';
      expect(failure).toMatch(
        new RegExp(
          `cannot fetch http://127\\.0\\.0\\.1:${bigPort}/\\.well-known/xprotocol-endpoint: the document is over 65536 bytes; stopped reading at \\d+`,
        ),
      );
      await until(() => streamClosed);
      // The reader hung up long before the gigabyte: what was written is what the socket buffers held.
      expect(streamed).toBeLessThan(64 * 1024 ** 2);
      const rssKb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
      expect(rssKb).toBeGreaterThan(0);
      expect(rssKb).toBeLessThan(512 * 1024);
      expect(dials).toEqual([]);
    } finally {
      await c.close();
    }
  }, 120_000);
});

/**
 * One `tools/call` as raw JSON-RPC over Streamable HTTP (initialize, initialized, the call),
 * `params` given as JSON text. Returns the JSON-RPC answer to the call.
 */
async function _rawToolCall(url: string, params: string): Promise<{ error?: unknown; result?: unknown }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const post = async (body: string) => {
    const response = await fetch(url, { method: 'POST', headers, body });
    const text = await response.text();
    return { response, text };
  };
  const init = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  );
  headers['mcp-session-id'] = init.response.headers.get('mcp-session-id') ?? '';
  headers['mcp-protocol-version'] = '2025-11-25';
  await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const { text } = await post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":${params}}`);
  const json = text.trimStart().startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .find((l) => l.includes('"id":2'));
  return JSON.parse(json ?? '{}') as { error?: unknown; result?: unknown };
}
