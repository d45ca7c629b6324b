/**
 * The report in three forms: a readable summary (coloured on a TTY), JSON (`--json`) and JUnit
 * XML (`--junit FILE`) for CI systems.
 * @module
 */
import type { CheckResult } from './check.js';
import type { SuiteReport } from './suite.js';

function _paint(tty: boolean) {
  const wrap = (code: number) => (text: string) => (tty ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { green: wrap(32), red: wrap(31), dim: wrap(2), bold: wrap(1) };
}

/** One check's lines: a verdict line, then each failure with what was sent, received and expected. */
export function formatCheck(result: CheckResult, tty: boolean): string {
  const c = _paint(tty);
  const mark = result.status === 'pass' ? c.green('✓') : result.status === 'absent' ? c.dim('–') : c.red('✗');
  const tail = result.optional ? c.dim(` [optional${result.status === 'absent' ? ': absent' : ''}]`) : '';
  const lines = [
    `${mark} ${String(result.number).padStart(2)}. ${result.name.padEnd(17)} ${result.title}${tail} ${c.dim(`(${(result.durationMs / 1000).toFixed(1)} s)`)}`,
  ];
  if (result.status === 'absent')
    lines.push(`      ${c.dim(result.notes.find((n) => n.startsWith('absent: ')) ?? '')}`);
  for (const f of result.failures) {
    lines.push(`      ${c.red('✗')} ${f.what}`);
    lines.push(`        sent:     ${f.sent}`);
    lines.push(`        received: ${f.received}`);
    lines.push(`        expected: ${f.expected}`);
  }
  return lines.join('\n');
}

/** The closing summary: the mandatory behaviours, the optional ones, the verdict and the duration. */
export function formatSummary(report: SuiteReport, tty: boolean): string {
  const c = _paint(tty);
  const lines = ['', c.bold("Mandatory behaviours (the spec's MUST list)")];
  for (const must of report.musts) {
    const mark = must.status === 'proven' ? c.green('✓') : must.status === 'failed' ? c.red('✗') : c.dim('–');
    const proof =
      must.status === 'not applicable' ? 'not applicable to a native endpoint' : must.checks.join(', ');
    lines.push(`${mark} ${String(must.number).padStart(2)}. ${must.text} ${c.dim(`[${proof}]`)}`);
  }
  lines.push('', c.bold("Optional behaviours (the spec's MAY list)"));
  for (const o of report.optional)
    lines.push(`  ${o.status.padEnd(10)} ${o.behaviour} ${c.dim(`(${o.how})`)}`);
  const passed = report.checks.filter((r) => r.status === 'pass').length;
  const absent = report.checks.filter((r) => r.status === 'absent').length;
  const verdict = report.passed ? c.green('CONFORMANT') : c.red('NOT CONFORMANT');
  lines.push(
    '',
    `${verdict}: ${passed}/${report.checks.length} checks passed${absent > 0 ? ` (${absent} optional absent)` : ''} against ${report.target.adapter} (${report.target.profile} profile) in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  return lines.join('\n');
}

function _xml(text: string): string {
  return (
    text
      .replace(/[<>&"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[ch]!)
      // XML 1.0 forbids most control characters, even escaped.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

/** JUnit XML: one test case per check, its failures in one `failure` element. */
export function formatJunit(report: SuiteReport): string {
  const failures = report.checks.filter((r) => r.status === 'fail').length;
  const skipped = report.checks.filter((r) => r.status === 'absent').length;
  const cases = report.checks.map((r) => {
    const name = _xml(`${r.number}. ${r.name}: ${r.title}`);
    const head = `    <testcase classname="xprotocol-conformance" name="${name}" time="${(r.durationMs / 1000).toFixed(3)}"`;
    if (r.status === 'pass') return `${head}/>`;
    if (r.status === 'absent') {
      const why = r.notes.find((n) => n.startsWith('absent: ')) ?? 'absent';
      return `${head}>\n      <skipped message="${_xml(`optional behaviour ${why}`)}"/>\n    </testcase>`;
    }
    const body = r.failures
      .map((f) => `${f.what}\n  sent: ${f.sent}\n  received: ${f.received}\n  expected: ${f.expected}`)
      .join('\n');
    return `${head}>\n      <failure message="${_xml(r.failures[0]?.what ?? 'failed')}">${_xml(body)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="xprotocol-conformance" tests="${report.checks.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="xprotocol-conformance" tests="${report.checks.length}" failures="${failures}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
