// Supervision of stdio upstreams with real processes: the fixture server (test/support/
// upstream-fixture-server.mjs) appends its pid to FIXTURE_STARTS_FILE at each start, so a test can
// SIGKILL the live child and count restarts. No timing thresholds: "at once" means long before
// the calls' own timeouts (which are longer than the test's).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, type SupervisionOptions, UpstreamSession } from '../src/index.js';
import { FIXTURE_SERVER, recordingLogger } from './support/http-servers.js';

const sessions: UpstreamSession[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.allSettled(sessions.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function supervised(name: string, supervise: SupervisionOptions, command?: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'xp-supervise-'));
  dirs.push(dir);
  const startsFile = join(dir, 'starts');
  const logger = recordingLogger();
  const session = new UpstreamSession({
    name,
    transport: {
      type: 'stdio',
      command: command ?? [process.execPath, FIXTURE_SERVER],
      env: { FIXTURE_STARTS_FILE: startsFile },
    },
    logger,
    supervise,
  });
  sessions.push(session);
  const starts = (): number[] => {
    try {
      return readFileSync(startsFile, 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  return { session, starts, logger };
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`still waiting for ${what}`);
}

async function rejection(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]?.text;
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('supervised stdio upstream (real processes)', () => {
  it('SIGKILL with calls in flight: every call fails at once, the child comes back, tools reappear; another source keeps answering', async () => {
    let restarted = 0;
    // A restart delay long enough to observe the outage on the other source.
    const a = supervised('alpha', { minRestartMs: 1500, maxRestartMs: 1500, onRestarted: () => restarted++ });
    const b = supervised('beta', {});
    expect((await a.session.listTools()).map((t) => t.name)).toContain('sleep');
    await b.session.connect();
    const [pid] = a.starts();
    expect(a.session.pid).toBe(pid);

    // The calls' own timeout (10 min) is far beyond the test's: only the crash can end them.
    const inFlight = [
      rejection(a.session.callTool('sleep', { ms: 600_000 }, { timeoutMs: 600_000 })),
      rejection(a.session.callTool('sleep', { ms: 600_000 }, { timeoutMs: 600_000 })),
    ];
    // Let the requests reach the child before it dies.
    await new Promise((r) => setTimeout(r, 200));
    process.kill(pid!, 'SIGKILL');
    const errors = await Promise.all(inFlight);
    for (const error of errors) {
      expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(error.message).toBe(
        'alpha: tools/call sleep failed: the server process ended during the call (signal SIGKILL); the call may or may not have run',
      );
    }

    // During the outage the other source answers.
    expect(text(await b.session.callTool('echo', { text: 'beta up' }, { timeoutMs: 30_000 }))).toBe(
      'beta up',
    );
    expect(restarted).toBe(0);

    await until('the restart', () => restarted === 1);
    expect(a.starts()).toHaveLength(2);
    expect(a.starts()[1]).not.toBe(pid);
    expect(alive(pid!)).toBe(false);
    expect((await a.session.listTools()).map((t) => t.name)).toContain('sleep');
    expect(text(await a.session.callTool('echo', { text: 'alpha back' }, { timeoutMs: 30_000 }))).toBe(
      'alpha back',
    );
    expect(a.logger.entries.map((e) => e.message)).toContainEqual(
      expect.stringMatching(
        /^upstream MCP server "alpha" ended \(signal SIGKILL\); restarting it in \d+(\.\d)? s \(restart 1\)$/,
      ),
    );
    // beta never restarted.
    expect(b.starts()).toHaveLength(1);
  }, 120_000);

  it('a crash loop opens the breaker: no more starts, calls answered at once naming the source and the retry time', async () => {
    // The first start serves; every later one writes a line on stderr and exits 3.
    const script = [
      "const fs = require('node:fs');",
      'const file = process.env.FIXTURE_STARTS_FILE;',
      "const earlier = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\\n').filter(Boolean).length : 0;",
      "if (earlier > 0) { fs.appendFileSync(file, process.pid + '\\n'); console.error('cannot open the database'); process.exit(3); }",
      `import(${JSON.stringify(pathToFileURL(FIXTURE_SERVER).href)});`,
    ].join('\n');
    const { session, starts, logger } = supervised(
      'looping',
      {
        minRestartMs: 10,
        maxRestartMs: 40,
        breaker: { maxCrashes: 3, windowMs: 600_000, cooldownMs: 600_000 },
      },
      [process.execPath, '-e', script],
    );
    await session.connect();
    process.kill(starts()[0]!, 'SIGKILL');
    await until('the breaker', () => logger.entries.some((e) => e.level === 'error'));
    // A failed restart is retried by the supervisor, naming what the child wrote.
    expect(logger.entries.map((e) => e.message)).toContainEqual(
      expect.stringMatching(
        /^upstream MCP server "looping" failed to start: cannot connect to the command ".*node.*": it exited with exit code 3 before the MCP handshake; restarting it in \d+ ms \(restart 2\)\n {2}stderr: cannot open the database$/,
      ),
    );
    expect(logger.entries.find((e) => e.level === 'error')?.message).toMatch(
      /^upstream MCP server "looping" is crash-looping \(last: failed to start: cannot connect to the command ".*node.*": it exited with exit code 3 before the MCP handshake\); not restarting it for 600 s\n {2}stderr: cannot open the database$/,
    );
    const count = starts().length;
    expect(count).toBe(3);
    const held = await rejection(session.callTool('echo', { text: 'x' }, { timeoutMs: 600_000 }));
    expect(held.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(held.message).toMatch(
      /^looping: the server crashed 3 times within 600 s; not restarting it until \d{4}-\d\d-\d\dT[\d:.]+Z \(in \d+ s\)$/,
    );
    // Neither the call nor the supervisor started the command again.
    await new Promise((r) => setTimeout(r, 300));
    expect(starts()).toHaveLength(count);

    // A healthy source next to it keeps serving.
    const healthy = supervised('healthy', {});
    expect(text(await healthy.session.callTool('echo', { text: 'fine' }, { timeoutMs: 30_000 }))).toBe(
      'fine',
    );
  }, 120_000);

  it('a start the owner asked for that fails is left to the owner: counted, not restarted by the supervisor', async () => {
    const script = `require('node:fs').appendFileSync(process.env.FIXTURE_STARTS_FILE, process.pid + '\\n'); process.exit(3)`;
    const { session, starts, logger } = supervised('owned', { minRestartMs: 10, maxRestartMs: 10 }, [
      process.execPath,
      '-e',
      script,
    ]);
    const error = await rejection(session.listTools());
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(
      /^owned: cannot connect to the command ".*node.*": it exited with exit code 3 before the MCP handshake, writing nothing on stderr$/,
    );
    // Far past the supervisor's 10 ms backoff: no start but the owner's.
    await new Promise((r) => setTimeout(r, 500));
    expect(starts()).toHaveLength(1);
    expect(logger.entries.filter((e) => e.level !== 'debug' && e.level !== 'info')).toEqual([]);
  }, 60_000);

  it('a 1 MiB line, garbage on stdout and a flood on stderr: no hang, the session keeps answering, memory stays bounded', async () => {
    const { session, starts } = supervised('noisy', {});
    await session.connect();
    const before = process.memoryUsage().rss;
    for (let round = 0; round < 3; round++) {
      for (const kind of ['big_line', 'garbage', 'stderr']) {
        expect(text(await session.callTool('noisy', { kind }, { timeoutMs: 60_000 }))).toBe(`wrote ${kind}`);
      }
    }
    expect(text(await session.callTool('echo', { text: 'still here' }, { timeoutMs: 30_000 }))).toBe(
      'still here',
    );
    expect(starts()).toHaveLength(1);
    // Loose: 3 rounds wrote ~27 MiB through the pipes; nothing of it may be kept.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  }, 120_000);

  it("the child gets an allow-listed environment: none of the parent's other variables", async () => {
    process.env.XP_TEST_PARENT_SECRET = 'must-not-leak';
    try {
      const { session } = supervised('env', {});
      const names = JSON.parse(
        text(await session.callTool('env_names', {}, { timeoutMs: 30_000 }))!,
      ) as string[];
      const allowed = new Set(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'FIXTURE_STARTS_FILE']);
      expect(names).toContain('FIXTURE_STARTS_FILE');
      expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    } finally {
      delete process.env.XP_TEST_PARENT_SECRET;
    }
  }, 60_000);

  it('close() drains: a call in flight finishes within the grace, a new call is refused; past the grace it fails', async () => {
    const { session, starts } = supervised('draining', {});
    await session.connect();
    const [pid] = starts();
    const short = session.callTool('sleep', { ms: 300 }, { timeoutMs: 600_000 });
    const long = rejection(session.callTool('sleep', { ms: 600_000 }, { timeoutMs: 600_000 }));
    await new Promise((r) => setTimeout(r, 50));
    const closing = session.close({ graceMs: 15_000 });
    const refused = await rejection(session.callTool('echo', { text: 'late' }, { timeoutMs: 600_000 }));
    expect(refused.code).toBe('CLOSED');
    expect(text(await short)).toBe('slept 300 ms');
    await closing;
    // The long call outlived the grace: it failed instead of holding the shutdown.
    expect((await long).code).toBe('UPSTREAM_UNAVAILABLE');
    await until('the child to end', () => !alive(pid!));
  }, 60_000);

  it('close() ends the child (no orphan) and stops restarts', async () => {
    let restarted = 0;
    const { session, starts } = supervised('closing', { minRestartMs: 10, onRestarted: () => restarted++ });
    await session.connect();
    const [pid] = starts();
    expect(alive(pid!)).toBe(true);
    await session.close();
    await until('the child to end', () => !alive(pid!));
    await new Promise((r) => setTimeout(r, 200));
    expect(restarted).toBe(0);
    expect(starts()).toHaveLength(1);
  }, 60_000);
});
