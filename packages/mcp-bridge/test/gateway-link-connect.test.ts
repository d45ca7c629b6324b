import { createServer, type Server } from 'node:http';
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { _LinkSet } from '../src/gateway/gateway-links.js';
import { silentLogger } from '../src/logger.js';
import type { McpRevision } from '../src/upstream/upstream-transport.js';
import { startStrict2026, stopStrict2026 } from './support/strict-2026.js';

const sets: _LinkSet[] = [];
let silent: Server | undefined;

afterAll(async () => {
  await Promise.all(sets.map((set) => set.close()));
  stopStrict2026();
  silent?.closeAllConnections();
  silent?.close();
});

const strict = startStrict2026;

/** A client's links to the one server at `url`, as the face holds them. */
function links(
  url: string,
  revision: McpRevision | undefined,
  connectTimeoutMs?: number,
  transportTimeoutMs?: number,
): _LinkSet {
  const set = new _LinkSet({
    client: {
      capabilities: () => ({}),
      clientInfo: () => undefined,
      request: async () => ({}),
      notification: async () => {},
    },
    transportOf: () => ({
      type: 'streamable_http',
      url,
      ...(revision && { revision }),
      // The source's own bound (`mcp_sources[].connect_timeout_seconds`).
      ...(transportTimeoutMs !== undefined && { connectTimeoutMs: transportTimeoutMs }),
    }),
    clientInfo: { name: 'test', version: '1' },
    timeoutMs: 5000,
    logger: silentLogger,
    ...(connectTimeoutMs !== undefined && { connectTimeoutMs }),
  });
  sets.push(set);
  return set;
}

/** The JSON-RPC error the face would answer with when the link to `strict` cannot open. */
async function refusal(set: _LinkSet): Promise<ProtocolError> {
  const error = await set.get('strict').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ProtocolError.isInstance(error)).toBe(true);
  expect((error as ProtocolError).data).toMatchObject({ xp_code: 'UPSTREAM_UNAVAILABLE' });
  return error as ProtocolError;
}

describe('a gateway link that cannot open', () => {
  it.each([undefined, '2026-07-28'] as const)(
    'revision %s, a server that never answers: fails at the connect timeout',
    async (revision) => {
      // Takes each request and never answers it.
      silent ??= createServer(() => {});
      if (!silent.listening) await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      const error = await refusal(links(`http://127.0.0.1:${port}/mcp`, revision, 1000));
      expect(error.code).toBe(-32603);
      expect(error.message).toMatch(
        /strict: cannot open a gateway session: the MCP handshake did not finish within 1000 ms \(connect timeout\)/,
      );
    },
  );

  it('the source’s own connect timeout bounds its links', async () => {
    silent ??= createServer(() => {});
    if (!silent.listening) await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const error = await refusal(links(`http://127.0.0.1:${port}/mcp`, undefined, undefined, 700));
    expect(error.message).toMatch(/did not finish within 700 ms \(connect timeout\)/);
  });

  it.each(['2026-07-28', 'auto'] as const)(
    'revision %s, the probe refused: the error carries the server’s own',
    async (revision) => {
      const error = await refusal(links(await strict(['--refuse-envelope']), revision));
      expect(error.code).toBe(-32603);
      expect(error.message).toMatch(
        /strict: cannot open a gateway session: server\/discover was answered -32602 Invalid params: missing _meta or required fields; /,
      );
    },
  );
});
