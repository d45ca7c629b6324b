/**
 * The real processes a suite races: the relay, adapters, MCP servers from npm, the stub peers.
 * Every child is started with the running Node, tracked, and stopped by its PID at the end.
 * `BENCH_CPU_PROF=<dir>` starts the relay and the adapters under `node --cpu-prof`, so a profile
 * of exactly what a suite measured lands in `<dir>` when they stop.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export { freePort } from '@xprotocol/test-ports';

const require = createRequire(import.meta.url);

/** The entry script of `bin` in the npm package `pkg` (resolved from this package). */
export function binOf(pkg: string, bin?: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const entry =
    typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin ?? Object.keys(manifest.bin)[0]!];
  if (entry === undefined) throw new Error(`${pkg}: expected a bin ${bin ?? ''} in package.json, found none`);
  return join(dirname(manifestPath), entry);
}

export const RELAY_BIN = binOf('@xprotocol/relay', 'xprotocol-relay');
export const ADAPTER_BIN = binOf('@xprotocol/mcp-adapter', 'xprotocol-adapter');
export const DEVSERVER_BIN = binOf('@xprotocol/devserver', 'xprotocol-devserver');
export const MEMORY_SERVER = binOf('@modelcontextprotocol/server-memory');
export const EVERYTHING_SERVER = binOf('@modelcontextprotocol/server-everything');
export const SUPERGATEWAY_BIN = binOf('supergateway');
/** The stub peers of this package (plain ES modules, run as they are). */
export const PEERS_DIR = join(import.meta.dirname, '..', 'peers');

/** Resident set size and its high-water mark of a live process, in MiB (Linux /proc). */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`/proc/${pid}/status: expected a ${name} line, got none`);
    return Number(match[1]) / 1024;
  };
  return { rssMiB: field('VmRSS'), peakMiB: field('VmHWM') };
}

/** Waits until `child` writes a line on `stream` that `matches`, or fails after `timeoutMs`. */
export function waitForLine(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  matches: (line: string) => boolean,
  timeoutMs: number,
  what: string,
): Promise<string> {
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what}: not ready after ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}`)),
      timeoutMs,
    );
    const reader = createInterface({ input: child[stream]! });
    reader.on('line', (line) => {
      lines.push(line);
      if (matches(line)) {
        clearTimeout(timer);
        reader.close();
        resolve(line);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what}: exited ${code} before it was ready:\n${lines.slice(-20).join('\n')}`));
    });
  });
}

/** The processes of one suite, in one temporary directory. */
export class Processes {
  readonly children: ChildProcess[] = [];
  readonly dir = mkdtempSync(join(tmpdir(), 'xp-bench-'));
  readonly #tails = new Map<ChildProcess, string[]>();

  /** The last 40 lines `child` wrote on stderr. */
  stderrTail(child: ChildProcess): string {
    return (this.#tails.get(child) ?? []).join('\n');
  }

  file(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  /** Starts a Node script; `profile` adds `--cpu-prof` when BENCH_CPU_PROF is set. */
  spawn(
    script: string,
    args: readonly string[],
    options: { env?: NodeJS.ProcessEnv; profile?: boolean } = {},
  ): ChildProcess {
    const profileDir = process.env.BENCH_CPU_PROF;
    // Resolved here: the children run in the suite's temporary directory, removed at the end.
    const nodeArgs =
      options.profile && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [];
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: this.dir,
      env: { ...process.env, ...options.env },
    });
    // Keep the pipes drained (a child blocked on a full stderr pipe would stall the race), and
    // the last lines of stderr for the error message when the child fails.
    child.stdout!.resume();
    const tail: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
    });
    this.#tails.set(child, tail);
    this.children.push(child);
    return child;
  }

  /**
   * Starts the relay bin (or `bin`, another build of it) on a free port, durable (`--db`) unless
   * `memory`; resolves with its URL.
   */
  async relay(options: { durable: boolean; bin?: string }): Promise<{ url: string; child: ChildProcess }> {
    // The load is one trusted publisher: no rate or storage limit may shape what is measured.
    const args = ['--port', '0', '--rate', '100000000', '--max-bytes-per-key', '1099511627776'];
    args.push('--max-stored-bytes', '1099511627776');
    if (options.durable) args.push('--db', join(this.dir, `relay-${this.children.length}.db`));
    const child = this.spawn(options.bin ?? RELAY_BIN, args, { profile: true });
    const url = await waitForLine(child, 'stdout', (line) => line.startsWith('ws://'), 30_000, 'relay');
    return { url: url.trim(), child };
  }

  /**
   * Starts `xprotocol-adapter start --config <yaml>` (this workspace's build, or another build's
   * `bin`); resolves once it logs {"event":"ready"}.
   */
  async adapter(
    name: string,
    yaml: string,
    env?: NodeJS.ProcessEnv,
    bin: string = ADAPTER_BIN,
  ): Promise<ChildProcess> {
    const child = this.spawn(bin, ['start', '--config', this.file(`${name}.yml`, yaml)], {
      profile: true,
      ...(env && { env }),
    });
    await waitForLine(child, 'stderr', (line) => line.includes('"event":"ready"'), 90_000, `adapter ${name}`);
    return child;
  }

  /** Runs `xprotocol-adapter keygen` to a new key file. */
  async keygen(name: string): Promise<{ path: string; ed25519: string }> {
    const path = join(this.dir, name);
    const child = this.spawn(ADAPTER_BIN, ['keygen', '--output', path]);
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`keygen ${name}: expected exit 0, got ${code}`);
    return { path, ...(JSON.parse(stdout) as { ed25519: string }) };
  }

  /** Stops every child (SIGTERM, then SIGKILL after 5 s) by PID and removes the directory. */
  async close(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
