// The stdio child leads its own process group, and the whole group ends with it: a wrapper
// server (test/fixtures/wrapper-server.mjs) starts a grandchild that nothing but a signal ends,
// like `npx some-server` or `sh -c`. Real processes; no timing thresholds.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, UpstreamSession } from '../src/index.js';
import { _liveGroupCount } from '../src/upstream/process-group.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const WRAPPER = join(FIXTURES, 'wrapper-server.mjs');

const sessions: UpstreamSession[] = [];
const dirs: string[] = [];
const strays: number[] = [];
afterEach(async () => {
  await Promise.allSettled(sessions.splice(0).map((s) => s.close()));
  // A failed test must not leave its grandchild behind.
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function wrapped(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'xp-group-'));
  dirs.push(dir);
  const pidFile = join(dir, 'grandchild.pid');
  const session = new UpstreamSession({
    name: 'wrapped',
    transport: {
      type: 'stdio',
      command: [process.execPath, WRAPPER],
      env: { WRAPPER_GRANDCHILD_PID_FILE: pidFile, ...env },
    },
  });
  sessions.push(session);
  return { session, dir, pidFile, grandchild: () => grandchildPid(pidFile) };
}

async function grandchildPid(pidFile: string): Promise<number> {
  let pid = Number.NaN;
  await until('the grandchild to write its pid', () => {
    try {
      pid = Number(readFileSync(pidFile, 'utf8'));
    } catch {
      return false;
    }
    return pid > 0;
  });
  strays.push(pid);
  return pid;
}

/**
 * True once `pid` is gone: no such process, or one that ended and waits to be reaped (the PID 1
 * of a container may never reap the orphans it inherits).
 */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]?.text;

describe('stdio upstream process group', () => {
  it("close() ends the wrapper and the grandchild it started, and forgets the group (no 'exit' listener left)", async () => {
    const listeners = process.listenerCount('exit');
    const { session, grandchild } = wrapped();
    expect(text(await session.callTool('echo', { text: 'hi' }, { timeoutMs: 60_000 }))).toBe('hi');
    const wrapper = session.pid!;
    const pid = await grandchild();
    expect(gone(pid)).toBe(false);
    expect(process.listenerCount('exit')).toBe(listeners + 1);
    await session.close();
    await until('the wrapper to end', () => gone(wrapper));
    await until('the grandchild to end', () => gone(pid));
    await until('the group to be forgotten', () => _liveGroupCount() === 0);
    expect(process.listenerCount('exit')).toBe(listeners);
  }, 120_000);

  it('a grandchild that ignores SIGTERM gets SIGKILL after the grace', async () => {
    const { session, grandchild } = wrapped({ WRAPPER_GRANDCHILD_IGNORES_SIGTERM: '1' });
    await session.connect();
    const pid = await grandchild();
    await session.close();
    await until('the grandchild to end', () => gone(pid));
  }, 120_000);

  it('a wrapper that exits on its own takes its grandchild along; the next call starts a new one', async () => {
    const { session, grandchild, pidFile } = wrapped();
    await session.connect();
    const first = await grandchild();
    const error = await session.callTool('exit', {}, { timeoutMs: 60_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).message).toContain(
      'the server process ended during the call (exit code 3)',
    );
    await until('the grandchild of the ended wrapper to end', () => gone(first));
    rmSync(pidFile);
    expect(text(await session.callTool('echo', { text: 'again' }, { timeoutMs: 60_000 }))).toBe('again');
    const second = await grandchild();
    expect(second).not.toBe(first);
    expect(gone(second)).toBe(false);
  }, 120_000);

  it('when our process exits without closing, the whole group is killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-group-'));
    dirs.push(dir);
    const pidFile = join(dir, 'grandchild.pid');
    // The built package in a process of its own, which exits right after connecting.
    const owner = spawn(process.execPath, [join(FIXTURES, 'exit-with-upstream.mjs'), WRAPPER, pidFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    owner.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => owner.once('close', resolve));
    expect(code).toBe(0);
    const wrapper = Number(out.trim());
    expect(wrapper).toBeGreaterThan(0);
    strays.push(wrapper);
    const pid = await grandchildPid(pidFile);
    await until('the wrapper to end', () => gone(wrapper));
    await until('the grandchild to end', () => gone(pid));
  }, 120_000);
});
