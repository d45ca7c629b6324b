// Cancellation across XProtocol, end to end with the built bins: an MCP client of adapter A calls a
// tool of adapter B (B wraps a real stdio MCP server; A reaches B through a relay on loopback) and
// cancels it, or goes away mid-call. The server behind B must be told (notifications/cancelled),
// not left running until its own timeout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceConfig, wrapperConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'security-server.mjs');
const procs = new Processes();
let faceUrl: string;
let effects: string;

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const a = await procs.keygen('a.key');
  const b = await procs.keygen('b.key');
  effects = join(procs.dir, 'effects.txt');
  await procs.adapter(
    procs.file(
      'b.yml',
      wrapperConfig({
        keyFile: './b.key',
        relayUrl,
        source: {
          name: 'fixture',
          body: `    transport: stdio\n    command: "'${process.execPath}' '${FIXTURE}'"\n    env:\n      FIXTURE_EFFECTS_FILE: ${effects}`,
          namespace: 'com.test.cancel',
        },
        grantTo: a.ed25519,
        stateDatabase: './b-state.db',
      }),
    ),
  );
  const port = await freePort();
  await procs.adapter(
    procs.file(
      'a.yml',
      faceConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [{ name: 'b', key: b.ed25519 }],
        port,
        stateDatabase: './a-state.db',
      }),
    ),
  );
  faceUrl = `http://127.0.0.1:${port}/mcp`;
}, 120_000);
afterAll(async () => {
  await procs.close();
});

const seen = () => {
  try {
    return readFileSync(effects, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function connect(): Promise<Client> {
  const client = new Client({ name: 'e2e-cancel', version: '0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(faceUrl)));
  return client;
}

describe('cancellation across XProtocol', () => {
  it("the client's notifications/cancelled reaches the server behind the other adapter", async () => {
    const client = await connect();
    try {
      const sleep = (await client.listTools()).tools.find((t) => t.name.endsWith('sleep'))!;
      expect(sleep).toBeDefined();
      const quick = await client.callTool({ name: sleep.name, arguments: { ms: 10 } });
      expect(quick.content).toEqual([{ type: 'text', text: 'slept 10 ms' }]);
      const controller = new AbortController();
      const call = client
        .callTool({ name: sleep.name, arguments: { ms: 30_000 } }, { signal: controller.signal })
        .catch((error: unknown) => error);
      await until(() => seen().includes('sleeping 30000'));
      controller.abort('changed my mind');
      await call;
      await until(() => seen().includes('cancelled 30000'));
      expect(seen()).not.toContain('slept 30000');
    } finally {
      await client.close();
    }
  }, 90_000);

  it('a client that ends its session mid-call gets the call cancelled on the server', async () => {
    const client = await connect();
    const sleep = (await client.listTools()).tools.find((t) => t.name.endsWith('sleep'))!;
    const running = client
      .callTool({ name: sleep.name, arguments: { ms: 20_000 } })
      .catch((error: unknown) => error);
    await until(() => seen().includes('sleeping 20000'));
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    await running;
    await until(() => seen().includes('cancelled 20000'));
    expect(seen()).not.toContain('slept 20000');
  }, 90_000);
});
