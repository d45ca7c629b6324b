#!/usr/bin/env node
/**
 * Runs every `auth/…` client scenario of the official conformance runner (pinned below) with
 * scripts/conformance-auth-client.mjs, the adapter, as the client under test, one scenario at a
 * time (each starts a relay, `login` and the adapter; the runner's own `--suite auth` starts all
 * at once, too many for a small machine). Prints one line per scenario (checks passed / failed /
 * warnings, and the runner's verdict) and exits 1 when any scenario did not pass
 * (docs/conformance.md, "OAuth client: the auth suite").
 *
 *   node scripts/conformance-auth-suite.mjs [auth/scenario …]
 * @module
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNNER = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const client = join(dirname(fileURLToPath(import.meta.url)), 'conformance-auth-client.mjs');
const env = { ...process.env, npm_config_engine_strict: 'false' };

/** Runs the runner with `args`; its output. */
function conformance(args) {
  const run = spawnSync('npx', ['-y', '-p', 'node@22', '-p', RUNNER, 'conformance', ...args], {
    env,
    encoding: 'utf8',
    timeout: 6 * 60_000,
    killSignal: 'SIGKILL',
  });
  return `${run.stdout ?? ''}${run.stderr ?? ''}`;
}

const scenarios =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [...conformance(['list', '--client']).matchAll(/^\s*- (auth\/\S+)/gm)].map((match) => match[1]);
let failed = 0;
for (const scenario of scenarios) {
  const log = conformance([
    'client',
    '--command',
    `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`,
    '--scenario',
    scenario,
    '--timeout',
    '240000',
  ]);
  const counts = /^Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/m.exec(log);
  const passed = log.includes('OVERALL: PASSED');
  if (!passed) failed++;
  const problems = [...log.matchAll(/^\s+- ([^\n]+)/gm)].map((match) => match[1]).slice(0, 3);
  process.stdout.write(
    `${passed ? 'pass' : 'FAIL'} ${scenario}: ${counts ? `${counts[1]}/${counts[2]} checks, ${counts[4]} warnings` : 'no result'}${passed ? '' : `; ${problems.join('; ') || 'the client failed'}`}\n`,
  );
}
process.exit(failed === 0 ? 0 : 1);
