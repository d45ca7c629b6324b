// The programmatic API, in process: a taken relay port is refused with a message that says what
// to do; runDemo resolves with the answer.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
