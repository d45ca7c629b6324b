// The adapter's MCP sources under a crash, with real processes: two stdio sources run the
// conformance fixture, which appends its pid to XP_FIXTURE_PID_FILE at each start. SIGKILL one:
// the other keeps answering, the killed one is restarted and its tools are listed again; stop()
// leaves no child behind.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

const pids = (file: string): number[] => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 6000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`still waiting for ${what}`);
}

describe('McpSources supervision (real processes)', () => {
  it('a SIGKILLed stdio source is restarted and listed again while the other keeps answering; stop() leaves no child', async () => {
    dir = mkdtempSync(join(tmpdir(), 'xp-sources-'));
    const pidFile = (name: string) => join(dir!, `${name}.pids`);
    const source = (name: string) =>
      [
        `  - name: ${name}`,
        conformanceStdioBody(),
        `    env: { XP_FIXTURE_PID_FILE: ${JSON.stringify(pidFile(name))} }`,
        `    xprotocol_namespace: com.test.${name}`,
      ].join('\n');
    const { config } = parseConfig(
      [
        'identity:',
        '  key_file: ./a.key',
        'relay:',
        '  urls: [ws://127.0.0.1:9]',
        'mcp_sources:',
        source('alpha'),
        source('beta'),
        '',
      ].join('\n'),
      'config.yml',
      { env: {}, homeDir: dir },
    );
    const lines: string[] = [];
    const logger = createLogger(
      { level: 'debug', format: 'json', output: 'stderr' },
      { stderr: { write: (line: string) => lines.push(line) > 0 } },
    );
    const registry = new Registry();
    let alphaRefreshes = 0;
    const refreshSource = registry.refreshSource.bind(registry);
    registry.refreshSource = (name, contracts) => {
      if (name === 'alpha') alphaRefreshes++;
      return refreshSource(name, contracts);
    };
    sources = new McpSources({ sources: config.mcpSources, registry, logger, onChange: () => {} });
    await sources.start(120_000);
    expect(sources.status().map((s) => [s.name, s.connected])).toEqual([
      ['alpha', true],
      ['beta', true],
    ]);
    const kinds = registry.contractsOf('alpha').map((c) => c.kind);
    expect(kinds.length).toBeGreaterThan(0);
    expect(alphaRefreshes).toBe(1);
    const [alphaPid] = pids(pidFile('alpha'));
    const [betaPid] = pids(pidFile('beta'));

    process.kill(alphaPid!, 'SIGKILL');
    // During the outage (the first restart waits at least 250 ms) beta answers.
    const beta = sources.upstreams.get('beta')!;
    const answer = await beta.callTool('test_simple_text', {}, { timeoutMs: 60_000 });
    expect((answer.content as { text: string }[])[0]?.text).toBeTruthy();

    await until('alpha restarted and listed again', () => alphaRefreshes === 2);
    expect(pids(pidFile('alpha'))).toHaveLength(2);
    expect(registry.contractsOf('alpha').map((c) => c.kind)).toEqual(kinds);
    expect(sources.status().find((s) => s.name === 'alpha')?.connected).toBe(true);
    expect(lines.join('')).toMatch(
      /upstream MCP server \\"alpha\\" ended \(signal SIGKILL\); restarting it in \d+(\.\d)? s \(restart 1\)/,
    );
    expect(pids(pidFile('beta'))).toEqual([betaPid]);

    const live = [...pids(pidFile('alpha')), betaPid!];
    await sources.stop();
    sources = undefined;
    await until('every child to end', () => live.every((pid) => !alive(pid)));
  }, 180_000);
});
