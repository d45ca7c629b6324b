#!/usr/bin/env node
/**
 * `xprotocol-relay --port N [--host 127.0.0.1] [--db FILE|URL] [--retention SECONDS] [--rate PER_MINUTE]
 * [--allow-origin ORIGIN]… [--max-connections-per-ip N] [--max-connections N] [--handshake-timeout-ms MS]
 * [--max-bytes-per-key BYTES] [--max-stored-bytes BYTES] [--admin-port N [--admin-host ADDR]
 * [--admin-token-env NAME] [--admin-allow-remote]]`, `--help`, `--version`
 *
 * Starts a relay and prints its `ws://` URL on stdout once it listens (the only thing written to
 * stdout); diagnostics, and the URL of the metrics' admin listener, go to stderr. SIGINT/SIGTERM
 * flush the store and exit 0.
 * @module
 */
import { parseArgs } from 'node:util';
import { isLoopbackHost } from '@xprotocol/wire/admin';
import { RelayError } from './errors.js';
import { MemoryEventStore } from './memory-store.js';
import { _originProblem } from './origin-check.js';
import { type _DatabaseTarget, _databaseTarget } from './postgres-url.js';
import type { RelayAdminOptions, RelayOptions } from './relay-options.js';
import { startRelay } from './relay-server.js';
import type { EventStore } from './store.js';
import { _openEventStore } from './store-open.js';
import { RELAY_VERSION } from './version.js';

const USAGE = `usage: xprotocol-relay --port N [--host 127.0.0.1] [--db FILE|URL] [--retention SECONDS] [--rate PER_MINUTE]
                      [--allow-origin ORIGIN]... [--max-connections-per-ip N] [--max-connections N]
                      [--handshake-timeout-ms MS] [--max-bytes-per-key BYTES] [--max-stored-bytes BYTES]
                      [--admin-port N [--admin-host ADDR] [--admin-token-env NAME] [--admin-allow-remote]]

  --port N                    TCP port to listen on (0 picks a free port)
  --host ADDR                 interface to bind (default 127.0.0.1, loopback only)
  --db FILE|URL               durable storage (default: in memory): a SQLite database file, or a
                              postgres://user:password@host:port/database (or postgresql://) URL:
                              relays given the same database share its events and each one's
                              subscribers get what any of them accepted
  --retention SECONDS         how long events without an expiration tag are kept (default 3600)
  --rate PER_MINUTE           events per minute per signing key (default 6000)
  --allow-origin ORIGIN       a browser origin (scheme://host[:port]) whose pages may connect;
                              repeat for more. Upgrades with any other Origin get 403; clients
                              that send no Origin (programs) are served (default: none)
  --max-connections-per-ip N  open connections from one address, an IPv6 /64 (default 128; 429)
  --max-connections N         open connections in all (default 1024; 503)
  --handshake-timeout-ms MS   a new connection must send its whole upgrade request within this
                              (default 10000); sockets still in their handshake count against
                              their address, 16 above --max-connections-per-ip
  --max-bytes-per-key BYTES   bytes of stored events per signing key (default 16777216, 16 MiB)
  --max-stored-bytes BYTES    bytes of stored events in all (default 134217728, 128 MiB)
  --admin-port N              serve Prometheus metrics at GET http://127.0.0.1:N/metrics (0 picks
                              a free port; its URL is written on stderr). Default: no listener
  --admin-host ADDR           the admin listener's interface (default 127.0.0.1); an address other
                              than loopback needs --admin-allow-remote
  --admin-token-env NAME      environment variable holding the bearer token a scraper must send
  --admin-allow-remote        allow a non-loopback --admin-host (requires --admin-token-env)
  --help                      show this help
  --version                   print the version`;

function fail(message: string): never {
  process.stderr.write(`xprotocol-relay: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function integer(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    fail(`--${name} expects an integer >= ${min}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

type Arguments = ReturnType<typeof parseArguments>['values'];

function parseArguments() {
  return parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      retention: { type: 'string' },
      rate: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'max-connections-per-ip': { type: 'string' },
      'max-connections': { type: 'string' },
      'handshake-timeout-ms': { type: 'string' },
      'max-bytes-per-key': { type: 'string' },
      'max-stored-bytes': { type: 'string' },
      'admin-port': { type: 'string' },
      'admin-host': { type: 'string' },
      'admin-token-env': { type: 'string' },
      'admin-allow-remote': { type: 'boolean' },
      help: { type: 'boolean' },
      version: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
}

/** The relay's options from the arguments (the store aside); exits 2 on a bad value. */
function relayOptions(values: Arguments): RelayOptions {
  const port = integer('port', values.port, 0);
  if (port === undefined) fail('--port is required');
  if (port > 65_535) fail(`--port expects 0 to 65535, got ${port}`);
  const host = values.host ?? '127.0.0.1';
  if (host === '0.0.0.0' || host === '::') {
    process.stderr.write(
      `xprotocol-relay: warning: listening on ${host} exposes the relay beyond this machine\n`,
    );
  }
  const allowedOrigins = values['allow-origin'] ?? [];
  for (const origin of allowedOrigins) {
    const problem = _originProblem(origin);
    if (problem !== undefined) fail(`--allow-origin ${problem}`);
  }
  const numbers: Partial<Record<keyof RelayOptions, number | undefined>> = {
    retentionSeconds: integer('retention', values.retention, 1),
    eventsPerMinutePerKey: integer('rate', values.rate, 1),
    maxConnectionsPerIp: integer('max-connections-per-ip', values['max-connections-per-ip'], 1),
    maxConnections: integer('max-connections', values['max-connections'], 1),
    handshakeTimeoutMs: integer('handshake-timeout-ms', values['handshake-timeout-ms'], 1),
    maxStoredBytesPerKey: integer('max-bytes-per-key', values['max-bytes-per-key'], 1),
    maxStoredBytes: integer('max-stored-bytes', values['max-stored-bytes'], 1),
  };
  const given = Object.entries(numbers).filter(([, value]) => value !== undefined);
  const admin = adminOptions(values);
  return { host, port, allowedOrigins, ...Object.fromEntries(given), ...(admin && { admin }) };
}

/**
 * The admin listener from the `--admin-*` flags, held to the adapter's `admin` rules (loopback
 * unless allowed, a token then, a token variable that holds one); none without `--admin-port`.
 */
function adminOptions(values: Arguments): RelayAdminOptions | undefined {
  const port = integer('admin-port', values['admin-port'], 0);
  if (port === undefined) {
    const orphan = (['admin-host', 'admin-token-env', 'admin-allow-remote'] as const).find(
      (name) => values[name] !== undefined,
    );
    if (orphan) fail(`--${orphan} needs --admin-port (the port of the metrics listener)`);
    return undefined;
  }
  if (port > 65_535) fail(`--admin-port expects 0 to 65535, got ${port}`);
  const host = values['admin-host'] ?? '127.0.0.1';
  const allowRemote = values['admin-allow-remote'] === true;
  if (!isLoopbackHost(host) && !allowRemote)
    fail(
      `--admin-host ${host} is not a loopback address: the admin listener binds 127.0.0.1, ::1 or localhost unless --admin-allow-remote is given (and then --admin-token-env is required)`,
    );
  const tokenEnv = values['admin-token-env'];
  if (allowRemote && tokenEnv === undefined)
    fail(
      '--admin-allow-remote needs --admin-token-env: metrics reachable from other machines must ask for a bearer token',
    );
  if (tokenEnv === undefined) return { port, host };
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv))
    fail(
      `--admin-token-env expects an environment variable name ([A-Za-z_][A-Za-z0-9_]*), got ${JSON.stringify(tokenEnv)}`,
    );
  const token = process.env[tokenEnv];
  if (!token)
    fail(
      `environment variable ${tokenEnv} is ${token === undefined ? 'not set' : 'empty'}: it must hold the admin bearer token (--admin-token-env)`,
    );
  return { port, host, token, allowRemote };
}

async function main(): Promise<void> {
  let values: Arguments;
  try {
    values = parseArguments().values;
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.version) {
    process.stdout.write(`${RELAY_VERSION}\n`);
    return;
  }
  const options = relayOptions(values);
  let target: _DatabaseTarget | undefined;
  try {
    target = values.db ? _databaseTarget(values.db, '--db') : undefined;
  } catch (error) {
    fail((error as Error).message);
  }
  let store: EventStore;
  try {
    store = values.db ? await _openEventStore(values.db, '--db') : new MemoryEventStore();
  } catch (error) {
    process.stderr.write(`xprotocol-relay: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const relay = await startRelay({ ...options, store });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`xprotocol-relay: ${signal}: closing\n`);
    relay.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`xprotocol-relay: close failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  // Before the URL line: a supervisor may signal the moment it reads it, and without a handler
  // Node dies of the signal with the store not closed.
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (relay.adminUrl) process.stderr.write(`xprotocol-relay: admin listener on ${relay.adminUrl}\n`);
  process.stdout.write(`${relay.url}\n`);
  process.stderr.write(
    `xprotocol-relay: listening on ${relay.url} (${target ? `database ${target.kind === 'sqlite' ? target.path : target.shown}` : 'in-memory store'})\n`,
  );
}

main().catch((error: unknown) => {
  const message = error instanceof RelayError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`xprotocol-relay: ${message}\n`);
  process.exit(1);
});
