// Runs the official MCP conformance runner (@modelcontextprotocol/conformance, pinned): its server
// suite against a URL, and its client scenarios against a client command; reads the per-scenario
// results. The runner needs Node 22: npx fetches the `node@22`
// package and the runner from the npm registry (the one network use of the tests besides loopback).
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** One scenario's checks. */
export interface ScenarioResult {
  passed: number;
  failed: number;
  warnings: number;
  failures: string[];
}

/** A pinned runner: the npm version and the extra arguments it takes. */
export interface ConformanceRunner {
  version: string;
  args: readonly string[];
}

/**
 * Fetches the runner and Node 22 into npx's cache once (`conformance --help`), so that parallel
 * runs afterwards do not race to install the same package.
 */
export async function fetchConformance(
  runner: ConformanceRunner,
  cwd: string,
  timeoutMs: number,
): Promise<void> {
  const args = [
    '-y',
    '-p',
    'node@22',
    '-p',
    `@modelcontextprotocol/conformance@${runner.version}`,
    'conformance',
    '--help',
  ];
  const env = { ...process.env, npm_config_engine_strict: 'false' };
  const child = spawn('npx', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  const code = await _exit(child, timeoutMs);
  if (code !== 0) {
    throw new Error(
      `npx could not fetch conformance@${runner.version} and node@22 (exit ${code}):\n${log.slice(-4000)}`,
    );
  }
}

/** Resolves with the exit code; past `timeoutMs` the child's process group is killed. */
function _exit(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
}

/** The suite run against `url`, results written under `out`; every scenario's checks by name. */
export async function runConformance(
  runner: ConformanceRunner,
  url: string,
  out: string,
  cwd: string,
  timeoutMs: number,
): Promise<Map<string, ScenarioResult>> {
  const args = [
    '-y',
    '-p',
    'node@22',
    '-p',
    `@modelcontextprotocol/conformance@${runner.version}`,
    'conformance',
    'server',
    '--url',
    url,
    '-o',
    out,
    ...runner.args,
  ];
  // The runner's own dependencies want Node 22: the repo's engine-strict (pnpm passes it down as
  // npm_config_engine_strict) must not apply to it.
  const env = { ...process.env, npm_config_engine_strict: 'false' };
  // Its own process group, so a timeout ends npx and the Node 22 runner under it.
  const child: ChildProcess = spawn('npx', args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env,
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  const code = await _exit(child, timeoutMs);
  let entries: string[];
  try {
    entries = readdirSync(out);
  } catch {
    throw new Error(
      `conformance@${runner.version} against ${url} wrote no results (exit ${code}):\n${log.slice(-4000)}`,
    );
  }
  const results = new Map<string, ScenarioResult>();
  for (const entry of entries) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (name === undefined) continue;
    let checks: { status: string; name: string; errorMessage?: string }[];
    try {
      checks = JSON.parse(readFileSync(join(out, entry, 'checks.json'), 'utf8'));
    } catch {
      checks = [{ status: 'FAILURE', name: 'NoChecks', errorMessage: 'no checks.json written' }];
    }
    const count = (status: string) => checks.filter((check) => check.status === status).length;
    results.set(name, {
      passed: count('SUCCESS'),
      failed: count('FAILURE'),
      warnings: count('WARNING'),
      failures: checks
        .filter((check) => check.status === 'FAILURE')
        .map((check) => `${check.name}: ${check.errorMessage ?? ''}`.slice(0, 300)),
    });
  }
  if (results.size === 0) {
    throw new Error(
      `conformance@${runner.version} against ${url} reported no scenario (exit ${code}):\n${log.slice(-4000)}`,
    );
  }
  return results;
}

/** The scenarios that ran without a failed check, sorted. */
export function passing(results: Map<string, ScenarioResult>): string[] {
  return [...results]
    .filter(([, r]) => r.failed === 0)
    .map(([name]) => name)
    .sort();
}

/** One line per target: scenarios without a failed check, and checks passed/failed. */
export function summary(label: string, results: Record<string, Map<string, ScenarioResult>>): string {
  return Object.entries(results)
    .map(([target, r]) => {
      const checks = [...r.values()];
      const passed = checks.reduce((n, c) => n + c.passed, 0);
      const failed = checks.reduce((n, c) => n + c.failed, 0);
      const warned = checks.reduce((n, c) => n + c.warnings, 0);
      return `${label} ${target}: ${passing(r).length}/${r.size} scenarios, checks ${passed} passed / ${failed} failed / ${warned} warnings`;
    })
    .concat(
      // Scenarios that pass everywhere but score a different number of checks through the adapter.
      [...results.direct!].flatMap(([name, d]) =>
        Object.entries(results)
          .filter(([target, r]) => target !== 'direct' && r.get(name)?.passed !== d.passed)
          .map(
            ([target, r]) =>
              `${label} ${name}: checks passed direct ${d.passed} (w${d.warnings}), ${target} ${r.get(name)?.passed} (w${r.get(name)?.warnings})`,
          ),
      ),
    )
    .join('\n');
}

/** One client scenario's outcome: its checks by status, and whether the runner passed it. */
export interface ClientScenarioResult extends ScenarioResult {
  /** The runner's own verdict (`OVERALL: PASSED`): every check passed and the client exited 0. */
  overall: boolean;
  /** The runner's output, for a readable failure. */
  log: string;
}

/**
 * Runs one scenario of the runner's client side (`conformance client --scenario`) with
 * `command` as the client under test (the runner appends the scenario's server URL), results
 * under `out`; past `timeoutMs` the runner's process group is killed.
 */
export async function runClientScenario(
  runner: ConformanceRunner,
  command: string,
  scenario: string,
  out: string,
  cwd: string,
  timeoutMs: number,
): Promise<ClientScenarioResult> {
  const args = [
    '-y',
    '-p',
    'node@22',
    '-p',
    `@modelcontextprotocol/conformance@${runner.version}`,
    'conformance',
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    // The runner's own bound on the client, inside this one.
    '--timeout',
    String(Math.max(30_000, timeoutMs - 30_000)),
    '-o',
    out,
    ...runner.args,
  ];
  const env = { ...process.env, npm_config_engine_strict: 'false' };
  const child = spawn('npx', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  await _exit(child, timeoutMs);
  const folder = join(out, dirname(scenario));
  const entry = readdirSync(folder, { withFileTypes: true })
    .map((e) => e.name)
    .filter((name) => name.startsWith(`${basename(scenario)}-`))
    .sort()
    .pop();
  let checks: { status: string; name: string; errorMessage?: string }[] = [];
  try {
    checks = JSON.parse(readFileSync(join(folder, entry ?? '-', 'checks.json'), 'utf8'));
  } catch {
    checks = [{ status: 'FAILURE', name: 'NoChecks', errorMessage: 'no checks.json written' }];
  }
  const count = (status: string) => checks.filter((check) => check.status === status).length;
  return {
    passed: count('SUCCESS'),
    failed: count('FAILURE'),
    warnings: count('WARNING'),
    failures: checks
      .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
      .map((check) => `${check.name}: ${check.errorMessage ?? ''}`.slice(0, 300)),
    overall: log.includes('OVERALL: PASSED'),
    log: log.replace(/^npm warn EBADENGINE.*\n/gm, '').slice(-4000),
  };
}
