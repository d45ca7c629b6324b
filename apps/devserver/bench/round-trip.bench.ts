// The full XProtocol round trip through the devserver (client → relay → adapter → server-filesystem
// and back, sealed and signed both ways, durable relay writes) against the baseline of calling the
// same server directly over MCP stdio, in the same run. vitest reports the ratio.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateIdentity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, bench, describe } from 'vitest';
import { _quoteCommandLine } from '../src/_command-quote.js';
import { filesystemServerEntry } from '../src/demo.js';
import { inlineConfig } from '../src/inline-config.js';
import { startDevServer } from '../src/start-dev-server.js';

const dir = mkdtempSync(join(tmpdir(), 'xp-devserver-bench-'));
const file = join(dir, 'hello.txt');
writeFileSync(file, 'benchmark payload\n'.repeat(8));
const backends = { signatures: nodeSignatures, cipher: nodeCipher };
const client = generateIdentity(backends);
const { config } = inlineConfig({
  command: _quoteCommandLine([process.execPath, filesystemServerEntry(), dir]),
  namespace: 'com.bench.fs',
  keyFile: join(dir, 'adapter.key'),
  access: { default: 'deny', grants: [{ key: client.keys.ed25519, capabilities: ['com.bench.fs.read'] }] },
  stateDatabase: join(dir, 'state.db'),
  logging: { level: 'error', format: 'text' },
});
// A high limit: the adapter's default of 600 calls per minute per key would throttle the bench.
config.mcpSources[0]!.rateLimit.requestsPerMinute = 1_000_000;
const dev = await startDevServer({ config, database: join(dir, 'events.db'), relayPort: 0, eventLog: false });
const pool = await RelayPool.open({ urls: [dev.relayUrl] });
const caller = new XpCaller({ identity: client, pool, ...backends });
const to = (await caller.resolve(dev.adapter.keys.ed25519, 15_000)).keys;

const direct = new Client({ name: 'bench', version: '0.0.0' }, { capabilities: {} });
await direct.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [filesystemServerEntry(), dir],
    stderr: 'pipe',
  }),
);

afterAll(async () => {
  await direct.close();
  await pool.close();
  await dev.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('read_text_file round trip', () => {
  bench(
    'direct: MCP stdio client → server-filesystem (baseline)',
    async () => {
      const result = await direct.callTool({ name: 'read_text_file', arguments: { path: file } });
      if (result.isError) throw new Error('direct call failed');
    },
    { time: 3000, warmupIterations: 5 },
  );

  bench(
    'XProtocol: XpCaller → devserver relay → adapter → server-filesystem',
    async () => {
      const outcome = await caller.call({
        to,
        kind: 'com.bench.fs.read_text_file',
        payload: { path: file },
        timeoutMs: 15_000,
      });
      if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
    },
    { time: 3000, warmupIterations: 5 },
  );
});
