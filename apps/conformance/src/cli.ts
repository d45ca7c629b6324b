/**
 * `xprotocol-conformance`: parses the command line, runs the suite and writes the report (the
 * `relay` command, which checks a relay, is relay-command.ts).
 * Exit codes: 0 every selected check passed, 1 a check failed or the target could not start,
 * 2 a usage error. See docs/conformance.md.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROFILE_CHOICES, type Profile, profileOf } from './profile.js';
import { relayMain } from './relay-command.js';
import { formatCheck, formatJunit, formatSummary } from './report.js';
import { ALL_CHECKS, NATIVE_CHECKS, runSuite, type SuiteReport, selectChecks } from './suite.js';
import { suiteConfig } from './suite-config.js';
import { suiteKeys } from './suite-keys.js';
import { Target, testServerCommand } from './target.js';
import { CONFORMANCE_VERSION } from './version.js';

/** Where the CLI writes. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout is a terminal (colours). */
  tty: boolean;
}

export const USAGE = `Usage:
  xprotocol-conformance --adapter-command "CMD ARGS" [options]
  xprotocol-conformance --endpoint ed25519:…|xp://host --relay URL [--mcp-url URL] [--calls FILE] [--keys DIR] [options]
  xprotocol-conformance --print-config [--keys DIR] [--relay URL] [--inject-port N] [--mcp-port N] [--calls FILE]
  xprotocol-conformance --list
  xprotocol-conformance relay --url ws://HOST:PORT [options]   (relay --help for its options)

Options:
  --adapter-command "CMD ARGS"  start CMD ARGS start --config FILE with the suite's configuration
  --endpoint KEY|xp://host      test an adapter someone else runs (configured by --print-config)
  --relay URL                   the relay of --endpoint (and of --print-config)
  --mcp-url URL                 the MCP face of --endpoint (Streamable HTTP)
  --profile auto|adapter|native which checks apply (--endpoint): adapter wraps the suite's test
                                MCP server, native serves tools of its own; auto (the default)
                                reads the announce (no mcp_sources: native)
  --calls FILE                  the test server's calls file (--endpoint, --print-config)
  --keys DIR                    the suite's keys (created when missing); default ./xp-conformance-keys
  --inject-port N               the injector relay's port (--endpoint, --print-config); default 18765
  --mcp-port N                  the MCP face port in --print-config; default 8767
  --only NAME                   run only this check (repeatable); --list shows the names
  --json                        print the report as JSON on stdout
  --junit FILE                  also write a JUnit XML report
  --help                        this text
  --version                     print the version

Relay options (xprotocol-conformance relay; relay --help says more):
  --url URL                     the relay to check against docs/protocol.md §9's vectors
  --retention N                 its retention in seconds; default 3600
  --events-per-minute N         its rate per key (the limits check runs with 2)
  --max-bytes-per-key N         its stored bytes per key (the limits check runs with 2048)
  --timeout-ms N                how long to wait for each reply; default 5000`;

function _usage(io: CliIo, message: string): number {
  io.err(`xprotocol-conformance: ${message}\n\n${USAGE}\n`);
  return 2;
}

/** Runs the command line; resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'relay') return relayMain(argv.slice(1), io);
  let values: ReturnType<typeof _parse>['values'];
  try {
    ({ values } = _parse(argv));
  } catch (error) {
    return _usage(io, (error as Error).message);
  }
  if (values.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    io.out(`${CONFORMANCE_VERSION}\n`);
    return 0;
  }
  if (values.list) {
    for (const c of ALL_CHECKS) {
      const native = NATIVE_CHECKS.includes(c) ? (c.number > 14 ? ' [native]' : ' [both]') : '';
      io.out(`${String(c.number).padStart(2)}. ${c.name.padEnd(17)} ${c.title}${native}\n`);
    }
    return 0;
  }
  const keysDir = resolve(values.keys ?? 'xp-conformance-keys');
  const injectPort = Number(values['inject-port'] ?? 18765);
  if (values['print-config']) {
    const keys = await suiteKeys(keysDir);
    const relay = values.relay ?? 'ws://127.0.0.1:8765';
    io.out(
      suiteConfig({
        keyFile: join(keysDir, 'adapter.key'),
        relays: [relay, `ws://127.0.0.1:${injectPort}`],
        testServer: testServerCommand(),
        callsFile: resolve(values.calls ?? join(keysDir, 'calls.jsonl')),
        clientKey: keys.client.keys.ed25519,
        peerKey: keys.peer.keys.ed25519,
        peerRelay: relay,
        mcpPort: Number(values['mcp-port'] ?? 8767),
        stateDatabase: join(keysDir, 'adapter-state.db'),
        delegation: { trustedIssuer: keys.issuer.keys.ed25519 },
      }),
    );
    return 0;
  }
  let checks: ReturnType<typeof selectChecks>;
  try {
    checks = selectChecks(values.only ?? []);
  } catch (error) {
    return _usage(io, (error as Error).message);
  }
  if (!values['adapter-command'] && !(values.endpoint && values.relay)) {
    return _usage(io, 'expected --adapter-command "CMD ARGS", or --endpoint with --relay');
  }
  const profileChoice = values.profile ?? 'auto';
  if (!(PROFILE_CHOICES as readonly string[]).includes(profileChoice)) {
    return _usage(io, `--profile ${profileChoice}: expected one of ${PROFILE_CHOICES.join(', ')}`);
  }
  if (values['adapter-command'] && profileChoice === 'native') {
    return _usage(io, '--profile native: expected --endpoint (--adapter-command starts an adapter)');
  }
  const started = performance.now();
  const log = values.json ? () => undefined : (message: string) => io.err(`${message}\n`);
  let target: Target;
  try {
    target = await Target.open({
      ...(values['adapter-command'] !== undefined && { adapterCommand: values['adapter-command'] }),
      ...(values.endpoint !== undefined && { endpoint: values.endpoint, keysDir }),
      ...(values.relay !== undefined && { relay: values.relay }),
      ...(values['mcp-url'] !== undefined && { mcpUrl: values['mcp-url'] }),
      ...(values.calls !== undefined && { callsFile: resolve(values.calls) }),
      injectPort,
      log,
    });
  } catch (error) {
    io.err(`xprotocol-conformance: cannot start the target: ${(error as Error).message}\n`);
    return 1;
  }
  // The adapter the suite starts is always an adapter; an endpoint's announce says what it is.
  const profile: Profile = values['adapter-command']
    ? 'adapter'
    : profileChoice === 'auto'
      ? profileOf(target.announceEvent)
      : (profileChoice as Profile);
  target.profile = profile;
  log(`profile ${profile}${profileChoice === 'auto' ? ' (from the announce)' : ''}`);
  try {
    checks = selectChecks(values.only ?? [], profile);
  } catch (error) {
    await target.close();
    return _usage(io, (error as Error).message);
  }
  let report: SuiteReport;
  try {
    const partial = await runSuite(target, checks, (result) => {
      if (!values.json) io.out(`${formatCheck(result, io.tty)}\n`);
    });
    report = { ...partial, durationMs: Math.round(performance.now() - started) };
  } finally {
    await target.close();
  }
  if (values.json) io.out(`${JSON.stringify(report, null, 2)}\n`);
  else io.out(`${formatSummary(report, io.tty)}\n`);
  if (values.junit) writeFileSync(values.junit, formatJunit(report));
  return report.passed ? 0 : 1;
}

function _parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      'adapter-command': { type: 'string' },
      endpoint: { type: 'string' },
      relay: { type: 'string' },
      'mcp-url': { type: 'string' },
      profile: { type: 'string' },
      calls: { type: 'string' },
      keys: { type: 'string' },
      'inject-port': { type: 'string' },
      'mcp-port': { type: 'string' },
      only: { type: 'string', multiple: true },
      list: { type: 'boolean' },
      json: { type: 'boolean' },
      junit: { type: 'string' },
      'print-config': { type: 'boolean' },
      help: { type: 'boolean' },
      version: { type: 'boolean' },
    },
  });
}
