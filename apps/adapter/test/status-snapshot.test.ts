// The status snapshot's writer side (docs/cli.md, "status"): the call tally by outcome and code,
// the last problems (warnings and errors only, a few known fields, one line each, never the rest
// of a log record), the logger tap that feeds them, and the reporter that writes the snapshot into
// a real state database file, where `readStatusRecord` reads it back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { XpEvent } from '@xprotocol/crypto';
import { type InboundOutcome, readStatusRecord, StateDatabase } from '@xprotocol/mcp-bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/runtime/logger.js';
import { tapProblems } from '../src/runtime/logger-tap.js';
import { StatusReporter, type StatusSources } from '../src/runtime/status-reporter.js';
import {
  CallTally,
  RecentProblems,
  STATUS_HEARTBEAT_MS,
  type StatusSnapshot,
} from '../src/runtime/status-snapshot.js';

const answer = {} as XpEvent;
const request = (kind: string) => ({ kind }) as XpEvent;
const SERVED: InboundOutcome = { action: 'answered', kind: 'com.a.read.result', code: undefined, answer };
const refused = (code: 'NOT_FOUND' | 'RATE_LIMITED', message: string): InboundOutcome => ({
  action: 'answered',
  kind: 'xp.error',
  code,
  message,
  answer,
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('CallTally', () => {
  it('counts served, refused by code and dropped; ignores what is never answered', () => {
    const tally = new CallTally();
    expect(tally.record(SERVED, request('com.a.read'), 1_000)).toBe(true);
    expect(tally.record(refused('NOT_FOUND', 'no schema com.a.x here'), request('com.a.x'), 2_000)).toBe(
      true,
    );
    expect(tally.record(refused('RATE_LIMITED', 'slow down'), request('com.a.read'), 3_000)).toBe(true);
    expect(tally.record(refused('NOT_FOUND', 'no schema com.a.y here'), request('com.a.y'), 4_000)).toBe(
      true,
    );
    expect(tally.record({ action: 'dropped', reason: 'signature: bad' }, undefined, 5_000)).toBe(true);
    expect(tally.record({ action: 'ignored', reason: 'our own event' }, undefined, 6_000)).toBe(false);
    expect(tally.counts()).toEqual({
      served: 1,
      refused: 3,
      dropped: 1,
      refused_by_code: { NOT_FOUND: 2, RATE_LIMITED: 1 },
      last_refused: [
        {
          at: new Date(2_000).toISOString(),
          kind: 'com.a.x',
          code: 'NOT_FOUND',
          message: 'no schema com.a.x here',
        },
        { at: new Date(3_000).toISOString(), kind: 'com.a.read', code: 'RATE_LIMITED', message: 'slow down' },
        {
          at: new Date(4_000).toISOString(),
          kind: 'com.a.y',
          code: 'NOT_FOUND',
          message: 'no schema com.a.y here',
        },
      ],
    });
  });

  it('keeps only the last 5 refusals, and the count of all of them', () => {
    const tally = new CallTally();
    for (let i = 0; i < 8; i++) tally.record(refused('NOT_FOUND', `refusal ${i}`), request('com.a.x'), i);
    const counts = tally.counts();
    expect(counts.refused).toBe(8);
    expect(counts.last_refused.map((r) => r.message)).toEqual([3, 4, 5, 6, 7].map((i) => `refusal ${i}`));
  });
});

describe('RecentProblems', () => {
  it('keeps warnings and errors with a few known fields, never the rest of the record', () => {
    const problems = new RecentProblems();
    expect(problems.record('info', { source: 'fs' }, 'not a problem', 1)).toBe(false);
    expect(problems.record('debug', {}, 'not a problem either', 1)).toBe(false);
    // `start` raises the ready line to the logger's level so tools see it: a lifecycle event, not a problem.
    expect(problems.record('warn', { event: 'ready', relays: [] }, 'adapter ready', 1)).toBe(false);
    problems.record(
      'warn',
      { source: 'fs', env: { API_TOKEN: 'tok-123' }, token: 'tok-456', retryInSeconds: 3 },
      'cannot reach MCP source "fs": it exited\n  stderr: something the child said',
      2_000,
    );
    problems.record(
      'error',
      { relay: 'ws://127.0.0.1:1', code: 'X', kind: 'com.a.read' },
      'x'.repeat(500),
      3_000,
    );
    const list = problems.list();
    expect(list).toEqual([
      {
        at: new Date(2_000).toISOString(),
        level: 'warn',
        source: 'fs',
        message: 'cannot reach MCP source "fs": it exited',
      },
      {
        at: new Date(3_000).toISOString(),
        level: 'error',
        relay: 'ws://127.0.0.1:1',
        code: 'X',
        kind: 'com.a.read',
        message: `${'x'.repeat(299)}…`,
      },
    ]);
    expect(JSON.stringify(list)).not.toMatch(/tok-/);
  });

  it('keeps the last 20', () => {
    const problems = new RecentProblems();
    for (let i = 0; i < 25; i++) problems.record('warn', {}, `problem ${i}`, i);
    expect(problems.list().map((p) => p.message)).toEqual(
      Array.from({ length: 20 }, (_, i) => `problem ${i + 5}`),
    );
  });
});

describe('tapProblems', () => {
  it('hands warnings and errors to the listener; the logger still writes and filters as configured', () => {
    const written: string[] = [];
    const logger = createLogger(
      { level: 'error', format: 'json', output: 'stderr' },
      { stderr: { write: (line: string) => written.push(line) } },
    );
    const heard: string[] = [];
    const tapped = tapProblems(logger, (level, _fields, message) => heard.push(`${level} ${message}`));
    tapped.info({}, 'an info line');
    tapped.warn({ source: 'fs' }, 'a warning');
    tapped.error({}, 'an error');
    expect(heard).toEqual(['warn a warning', 'error an error']);
    expect(written.join('')).toContain('an error');
    expect(written.join('')).not.toContain('a warning');
    expect(tapped.level).toBe('error');
  });

  it('a listener that throws never breaks the logging', () => {
    const written: string[] = [];
    const logger = createLogger(
      { level: 'info', format: 'json', output: 'stderr' },
      { stderr: { write: (line: string) => written.push(line) } },
    );
    const tapped = tapProblems(logger, () => {
      throw new Error('boom');
    });
    expect(() => tapped.warn({}, 'still written')).not.toThrow();
    expect(written.join('')).toContain('still written');
  });
});

describe('StatusReporter', () => {
  it('writes the snapshot into the state database: at start, after a change, and a stop record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-status-'));
    dirs.push(dir);
    const path = join(dir, 'state.db');
    const state = new StateDatabase(path);
    let connected = false;
    const reporter = new StatusReporter({
      mode: 'xprotocol',
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      pid: 4242,
      now: () => 10_000,
      refreshMs: 3_600_000,
      settleMs: 1,
    });
    // Heard before the state database is open: kept, and in the first snapshot.
    reporter.problem('warn', { code: 'EARLY' }, 'logged before the state database opened');
    const sources: StatusSources = {
      state,
      key: `ed25519:${'a'.repeat(64)}`,
      health: () => ({
        sources: [
          {
            name: 'fs',
            transport: 'stdio',
            url: undefined,
            connected,
            toolCount: connected ? 14 : 0,
            quarantined: [],
            error: connected ? undefined : 'cannot connect\n  stderr: the child said this',
          },
        ],
        xprotocolSources: [],
        relays: [
          { url: 'ws://127.0.0.1:1', state: 'connecting', lastError: 'connect ECONNREFUSED 127.0.0.1:1' },
        ],
      }),
    };
    try {
      await reporter.start(sources);
      const first = readStatusRecord(path)!;
      expect(first).toMatchObject({ pid: 4242, startedAt: 10_000, writtenAt: 10_000, stoppedAt: undefined });
      expect(first.snapshot).toEqual({
        mode: 'xprotocol',
        phase: 'starting',
        key: `ed25519:${'a'.repeat(64)}`,
        chain: null,
        sources: [
          {
            name: 'fs',
            transport: 'stdio',
            url: null,
            connected: false,
            tools: 0,
            waiting_approval: 0,
            last_error: 'cannot connect',
          },
        ],
        xprotocol_sources: [],
        relays: [
          { url: 'ws://127.0.0.1:1', connected: false, last_error: 'connect ECONNREFUSED 127.0.0.1:1' },
        ],
        calls: { served: 0, refused: 0, dropped: 0, refused_by_code: {}, last_refused: [] },
        errors: [
          {
            at: new Date(10_000).toISOString(),
            level: 'warn',
            code: 'EARLY',
            message: 'logged before the state database opened',
          },
        ],
      } satisfies StatusSnapshot);

      connected = true;
      reporter.ready();
      reporter.outcome(SERVED, request('com.a.read'));
      reporter.problem('warn', { relay: 'ws://127.0.0.1:1' }, 'cannot reach relay');
      const deadline = Date.now() + 10_000;
      let snapshot = readStatusRecord(path)!.snapshot as StatusSnapshot;
      while (snapshot.calls.served === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        snapshot = readStatusRecord(path)!.snapshot as StatusSnapshot;
      }
      expect(snapshot).toMatchObject({
        phase: 'ready',
        sources: [{ connected: true, tools: 14, last_error: null }],
        calls: { served: 1 },
        errors: [
          { code: 'EARLY' },
          { level: 'warn', relay: 'ws://127.0.0.1:1', message: 'cannot reach relay' },
        ],
      });
    } finally {
      await reporter.stop();
      await state.close();
    }
    expect(readStatusRecord(path)).toMatchObject({ pid: 4242, stoppedAt: 10_000 });
    expect((readStatusRecord(path)!.snapshot as StatusSnapshot).phase).toBe('stopping');
  });

  it('rewrites a snapshot that did not change only every 5 s, to say it is alive', async () => {
    const saves: { writtenAt: number; stoppedAt?: number | undefined }[] = [];
    let reads = 0;
    let clock = 100_000;
    const reporter = new StatusReporter({
      mode: 'mcp_gateway',
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      now: () => clock,
      refreshMs: 1,
    });
    await reporter.start({
      state: { saveStatus: async (record) => void saves.push(record) },
      key: undefined,
      health: () => {
        reads++;
        return { sources: [], xprotocolSources: [], relays: [] };
      },
    });
    const until = async (what: string, condition: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    try {
      await until('ten reads of the health', () => reads >= 10);
      expect(saves.map((s) => s.writtenAt)).toEqual([100_000]);
      clock += STATUS_HEARTBEAT_MS;
      await until('a second write', () => saves.length === 2);
      expect(saves[1]!.writtenAt).toBe(100_000 + STATUS_HEARTBEAT_MS);
    } finally {
      await reporter.stop();
    }
    expect(saves.at(-1)).toMatchObject({ stoppedAt: clock });
  });
});
