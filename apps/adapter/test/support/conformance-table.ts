/**
 * The conformance matrix as text: the markdown table docs/conformance.md shows (scenario counts
 * per cell and the scenarios where the gateway or XProtocol differ from the server directly), and
 * the failed checks behind each difference.
 * @module
 */
import { differences, type MatrixRow, passed, type RunOutcome } from './conformance-matrix.js';

/** `passed/run`, or `error` for a run that gave no results. */
function count(outcome: RunOutcome): string {
  return 'results' in outcome ? `${passed(outcome).length}/${outcome.results.size}` : 'error';
}

/** Differences of one target, or `—`. */
function listed(label: string, diff: string[]): string {
  return diff.length === 0 ? '' : `${label}: ${diff.map((d) => `\`${d}\``).join(', ')}`;
}

/** The markdown table: one line per server × requirements × setting. */
export function matrixTable(rows: readonly MatrixRow[]): string {
  const head = [
    '| server | `--requirements` | `mcp_revision` | direct | G | X | where G or X differ from direct |',
    '|---|---|---|---|---|---|---|',
  ];
  const lines = rows.map((row) => {
    const diff = [
      listed('G', differences(row.direct, row.gateway)),
      listed('X', differences(row.direct, row.across)),
    ].filter(Boolean);
    const setting = row.setting === 'default' ? 'default' : `\`${row.setting}\``;
    return `| ${row.server} | ${row.requirements} | ${setting} | ${count(row.direct)} | ${count(row.gateway)} | ${count(row.across)} | ${diff.length ? diff.join('; ') : 'none'} |`;
  });
  return [...head, ...lines].join('\n');
}

/** True when some row's gateway or XProtocol run differs from its direct run. */
export function anyDifference(rows: readonly MatrixRow[]): boolean {
  return rows.some(
    (row) =>
      'error' in row.direct ||
      differences(row.direct, row.gateway).length > 0 ||
      differences(row.direct, row.across).length > 0,
  );
}

/** For each difference, the failed checks that make it (what a reader needs to find the cause). */
export function matrixDetails(rows: readonly MatrixRow[]): string {
  const out: string[] = [];
  for (const row of rows) {
    const label = `${row.server} ${row.requirements} ${row.setting}`;
    if ('error' in row.direct) out.push(`${label} direct: ${row.direct.error}`);
    for (const [target, outcome] of [
      ['G', row.gateway],
      ['X', row.across],
    ] as const) {
      if ('error' in outcome) {
        out.push(`${label} ${target}: ${outcome.error}`);
        continue;
      }
      for (const diff of differences(row.direct, outcome)) {
        const name = diff.slice(1);
        const failed = diff.startsWith('-') ? outcome.results.get(name) : undefined;
        const directFailed =
          diff.startsWith('+') && 'results' in row.direct ? row.direct.results.get(name) : undefined;
        const why = (failed ?? directFailed)?.failures.join('\n      ') ?? 'not run';
        out.push(`${label} ${target} ${diff}:\n      ${why}`);
      }
    }
  }
  return out.join('\n');
}
