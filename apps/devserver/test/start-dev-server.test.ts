// The programmatic API, in process: a taken relay port is refused with a message that says what
// to do; a relay-less gateway file runs as an XProtocol adapter on the devserver's relay; runDemo
// resolves with the answer.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@xprotocol/mcp-adapter';
import { startRelay } from '@xprotocol/relay';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TEXT, runDemo } from '../src/demo.js';
import { inlineConfig } from '../src/inline-config.js';
import { startDevServer } from '../src/start-dev-server.js';
import { createStyle } from '../src/style.js';

const dir = mkdtempSync(join(tmpdir(), 'xp-devserver-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startDevServer', () => {
  it('refuses a relay port already in use, naming --relay-port', async () => {
    const other = await startRelay({ port: 0 });
    try {
      const { config } = inlineConfig({
        command: 'node never-started.js',
        namespace: 'com.x',
        keyFile: join(dir, 'k'),
      });
      await expect(
        startDevServer({ config, database: join(dir, 'events.db'), relayPort: other.port, eventLog: false }),
      ).rejects.toThrow(
        `127.0.0.1:${other.port} is already in use (another devserver?); choose another with --relay-port, or 0 for any free port`,
      );
    } finally {
      await other.close();
    }
  });
});

describe('startDevServer with a pure MCP gateway file (no relay, no identity)', () => {
  it('runs it on its own relay as an XProtocol adapter, with the dev key', async () => {
    const { config } = parseConfig(
      [
        'mcp_sources:',
        '  - name: fs',
        '    transport: stdio',
        '    command: node never-started.js',
        '    xprotocol_namespace: com.x',
        'mcp_server:',
        '  transport: streamable_http',
        '  port: 1',
        '',
      ].join('\n'),
      join(dir, 'gateway.yml'),
      { env: {} },
    );
    expect(config.mode).toBe('mcp_gateway');
    // The face is not what this test is about: leave it out, so no port is bound.
    const dev = await startDevServer({
      config: { ...config, mcpServer: undefined },
      database: ':memory:',
      relayPort: 0,
      eventLog: false,
      keyFile: join(dir, 'gateway-dev.key'),
      stateDatabase: ':memory:',
    });
    try {
      expect(dev.config.mode).toBe('xprotocol');
      expect(dev.config.relay.urls).toEqual([dev.relayUrl]);
      expect(dev.adapter.keys.ed25519).toMatch(/^ed25519:[0-9a-f]{64}$/);
    } finally {
      await dev.stop();
    }
  });
});

describe('runDemo (in process)', () => {
  it('resolves with the answer and its id, and removes its temporary directory', async () => {
    const root = mkdtempSync(join(dir, 'demo-root-'));
    const lines: string[] = [];
    const result = await runDemo({
      tmpRoot: root,
      write: (line) => lines.push(line),
      style: createStyle(false),
    });
    expect((result.payload as { content: { text: string }[] }).content[0]!.text).toBe(DEMO_TEXT);
    expect(result.answerId).toMatch(/^[0-9a-f]{64}$/);
    expect(result.relayUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect([result.adapterKey, result.clientKey].every((k) => /^ed25519:[0-9a-f]{64}$/.test(k))).toBe(true);
    expect(lines.at(-1)).toBe('stopped  relay, adapter and server-filesystem; temporary directory removed');
    expect(readdirSync(root)).toEqual([]);
  });
});
