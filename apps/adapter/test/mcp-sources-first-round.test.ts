// McpSources.firstRound(): settles once every source's first refresh has ended, even when start()
// returned earlier (its startup wait ran out), and even when a source failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from '@xprotocol/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { createLogger } from '../src/runtime/logger.js';
import { McpSources } from '../src/runtime/mcp-sources.js';
import { conformanceStdioBody } from './support/adapter-configs.js';

let dir: string | undefined;
let sources: McpSources | undefined;
afterEach(async () => {
  await sources?.stop();
  sources = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('McpSources.firstRound (real processes)', () => {
  it('settles after start() gave up waiting, once the slow source is listed and the dead one failed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'xp-sources-first-'));
    const { config } = parseConfig(
      [
        'identity:',
        '  key_file: ./a.key',
        'relay:',
        '  urls: [ws://127.0.0.1:9]',
        'mcp_sources:',
        '  - name: alpha',
        conformanceStdioBody(),
        '    xprotocol_namespace: com.test.alpha',
        '  - name: dead',
        '    transport: streamable_http',
        '    url: http://127.0.0.1:9/mcp',
        '    xprotocol_namespace: com.test.dead',
        '',
      ].join('\n'),
      'config.yml',
      { env: {}, homeDir: dir },
    );
    const logger = createLogger(
      { level: 'error', format: 'json', output: 'stderr' },
      { stderr: { write: () => true } },
    );
    const registry = new Registry();
    sources = new McpSources({ sources: config.mcpSources, registry, logger, onChange: () => {} });
    await sources.start(0);
    // start() waited 0 ms: the stdio server has not been listed yet.
    expect(registry.contractsOf('alpha')).toEqual([]);
    await sources.firstRound();
    expect(registry.contractsOf('alpha').length).toBeGreaterThan(0);
    expect(sources.status().map((s) => [s.name, s.connected])).toEqual([
      ['alpha', true],
      ['dead', false],
    ]);
  }, 120_000);
});
