// startAdapter's stop() with a wrapper as the adapter command (`--adapter-command "npx -y
// @xprotocol/mcp-adapter"`, docs/conformance.md): the wrapper exits on SIGTERM and leaves the
// adapter it started running; stop() must stop that adapter too and wait for it, or the next
// start of the suite finds its port still taken.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAdapter } from '../src/adapter-process.js';

const WRAPPER = join(import.meta.dirname, 'doubles', 'npx-like-wrapper.mjs');

/**
 * Whether a process with this pid still runs: a zombie (exited, waiting for its new parent to reap
 * it, as an orphan is) does not.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z /.test(readFileSync(stat, 'utf8'));
}

describe('startAdapter through a wrapper command', () => {
  it('stop() resolves only once the adapter the wrapper started has exited', async () => {
    const adapter = await startAdapter([process.execPath, WRAPPER], 'unused.yml', import.meta.dirname);
    const ready = adapter.logs.find((line) => line.includes('"ready"'))!;
    const pid = (JSON.parse(ready) as { pid: number }).pid;
    try {
      expect(alive(pid)).toBe(true);
      await adapter.stop();
      expect(adapter.child.exitCode, 'the wrapper exited').toBe(0);
      expect(alive(pid), `the adapter (pid ${pid}) still runs after stop()`).toBe(false);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL'); // what a failed stop() left behind
    }
  });
});
