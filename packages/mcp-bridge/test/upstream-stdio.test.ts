// UpstreamSession over stdio against a fixture MCP server (SDK v2 Server) that can sleep, fail
// with a JSON-RPC error, and exit mid-call; every start is counted in a file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, UpstreamSession } from '../src/index.js';
import { _classifyUpstreamError } from '../src/upstream/upstream-errors.js';
import { FIXTURE_SERVER, recordingLogger } from './support/http-servers.js';

const OUTPUT_PATTERN_SERVER = join(import.meta.dirname, 'fixtures', 'output-pattern-server.mjs');

let dir: string | undefined;
let upstream: UpstreamSession | undefined;
afterEach(async () => {
  // close() ends the child; a child that exited on its own is already gone.
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  upstream = undefined;
  dir = undefined;
});

function fixture(options: { minReconnectMs?: number } = {}) {
  dir = mkdtempSync(join(tmpdir(), 'xp-upstream-'));
  const startsFile = join(dir, 'starts');
  const logger = recordingLogger();
  upstream = new UpstreamSession({
    name: 'fixture',
    transport: {
      type: 'stdio',
      command: [process.execPath, FIXTURE_SERVER],
      env: { FIXTURE_STARTS_FILE: startsFile },
    },
    logger,
    ...options,
  });
  const starts = (): string[] => {
    try {
      return readFileSync(startsFile, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  return { session: upstream, starts, logger };
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

describe('UpstreamSession over stdio (fixture server)', () => {
  it('lists tools across pages, in the server order', async () => {
    const { session, starts } = fixture();
    const tools = await session.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'echo',
      'sleep',
      'exit',
      'fail',
      'filler_a',
      'env_names',
      'noisy',
    ]);
    expect(session.serverInfo).toEqual({ name: 'xp-upstream-fixture', version: '1.0.0' });
    expect(starts()).toHaveLength(1);
  });

  it("returns a JSON-RPC error as UPSTREAM_ERROR with the server's code and message, session kept", async () => {
    const { session, starts } = fixture();
    const error = await rejection(session.callTool('fail', {}, { timeoutMs: 5000 }));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toBe(
      'fixture: tools/call fail failed: the server answered JSON-RPC error -32050: fixture refused: the fail tool always fails',
    );
    expect(session.connected).toBe(true);
    expect(text(await session.callTool('echo', { text: 'same child' }, { timeoutMs: 5000 }))).toBe(
      'same child',
    );
    expect(starts()).toHaveLength(1);
  });

  it('arguments too deep to serialize fail that call alone: a call in flight and the child are kept', async () => {
    const { session, starts } = fixture();
    await session.connect();
    const inFlight = session.callTool('sleep', { ms: 300 }, { timeoutMs: 20_000 });
    const deep = JSON.parse(`{"text":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) as Record<
      string,
      unknown
    >;
    const error = await rejection(session.callTool('echo', deep, { timeoutMs: 5000 }));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toBe(
      'fixture: tools/call echo was not sent: the arguments: 100001 levels of nesting; the limit is 1000',
    );
    expect(text(await inFlight)).toBe('slept 300 ms');
    expect(session.connected).toBe(true);
    expect(starts()).toHaveLength(1);
  });

  it('checks structuredContent against an outputSchema pattern on the linear-time engine', async () => {
    dir = mkdtempSync(join(tmpdir(), 'xp-upstream-'));
    upstream = new UpstreamSession({
      name: 'output',
      transport: { type: 'stdio', command: [process.execPath, OUTPUT_PATTERN_SERVER] },
    });
    await upstream.listTools(); // the SDK client compiles each tool's outputSchema from the list
    // The SDK's default validator (JavaScript's backtracking engine) needs hours for 40 characters.
    const error = await rejection(
      upstream.callTool('shout', { s: `${'a'.repeat(39)}!` }, { timeoutMs: 20_000 }),
    );
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toMatch(/must match pattern "\^\(a\+\)\+\$"/);
    const fine = await upstream.callTool('shout', { s: 'a'.repeat(10_000) }, { timeoutMs: 20_000 });
    expect(fine.structuredContent).toEqual({ s: 'a'.repeat(10_000) });
    expect(upstream.connected).toBe(true);
  });

  it('a request that fails to serialize keeps the session; a lost connection drops it', () => {
    const context = { source: 'fixture', what: 'tools/call echo', aborted: false, secrets: [] };
    const overflow = _classifyUpstreamError(new RangeError('Maximum call stack size exceeded'), context);
    expect(overflow.dropSession).toBe(false);
    expect(overflow.error.message).toBe(
      'fixture: tools/call echo could not be sent: Maximum call stack size exceeded',
    );
    expect(_classifyUpstreamError(new Error('read ECONNRESET'), context).dropSession).toBe(true);
  });

  it('times out with UPSTREAM_TIMEOUT and keeps the child', async () => {
    const { session, starts } = fixture();
    const error = await rejection(session.callTool('sleep', { ms: 5000 }, { timeoutMs: 300 }));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.message).toMatch(/^fixture: tools\/call sleep timed out/);
    expect(text(await session.callTool('sleep', { ms: 1 }, { timeoutMs: 5000 }))).toBe('slept 1 ms');
    expect(starts()).toHaveLength(1);
  });

  it('a cancelled call is UPSTREAM_ERROR (cancelled), never a retry', async () => {
    const { session, starts } = fixture();
    await session.connect();
    const controller = new AbortController();
    const call = rejection(
      session.callTool('sleep', { ms: 5000 }, { timeoutMs: 10_000, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error('the caller gave up')), 100);
    const error = await call;
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toMatch(/^fixture: tools\/call sleep was cancelled: .*the caller gave up/);
    expect(session.connected).toBe(true);
    expect(starts()).toHaveLength(1);
  });

  it('a child that exits mid-call fails that call once, and the next call restarts the child', async () => {
    const { session, starts, logger } = fixture();
    expect(text(await session.callTool('echo', { text: 'first' }, { timeoutMs: 5000 }))).toBe('first');
    const [firstPid] = starts();

    const error = await rejection(session.callTool('exit', {}, { timeoutMs: 20_000 }));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(
      /^fixture: tools\/call exit failed: the server process ended during the call \(exit code 3\); the call may or may not have run$/,
    );
    expect(session.connected).toBe(false);
    // The failed call was not re-run: still one start, and no second `exit`.
    expect(starts()).toHaveLength(1);
    expect(
      logger.entries.some((e) => e.message === 'upstream MCP session lost; the next call reconnects'),
    ).toBe(true);

    expect(text(await session.callTool('echo', { text: 'second' }, { timeoutMs: 5000 }))).toBe('second');
    const all = starts();
    expect(all).toHaveLength(2);
    expect(all[1]).not.toBe(firstPid);
  });

  it('a command not found is UPSTREAM_CANNOT_START, named, and never spawned again', async () => {
    upstream = new UpstreamSession({
      name: 'missing',
      transport: { type: 'stdio', command: ['/nonexistent/xp-no-such-server'] },
      minReconnectMs: 1,
    });
    const error = await rejection(upstream.listTools());
    expect(error.code).toBe('UPSTREAM_CANNOT_START');
    expect(error.message).toBe('missing: command not found: /nonexistent/xp-no-such-server');
    await new Promise((r) => setTimeout(r, 20));
    // Past any backoff: the same error, without a new attempt.
    expect(await rejection(upstream.listTools())).toBe(error);

    const bare = new UpstreamSession({
      name: 'bare',
      transport: { type: 'stdio', command: ['xp-no-such-cmd-7f3a'] },
    });
    const onPath = await rejection(bare.listTools());
    await bare.close();
    expect(onPath.code).toBe('UPSTREAM_CANNOT_START');
    expect(onPath.message).toBe('bare: command not found on PATH: xp-no-such-cmd-7f3a');
  });

  it('a command that is not executable is UPSTREAM_CANNOT_START (permission denied)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-noexec-'));
    const file = join(dir, 'server.sh');
    writeFileSync(file, '#!/bin/sh\n', { mode: 0o644 });
    upstream = new UpstreamSession({ name: 'noexec', transport: { type: 'stdio', command: [file] } });
    const error = await rejection(upstream.listTools());
    rmSync(dir, { recursive: true, force: true });
    expect(error.code).toBe('UPSTREAM_CANNOT_START');
    expect(error.message).toBe(`noexec: command cannot be executed (permission denied): ${file}`);
  });

  it('a server that exits at once is UPSTREAM_UNAVAILABLE, then the backoff holds further attempts', async () => {
    upstream = new UpstreamSession({
      name: 'exits',
      transport: { type: 'stdio', command: [process.execPath, '-e', 'process.exit(3)'] },
      minReconnectMs: 10_000,
    });
    const error = await rejection(upstream.listTools());
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(/^exits: cannot connect to the command ".*node.*": /);
    // The caller schedules (and announces) retries; the message promises none.
    expect(error.message).not.toMatch(/next attempt/);
    const held = await rejection(upstream.listTools());
    expect(held.message).toMatch(
      /^exits: the server is down \(1 failed connection attempt\); next reconnect attempt in \d+ ms$/,
    );
  });

  it('close() during connect leaves no child behind', async () => {
    const { session, starts } = fixture();
    const connecting = session.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    // Wait until the child is up (it records its start), then close before initialize completes
    // or right after; either way nothing may stay running.
    for (let i = 0; i < 200 && starts().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await session.close();
    const error = await connecting;
    const pid = Number(starts()[0]);
    expect(pid).toBeGreaterThan(0);
    for (let i = 0; i < 300 && _alive(pid); i++) await new Promise((r) => setTimeout(r, 10));
    expect(_alive(pid)).toBe(false);
    expect(session.connected).toBe(false);
    if (error instanceof BridgeError) expect(error.code).toBe('CLOSED');
  });
});

function _alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
