#!/usr/bin/env node
// Runs the official MCP conformance server suite (@modelcontextprotocol/conformance, on Node 22
// through npx) twice: against the conformance fixture served directly over Streamable HTTP, and
// through the adapter (the same fixture wrapped over stdio as an mcp_source, re-served by the
// adapter's MCP face with `expose: [mcp_sources]`). Prints a per-scenario table side by side and
// the totals. It reports; it does not judge: it exits 0 whenever both runs happened.
//
//   node packages/mcp-bridge/scripts/conformance.mjs [--scenario NAME]
//
// Needs built dist/ of packages/relay and apps/adapter. Loopback only. Every child it starts is
// killed by PID and its temp directory removed, also on failure.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '@xprotocol/test-ports';

const here = import.meta.dirname;
const root = resolve(here, '..', '..', '..');
const FIXTURE = join(here, '..', 'test', 'fixtures', 'conformance-server.mjs');
const RELAY_BIN = join(root, 'packages', 'relay', 'dist', 'bin.js');
const ADAPTER_BIN = join(root, 'apps', 'adapter', 'dist', 'bin.js');
const RUNNER = [
  '-y',
  '-p',
  'node@22',
  '-p',
  '@modelcontextprotocol/conformance@0.1.16',
  'conformance',
  'server',
];
const STARTUP_MS = 60_000;
const SUITE_MS = 15 * 60_000;

const scenarioArg = process.argv.indexOf('--scenario');
const scenario = scenarioArg === -1 ? undefined : process.argv[scenarioArg + 1];
const dir = mkdtempSync(join(tmpdir(), 'xp-conformance-'));
/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
/** Children started as process-group leaders (signalled as a group, by their PID). */
const groups = new Set();

function stop(child, signal) {
  try {
    if (groups.has(child)) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // already gone
  }
}

function start(args, options = {}) {
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], ...options });
  children.push(child);
  return child;
}

/** Resolves with the first line on `stream` that `accept` takes; rejects on exit or timeout. */
function firstLine(child, stream, accept, what) {
  const seen = [];
  return new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`${what}: not ready after ${STARTUP_MS} ms:\n${seen.join('\n')}`)),
      STARTUP_MS,
    );
    createInterface({ input: stream }).on('line', (line) => {
      seen.push(line);
      if (accept(line)) {
        clearTimeout(timer);
        done(line);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited (${code ?? signal}):\n${seen.join('\n')}`));
    });
  });
}

/** Runs the suite against `url`; returns per-scenario check counts read from its checks.json files. */
async function runSuite(url, label) {
  const out = join(dir, `results-${label}`);
  const args = [
    ...RUNNER,
    '--url',
    url,
    '-o',
    out,
    ...(scenario ? ['--scenario', scenario] : ['--suite', 'all']),
  ];
  process.stderr.write(`\n[${label}] npx ${args.join(' ')}\n`);
  // Its own process group, so a timeout or cleanup ends npx and the Node 22 runner under it.
  // The runner's own dependencies want Node 22 (npx fetches it): the repo's engine-strict, which
  // pnpm passes down as npm_config_engine_strict when this runs as a package script, must not apply.
  const env = { ...process.env, npm_config_engine_strict: 'false' };
  const child = spawn('npx', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env });
  children.push(child);
  groups.add(child);
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const code = await new Promise((done) => {
    const timer = setTimeout(() => stop(child, 'SIGKILL'), SUITE_MS);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      done(exitCode);
    });
  });
  writeFileSync(join(dir, `runner-${label}.log`), log);
  const results = new Map();
  let entries = [];
  try {
    entries = readdirSync(out);
  } catch {
    throw new Error(`[${label}] the runner wrote no results (exit ${code}):\n${log.slice(-4000)}`);
  }
  for (const entry of entries) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (name === undefined) continue;
    let checks = [];
    try {
      checks = JSON.parse(readFileSync(join(out, entry, 'checks.json'), 'utf8'));
    } catch {
      checks = [{ status: 'FAILURE', name: 'NoChecks', errorMessage: 'no checks.json written' }];
    }
    const count = (status) => checks.filter((check) => check.status === status).length;
    const failures = checks
      .filter((check) => check.status === 'FAILURE')
      .map((check) => `${check.name}: ${check.errorMessage ?? check.description ?? ''}`.slice(0, 200));
    results.set(name, {
      passed: count('SUCCESS'),
      failed: count('FAILURE'),
      warnings: count('WARNING'),
      failures,
    });
  }
  return results;
}

/** `PASS`/`FAIL`, or `WARN` when a scenario scored no check but warned; then passed/scored and warnings. */
function cell(r) {
  if (r === undefined) return 'not run';
  const verdict = r.failed > 0 ? 'FAIL' : r.passed === 0 && r.warnings > 0 ? 'WARN' : 'PASS';
  return `${verdict} ${r.passed}/${r.passed + r.failed}${r.warnings ? ` w${r.warnings}` : ''}`;
}

function report(direct, adapter) {
  const names = [...new Set([...direct.keys(), ...adapter.keys()])];
  const width = Math.max(8, ...names.map((name) => name.length));
  const lines = [`${'scenario'.padEnd(width)}  ${'direct'.padEnd(16)}  through adapter`];
  const totals = { direct: { s: 0, p: 0, f: 0 }, adapter: { s: 0, p: 0, f: 0 } };
  for (const name of names) {
    const d = direct.get(name);
    const a = adapter.get(name);
    const same = cell(d) === cell(a);
    lines.push(`${name.padEnd(width)}  ${cell(d).padEnd(16)}  ${cell(a)}${same ? '' : '   <- differs'}`);
    for (const [key, r] of [
      ['direct', d],
      ['adapter', a],
    ]) {
      if (r === undefined) continue;
      totals[key].p += r.passed;
      totals[key].f += r.failed;
      if (r.failed === 0) totals[key].s += 1;
    }
  }
  const total = (t) =>
    `${t.s}/${names.length} scenarios without failure, checks ${t.p} passed / ${t.f} failed`;
  lines.push('', `direct:          ${total(totals.direct)}`, `through adapter: ${total(totals.adapter)}`);
  const detail = [];
  for (const [label, results] of [
    ['direct', direct],
    ['through adapter', adapter],
  ]) {
    for (const [name, r] of results)
      for (const failure of r.failures) detail.push(`  [${label}] ${name}: ${failure}`);
  }
  if (detail.length > 0) lines.push('', 'failed checks:', ...detail);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  // 1. Direct: the fixture over Streamable HTTP.
  const fixture = start([FIXTURE, '0']);
  const fixtureUrl = await firstLine(
    fixture,
    fixture.stdout,
    (line) => line.startsWith('http://'),
    'fixture',
  );
  const direct = await runSuite(fixtureUrl.trim(), 'direct');

  // 2. Through the adapter: relay, key, config wrapping the fixture over stdio, MCP face over HTTP.
  const relay = start([RELAY_BIN, '--port', '0']);
  const relayUrl = (await firstLine(relay, relay.stdout, (line) => line.trim() !== '', 'relay')).trim();
  const keygen = start([ADAPTER_BIN, 'keygen', '--output', join(dir, 'adapter.key')]);
  let keygenErr = '';
  keygen.stderr.on('data', (chunk) => (keygenErr += chunk));
  const keygenCode = await new Promise((done) => keygen.once('exit', done));
  if (keygenCode !== 0) throw new Error(`keygen exited ${keygenCode}: ${keygenErr}`);
  const facePort = await freePort();
  const config = join(dir, 'adapter.yml');
  writeFileSync(
    config,
    `identity:
  key_file: ./adapter.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
    transport: stdio
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(FIXTURE)}, stdio]
    xprotocol_namespace: com.test.conformance
access:
  grants: []
mcp_server:
  transport: streamable_http
  host: 127.0.0.1
  port: ${facePort}
  expose: [mcp_sources]
state_database: ./adapter-state.db
logging:
  level: info
  format: json
`,
  );
  const adapter = start([ADAPTER_BIN, 'start', '--config', config]);
  await firstLine(adapter, adapter.stderr, (line) => line.includes('"event":"ready"'), 'adapter');
  const through = await runSuite(`http://127.0.0.1:${facePort}/mcp`, 'adapter');

  report(direct, through);
}

async function cleanup() {
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    stop(child, 'SIGTERM');
    await new Promise((done) => {
      const timer = setTimeout(() => {
        stop(child, 'SIGKILL');
        done();
      }, 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        done();
      });
    });
  }
  rmSync(dir, { recursive: true, force: true });
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
