/**
 * The command line of `xprotocol-conformance relay --url ws://…` and its report: one line per
 * check, each failure with what was sent, received and expected, or the report as JSON. Exit
 * codes as for the adapter suite: 0 every check passed (or was skipped), 1 a check failed,
 * 2 a usage error (docs/conformance.md).
 * @module
 */
import { parseArgs } from 'node:util';
import {
  RELAY_CHECKS,
  type RelayCheckResult,
  type RelayReport,
  runRelaySuite,
  selectRelayChecks,
} from './relay-suite.js';

/** The usage of the `relay` command. */
const RELAY_USAGE = `Usage:
  xprotocol-conformance relay --url ws://HOST:PORT [options]
  xprotocol-conformance relay --list

Options:
  --url URL                 the relay to check (ws:// or wss://)
  --retention N             the relay's retention in seconds (its freshness window); default 3600
  --events-per-minute N     the relay's rate per signing key; the limits check runs only with 2
  --max-bytes-per-key N     the relay's stored bytes per key; the limits check runs only with 2048
  --timeout-ms N            how long to wait for each reply; default 5000
  --only NAME               run only this check (repeatable); --list shows the names
  --json                    print the report as JSON on stdout`;

const WHOLE = /^[1-9][0-9]*$/;

/** Runs `relay …`; resolves with the exit code. */
export async function relayMain(
  argv: readonly string[],
  io: { out(text: string): void; err(text: string): void; tty: boolean },
): Promise<number> {
  const usage = (message: string) => {
    io.err(`xprotocol-conformance relay: ${message}\n\n${RELAY_USAGE}\n`);
    return 2;
  };
  let values: ReturnType<typeof parse>['values'];
  let checks: ReturnType<typeof selectRelayChecks>;
  try {
    ({ values } = parse(argv));
    checks = selectRelayChecks(values.only ?? []);
  } catch (error) {
    return usage((error as Error).message);
  }
  if (values.help) {
    io.out(`${RELAY_USAGE}\n`);
    return 0;
  }
  if (values.list) {
    for (const check of RELAY_CHECKS) io.out(`${check.name.padEnd(14)} ${check.title}\n`);
    return 0;
  }
  if (!values.url || !/^wss?:\/\//.test(values.url))
    return usage(`expected --url ws://HOST:PORT, got ${values.url ?? 'none'}`);
  const numbers: Record<string, number> = {};
  for (const name of ['retention', 'events-per-minute', 'max-bytes-per-key', 'timeout-ms'] as const) {
    const raw = values[name];
    if (raw === undefined) continue;
    if (!WHOLE.test(raw)) return usage(`--${name} takes a positive whole number, got ${raw}`);
    numbers[name] = Number(raw);
  }
  const limits: Record<string, number> = {};
  if (numbers['events-per-minute'] !== undefined)
    limits.events_per_minute_per_key = numbers['events-per-minute'];
  if (numbers['max-bytes-per-key'] !== undefined)
    limits.max_stored_bytes_per_key = numbers['max-bytes-per-key'];
  const report = await runRelaySuite(
    checks,
    {
      url: values.url,
      retentionSeconds: numbers.retention ?? 3600,
      limits,
      timeoutMs: numbers['timeout-ms'] ?? 5000,
    },
    (result) => {
      if (!values.json) io.out(`${formatRelayCheck(result, io.tty)}\n`);
    },
  );
  io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatRelaySummary(report, io.tty)}\n`);
  return report.passed ? 0 : 1;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      url: { type: 'string' },
      retention: { type: 'string' },
      'events-per-minute': { type: 'string' },
      'max-bytes-per-key': { type: 'string' },
      'timeout-ms': { type: 'string' },
      only: { type: 'string', multiple: true },
      list: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
}

function paint(tty: boolean) {
  const wrap = (code: number) => (text: string) => (tty ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { green: wrap(32), red: wrap(31), dim: wrap(2), bold: wrap(1) };
}

/** One check's lines: its verdict, then each failure with what was sent, received and expected. */
function formatRelayCheck(result: RelayCheckResult, tty: boolean): string {
  const c = paint(tty);
  const mark =
    result.status === 'pass' ? c.green('✓') : result.status === 'skipped' ? c.dim('–') : c.red('✗');
  const lines = [
    `${mark} ${result.name.padEnd(14)} ${result.title} ${c.dim(`(${result.notes[0]}; ${(result.durationMs / 1000).toFixed(1)} s)`)}`,
  ];
  for (const note of result.notes.slice(1)) lines.push(`      ${c.dim(note)}`);
  for (const failure of result.failures) {
    lines.push(`      ${c.red('✗')} ${failure.what}`);
    lines.push(`        sent:     ${failure.sent}`);
    lines.push(`        received: ${failure.received}`);
    lines.push(`        expected: ${failure.expected}`);
  }
  return lines.join('\n');
}

function formatRelaySummary(report: RelayReport, tty: boolean): string {
  const c = paint(tty);
  const passed = report.checks.filter((check) => check.status === 'pass').length;
  const skipped = report.checks.filter((check) => check.status === 'skipped').length;
  const verdict = report.passed ? c.green('CONFORMANT') : c.red('NOT CONFORMANT');
  const tail = skipped > 0 ? ` (${skipped} skipped)` : '';
  return `\n${verdict}: ${passed}/${report.checks.length} relay checks passed${tail} against ${report.relay} in ${(report.durationMs / 1000).toFixed(1)} s`;
}
