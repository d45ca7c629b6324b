// What `xprotocol-adapter status` makes of the record it read (docs/cli.md, "status"): running, or
// not running because the adapter stopped, its pid is gone (a real process that exited) or the
// record is older than the bound; and how each reads, as text (what a server said escaped, no
// chain said so) and as JSON.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { statusText } from '../src/cli/status-text.js';
import { type AdapterStatusRecord, judgeStatus, pidAlive, statusJson } from '../src/cli/status-verdict.js';
import { STATUS_STALE_MS, type StatusSnapshot } from '../src/runtime/status-snapshot.js';

const KEY = `ed25519:${'b'.repeat(64)}`;
const NOW = Date.parse('2026-05-01T12:00:00Z');

function snapshot(overrides: Partial<StatusSnapshot> = {}): StatusSnapshot {
  return {
    mode: 'xprotocol',
    phase: 'ready',
    key: KEY,
    chain: null,
    sources: [
      {
        name: 'fs',
        transport: 'stdio',
        url: null,
        connected: true,
        tools: 14,
        waiting_approval: 0,
        last_error: null,
      },
      {
        name: 'api',
        transport: 'streamable_http',
        url: 'https://api.example/mcp',
        connected: false,
        tools: 0,
        waiting_approval: 2,
        last_error: 'cannot connect: \u001b[2Jclear screen',
      },
    ],
    xprotocol_sources: [],
    relays: [
      { url: 'ws://127.0.0.1:8765', connected: true, last_error: null },
      { url: 'wss://relay.example', connected: false, last_error: 'connect ECONNREFUSED' },
    ],
    calls: {
      served: 3,
      refused: 2,
      dropped: 1,
      refused_by_code: { NOT_FOUND: 1, AUTHORIZATION_INSUFFICIENT: 1 },
      last_refused: [
        {
          at: new Date(NOW - 5_000).toISOString(),
          kind: 'com.a.x',
          code: 'NOT_FOUND',
          message: 'no schema com.a.x here',
        },
      ],
    },
    errors: [
      {
        at: new Date(NOW - 60_000).toISOString(),
        level: 'warn',
        relay: 'wss://relay.example',
        message: 'cannot reach relay',
      },
    ],
    ...overrides,
  };
}

function record(overrides: Partial<AdapterStatusRecord> = {}): AdapterStatusRecord {
  return {
    pid: process.pid,
    startedAt: NOW - 125_000,
    writtenAt: NOW - 1_000,
    stoppedAt: undefined,
    snapshot: snapshot(),
    ...overrides,
  };
}

/** The pid of a process that has exited (it ran and was reaped). */
function goneProcess(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe('judgeStatus', () => {
  it('running: a recent record of a live pid that did not stop', () => {
    expect(judgeStatus(record(), NOW, pidAlive)).toMatchObject({ running: true });
  });

  it('not running: stopped, pid gone, record older than the bound', () => {
    expect(judgeStatus(record({ stoppedAt: NOW - 3_000 }), NOW, pidAlive)).toMatchObject({
      running: false,
      reason: 'stopped',
    });
    const gone = goneProcess();
    expect(pidAlive(gone)).toBe(false);
    expect(judgeStatus(record({ pid: gone }), NOW, pidAlive)).toMatchObject({
      running: false,
      reason: 'pid_gone',
    });
    expect(judgeStatus(record({ writtenAt: NOW - STATUS_STALE_MS - 1 }), NOW, pidAlive)).toMatchObject({
      running: false,
      reason: 'stale',
    });
    expect(judgeStatus(record({ writtenAt: NOW - STATUS_STALE_MS }), NOW, pidAlive)).toMatchObject({
      running: true,
    });
  });
});

describe('statusText', () => {
  it('says what runs: pid, uptime, key, chain, each source and relay, the calls and the last errors', () => {
    const text = statusText(judgeStatus(record(), NOW, pidAlive), 'data/state.db', NOW);
    expect(text.split('\n')).toEqual([
      `running: pid ${process.pid}, up 2 min 5 s (since 2026-05-01T11:57:55.000Z), last report 1 s ago`,
      `key: ${KEY}`,
      'chain: no chain',
      'state database: data/state.db',
      'mcp sources:',
      '  fs (stdio): connected, 14 tools',
      '  api (streamable_http https://api.example/mcp): not connected, 0 tools, 2 waiting for approval; last error: cannot connect: \\u{001B}[2Jclear screen',
      'relays:',
      '  ws://127.0.0.1:8765: connected',
      '  wss://relay.example: not connected; last error: connect ECONNREFUSED',
      'calls since start: 3 served, 2 refused (AUTHORIZATION_INSUFFICIENT 1, NOT_FOUND 1), 1 dropped',
      'last refused:',
      '  2026-05-01T11:59:55.000Z com.a.x NOT_FOUND: no schema com.a.x here',
      'last errors:',
      '  2026-05-01T11:59:00.000Z warn wss://relay.example: cannot reach relay',
      '',
    ]);
  });

  it('shows a chain with its root, links, capabilities and when it expires', () => {
    const chained = snapshot({
      chain: {
        root: `ed25519:${'c'.repeat(64)}`,
        links: 2,
        capabilities: ['com.a.read', 'com.b.*'],
        expires_at: '2026-05-11T12:00:00.000Z',
      },
    });
    const text = statusText(judgeStatus(record({ snapshot: chained }), NOW, pidAlive), 'data/state.db', NOW);
    expect(text).toContain(
      `chain: 2 links from root ed25519:${'c'.repeat(64)}, capabilities com.a.read, com.b.*; expires 2026-05-11T12:00:00.000Z (in 10 d)`,
    );
  });

  it('not running: says why, when it was last seen, and its pid', () => {
    const gone = goneProcess();
    expect(
      statusText(judgeStatus(record({ pid: gone, writtenAt: NOW - 12_000 }), NOW, pidAlive), '/s.db', NOW),
    ).toMatch(new RegExp(`^not running \\(last seen 12 s ago, pid ${gone} gone\\)\n`));
    expect(
      statusText(
        judgeStatus(record({ stoppedAt: NOW - 4_000, writtenAt: NOW - 4_000 }), NOW, pidAlive),
        '/s.db',
        NOW,
      ),
    ).toMatch(new RegExp(`^not running \\(stopped 4 s ago, pid ${process.pid}\\)\n`));
    expect(statusText(judgeStatus(record({ writtenAt: NOW - 60_000 }), NOW, pidAlive), '/s.db', NOW)).toMatch(
      new RegExp(
        `^not running \\(last seen 1 min 0 s ago; pid ${process.pid} exists but wrote nothing since: stuck, or the pid is another process's now\\)\n`,
      ),
    );
    expect(statusText({ running: false, reason: 'never_ran', why: 'no status in /s.db' }, '/s.db', NOW)).toBe(
      'not running (no adapter has run with this config: no status in /s.db)\n',
    );
  });
});

describe('statusJson', () => {
  it('is the snapshot with the verdict, the pid and the times', () => {
    expect(statusJson(judgeStatus(record(), NOW, pidAlive), 'data/state.db')).toEqual({
      running: true,
      state_database: 'data/state.db',
      pid: process.pid,
      started_at: '2026-05-01T11:57:55.000Z',
      written_at: '2026-05-01T11:59:59.000Z',
      stopped_at: null,
      ...snapshot(),
    });
    expect(statusJson({ running: false, reason: 'never_ran', why: 'no status in /s.db' }, '/s.db')).toEqual({
      running: false,
      reason: 'never_ran',
      why: 'no status in /s.db',
      state_database: '/s.db',
    });
    expect(statusJson(judgeStatus(record({ stoppedAt: NOW - 4_000 }), NOW, pidAlive), '/s.db')).toMatchObject(
      { running: false, reason: 'stopped', stopped_at: '2026-05-01T11:59:56.000Z', key: KEY },
    );
  });
});
