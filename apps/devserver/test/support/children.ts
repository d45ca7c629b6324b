// Real child processes of the built bin (dist/bin.js) for the end-to-end tests. Every child is
// killed by PID when its test file ends; temporary directories are removed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const here = import.meta.dirname;
export const DEVSERVER_BIN = join(here, '..', '..', 'dist', 'bin.js');
export const FS_SERVER = join(
  here,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

/** A running (or finished) child with its output so far. */
export class Child {
  readonly process: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #waiters: { test: () => boolean; resolve: () => void }[] = [];

  constructor(child: ChildProcess) {
    this.process = child;
    child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk;
      this.#check();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk;
      this.#check();
    });
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Resolves once stderr matches `pattern`; rejects if the child exits first or after `timeoutMs`. */
  async waitForStderr(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
    const found = () => this.stderr.match(pattern);
    if (found()) return found()!;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${pattern} on stderr after ${timeoutMs} ms:\n${this.stderr}`)),
        timeoutMs,
      );
      this.#waiters.push({
        test: () => found() !== null,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      void this.exited.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`the child exited (${code}) before ${pattern} appeared:\n${this.stderr}`));
      });
    });
    return found()!;
  }

  #check(): void {
    for (const waiter of [...this.#waiters]) {
      if (waiter.test()) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

/** PIDs of the direct children of `pid` (Linux `ps`). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** Whether a process with this PID exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A temporary directory (also used as HOME and TMPDIR of the children) and the children started in it. */
export class Sandbox {
  readonly dir = realpathSync(mkdtempSync(join(tmpdir(), 'xp-devserver-test-')));
  readonly children: Child[] = [];

  path(name: string): string {
    return join(this.dir, name);
  }

  file(name: string, text: string): string {
    const path = this.path(name);
    writeFileSync(path, text);
    return path;
  }

  /** Runs `node dist/bin.js …args` with `env` added to a minimal environment. */
  spawn(args: string[], env: Record<string, string> = {}): Child {
    const child = new Child(
      spawn(process.execPath, [DEVSERVER_BIN, ...args], {
        cwd: this.dir,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '', HOME: this.dir, TMPDIR: this.dir, NO_COLOR: '1', ...env },
      }),
    );
    this.children.push(child);
    return child;
  }

  /** Runs the bin to completion (bounded by `timeoutMs`). */
  async run(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000) {
    const child = this.spawn(args, env);
    const timer = setTimeout(() => child.process.kill('SIGKILL'), timeoutMs);
    const { code } = await child.exited;
    clearTimeout(timer);
    return { code, stdout: child.stdout, stderr: child.stderr };
  }

  async close(): Promise<void> {
    for (const child of this.children) {
      const { process: p } = child;
      if (p.exitCode === null && p.signalCode === null && p.pid !== undefined) {
        const orphans = childPids(p.pid);
        p.kill('SIGTERM');
        const timer = setTimeout(() => p.kill('SIGKILL'), 5000);
        await child.exited;
        clearTimeout(timer);
        for (const pid of orphans) if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
