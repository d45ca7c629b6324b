import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { UpstreamSession } from '../src/index.js';
import { startStrict2026, stopStrict2026 } from './support/strict-2026.js';

const sessions: UpstreamSession[] = [];
let silent: Server | undefined;

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  stopStrict2026();
  silent?.closeAllConnections();
  silent?.close();
});

const strict = startStrict2026;

function session(url: string, revision: '2026-07-28' | 'auto' | undefined, connectTimeoutMs?: number) {
  const upstream = new UpstreamSession({
    name: 'strict',
    transport: { type: 'streamable_http', url, ...(revision && { revision }) },
    onToolsChanged: () => {},
    ...(connectTimeoutMs !== undefined && { connectTimeoutMs }),
  });
  sessions.push(upstream);
  return upstream;
}

describe('a strict 2026-07-28 server upstream', () => {
  it.each(['2026-07-28', 'auto'] as const)(
    'mcp_revision %s: lists and calls in 2026-07-28',
    async (revision) => {
      const upstream = session(await strict([]), revision);
      const tools = await upstream.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'confirm_action']);
      expect(upstream.transport.revision).toBe('2026-07-28');
      expect(await upstream.callTool('add', { a: 1, b: 2 }, { timeoutMs: 5000 })).toMatchObject({
        content: [{ type: 'text', text: '3' }],
      });
    },
  );

  it('auto falls back to 2025-11-25 when the server speaks only that', async () => {
    const upstream = session(await strict(['--revisions', '2025']), 'auto');
    expect((await upstream.listTools()).map((tool) => tool.name)).toEqual(['echo', 'add']);
    expect(upstream.transport.revision).toBeUndefined();
  });

  it.each(['2026-07-28', 'auto'] as const)(
    'mcp_revision %s, the probe refused: the error leads with the server’s own',
    async (revision) => {
      const upstream = session(await strict(['--refuse-envelope']), revision);
      await expect(upstream.connect()).rejects.toThrow(
        /cannot connect to the Streamable HTTP endpoint .*: server\/discover was answered -32602 Invalid params: missing _meta or required fields; /,
      );
    },
  );

  it('a server that never answers fails the attempt at the connect timeout', async () => {
    // Takes each request and never answers it.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const upstream = session(`http://127.0.0.1:${port}/mcp`, '2026-07-28', 1000);
    await expect(upstream.connect()).rejects.toThrow(
      /the MCP handshake did not finish within 1000 ms \(connect timeout\)/,
    );
  });
});
