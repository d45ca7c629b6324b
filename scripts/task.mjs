#!/usr/bin/env node
// The README's two entry points: `npm test` and `npm run demo`.
// A fresh machine has only Node and npm, so this script brings pnpm (from the npm registry, pinned
// to the version in package.json#packageManager), installs the frozen lockfile, builds every
// package, and then runs the task. Nothing here needs a global install.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmVersion = String(pkg.packageManager).replace(/^pnpm@/, '');

const [major, minor] = process.versions.node.split('.').map(Number);
// The packages' CommonJS entries load their ES modules through require(esm), on by default from
// 20.19 on the 20 line and from 22.12 on the 22 line (docs/architecture.md, "Packaging").
if (major < 20 || (major === 20 && minor < 19) || major === 21 || (major === 22 && minor < 12)) {
  console.error(
    `Node ${process.versions.node} is not supported: this project needs Node ^20.19 or >= 22.12.`,
  );
  process.exit(1);
}

let pinnedPnpmOnPath;
/** The command line that runs pnpm with the pinned version: the one on PATH when it matches, else npx. */
function pnpmCommand(args) {
  if (pinnedPnpmOnPath === undefined) {
    const onPath = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: false });
    pinnedPnpmOnPath = onPath.status === 0 && onPath.stdout.trim() === pnpmVersion;
  }
  console.error(`> pnpm ${args.join(' ')}`);
  return pinnedPnpmOnPath ? ['pnpm', args] : ['npx', ['-y', `pnpm@${pnpmVersion}`, ...args]];
}
const pnpmEnv = () => ({ ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' });

/** Runs pnpm and exits with its status when it fails. */
function pnpm(args) {
  const [cmd, cmdArgs] = pnpmCommand(args);
  const result = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', env: pnpmEnv() });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Runs pnpm beside other work and resolves with its exit status. With `quiet`, its output is held
 * and printed only when it fails, so two lanes running at once do not interleave their logs.
 */
function pnpmLane(args, { quiet = false } = {}) {
  const [cmd, cmdArgs] = pnpmCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, cmdArgs, {
      cwd: root,
      env: pnpmEnv(),
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const held = [];
    child.stdout?.on('data', (chunk) => held.push(chunk));
    child.stderr?.on('data', (chunk) => held.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (status !== 0 && quiet) process.stderr.write(Buffer.concat(held));
      resolve(status);
    });
  });
}

const testReport = '.vitest-report.json';
// The repository-wide checks (tools/checks), run as a lane of their own.
const CHECKS_PACKAGE = '@xprotocol/repo-checks';
// The suites that take longest (minutes of real processes each), run in a lane of their own.
const SLOW_PACKAGES = ['@xprotocol/mcp-adapter', '@xprotocol/conformance'];
const workspaceDirs = () =>
  ['packages', 'apps', 'tools', 'examples']
    .filter((d) => existsSync(join(root, d)))
    .flatMap((d) => readdirSync(join(root, d)).map((name) => join(root, d, name)));

/** Sums every package's vitest JSON report into the one closing line CI reads. */
function summarizeTests() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const dir of workspaceDirs()) {
    const file = join(dir, testReport);
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  }
  return { passed, failed, skipped };
}

// confirmModulesPurge=false: when node_modules was installed with other settings (another store,
// another user), pnpm wants to purge it and, with no TTY to ask, aborts; a task must not stop there.
const tasks = {
  // The whole suite: build, typecheck, lint, every package's tests.
  test: async () => {
    pnpm(['install', '--frozen-lockfile', '--config.confirmModulesPurge=false']);
    for (const dir of workspaceDirs()) rmSync(join(dir, testReport), { force: true });
    pnpm(['exec', 'turbo', 'run', 'build', 'typecheck', '--force', '--output-logs=errors-only']);
    // Three lanes on one build. Vitest runs one file at a time on a 2-core machine, and most
    // end-to-end files wait on child processes, so one package at a time left a core idle for
    // most of the run. The slowest suites (the adapter's, then the conformance app's) get a lane
    // of their own; every other package runs one at a time in the second lane; the repository
    // checks (packing and installing the tarballs: mostly waiting on npm and the disk) in the
    // third. `--only`: the build above is shared, never redone under a running lane. `--force`:
    // a cached test task would leave no report behind to count.
    const turboTest = (filters) => [
      'exec',
      'turbo',
      'run',
      'test',
      '--only',
      '--force',
      '--concurrency=1',
      '--output-logs=errors-only',
      ...filters.map((filter) => `--filter=${filter}`),
    ];
    const statuses = await Promise.all([
      pnpmLane(turboTest(SLOW_PACKAGES)),
      pnpmLane(turboTest([`!${CHECKS_PACKAGE}`, ...SLOW_PACKAGES.map((name) => `!${name}`)])),
      pnpmLane(['--filter', CHECKS_PACKAGE, 'run', 'test'], { quiet: true }),
    ]);
    const failedLane = statuses.find((status) => status !== 0);
    if (failedLane !== undefined) process.exit(failedLane);
    pnpm(['exec', 'biome', 'check', '.']);
    const { passed, failed, skipped } = summarizeTests();
    if (passed === 0) {
      console.error('no test ran: every package must have tests');
      process.exit(1);
    }
    console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
    if (failed > 0 || skipped > 0) process.exit(1);
  },
  // The main job: a local relay, an adapter wrapping the real filesystem MCP server, and one
  // signed, encrypted call through the relay (xprotocol-devserver --demo).
  demo: () => {
    pnpm(['install', '--frozen-lockfile', '--config.confirmModulesPurge=false']);
    pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
    const result = spawnSync(
      process.execPath,
      [join(root, 'apps', 'devserver', 'dist', 'bin.js'), '--demo'],
      {
        stdio: 'inherit',
      },
    );
    process.exit(result.status ?? 1);
  },
};

const name = process.argv[2];
const task = tasks[name];
if (!task) {
  console.error(
    `usage: node scripts/task.mjs <${Object.keys(tasks).join('|')}>; got ${JSON.stringify(name)}`,
  );
  process.exit(2);
}
await task();
