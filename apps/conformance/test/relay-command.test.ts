// `xprotocol-conformance relay --url`: our relay passes every check (the limits check against a
// relay started with the limits it needs), and each broken relay (test/doubles/broken-relay.mjs,
// a proxy in front of ours that gets one rule wrong) fails exactly its check, named.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Relay, startRelay } from '@xprotocol/relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuiteBin } from './_run.js';

const DOUBLE = join(import.meta.dirname, 'doubles', 'broken-relay.mjs');
const CHECK_NAMES = [
  'framing',
  'event-checks',
  'freshness',
  'duplicates',
  'subscriptions',
  'filters',
  'reasons',
  'limits',
];

interface Report {
  relay: string;
  passed: boolean;
  checks: {
    name: string;
    status: string;
    notes: string[];
    failures: { what: string; sent: string; received: string; expected: string }[];
  }[];
}

let relay: Relay;
let limited: Relay;
const doubles: ChildProcess[] = [];

beforeAll(async () => {
  relay = await startRelay({ port: 0 });
  limited = await startRelay({ port: 0, eventsPerMinutePerKey: 2, maxStoredBytesPerKey: 2048 });
});
afterAll(async () => {
  for (const child of doubles) child.kill();
  await relay?.close();
  await limited?.close();
});

/** Starts a broken relay in front of ours; resolves with its URL. */
function startDouble(mode: string): Promise<string> {
  const child = spawn(process.execPath, [DOUBLE, mode, relay.url], { stdio: ['ignore', 'pipe', 'inherit'] });
  doubles.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`broken-relay ${mode} exited with ${code}`)));
  });
}

async function runRelayChecks(
  args: string[],
): Promise<{ code: number | null; report: Report; stderr: string }> {
  const { code, stdout, stderr } = await runSuiteBin(['relay', ...args, '--json']);
  expect(stdout, stderr).not.toBe('');
  return { code, report: JSON.parse(stdout) as Report, stderr };
}

describe('xprotocol-conformance relay --url', () => {
  it('passes our relay: every check but limits passes, and limits is skipped with a note (exit 0)', async () => {
    const { code, report } = await runRelayChecks(['--url', relay.url]);
    expect(report.checks.map((c) => [c.name, c.status])).toEqual(
      CHECK_NAMES.map((name) => [name, name === 'limits' ? 'skipped' : 'pass']),
    );
    expect(report.checks.find((c) => c.name === 'limits')!.notes.join('\n')).toContain(
      'needs a relay started with events_per_minute_per_key = 2',
    );
    expect(report.passed).toBe(true);
    expect(code).toBe(0);
  });

  it('passes the limits check against our relay started with the limits it names', async () => {
    const { code, report } = await runRelayChecks([
      '--url',
      limited.url,
      '--only',
      'limits',
      '--events-per-minute',
      '2',
      '--max-bytes-per-key',
      '2048',
    ]);
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([['limits', 'pass']]);
    expect(code).toBe(0);
  });

  it('refuses a command line without a ws:// URL (exit 2)', async () => {
    const { code, stderr } = await runSuiteBin(['relay', '--url', 'http://127.0.0.1:1']);
    expect(stderr).toContain('expected --url ws://HOST:PORT, got http://127.0.0.1:1');
    expect(code).toBe(2);
  });
});

describe.concurrent('a broken relay fails its check and no other', () => {
  for (const { mode, fails, names } of [
    { mode: 'freshness-before-dedupe', fails: 'duplicates', names: 'held-copy-past-freshness' },
    { mode: 'kinds-prefix', fails: 'filters', names: 'kinds-no-prefix' },
    { mode: 'notice-without-id', fails: 'event-checks', names: 'not-an-object' },
  ]) {
    it(`${mode} → only ${fails} fails (exit 1)`, async () => {
      const url = await startDouble(mode);
      const { code, report } = await runRelayChecks(['--url', url]);
      expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual([fails]);
      const failed = report.checks.find((c) => c.name === fails)!;
      expect(failed.failures.map((f) => f.what).join('\n')).toContain(names);
      for (const failure of failed.failures) {
        expect(failure.sent.length * failure.received.length * failure.expected.length).toBeGreaterThan(0);
      }
      expect(report.passed).toBe(false);
      expect(code).toBe(1);
    });
  }
});
