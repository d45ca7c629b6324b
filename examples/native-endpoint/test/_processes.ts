// Real child processes for the example's end-to-end test: the relay bin, the example endpoint,
// the adapter and conformance bins. Every child is ended by its PID when the test ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export { freePort } from '@xprotocol/test-ports';

const modules = join(import.meta.dirname, '..', 'node_modules', '@xprotocol');
export const RELAY_BIN = join(modules, 'relay', 'dist', 'bin.js');
export const ADAPTER_BIN = join(modules, 'mcp-adapter', 'dist', 'bin.js');
export const CONFORMANCE_BIN = join(modules, 'conformance', 'dist', 'bin.js');
export const EXAMPLE = join(import.meta.dirname, '..', 'notes-endpoint.mjs');

/** The children of one test file, in a scratch folder. */
export class Processes {
  readonly dir = mkdtempSync(join(tmpdir(), 'xp-native-'));
  readonly #children: ChildProcess[] = [];

  file(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  /** Starts `script` and resolves once `ready` accepts a line of `stream`; every line of it is kept. */
  async serving(
    script: string,
    args: string[],
    ready: (line: string) => boolean,
    options: { env?: NodeJS.ProcessEnv; stream?: 'stdout' | 'stderr' } = {},
  ): Promise<{ child: ChildProcess; lines: string[] }> {
    const child = this.#spawn(script, args, options.env);
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${script} not ready in 90 s:\n${lines.join('\n')}`)),
        90_000,
      );
      createInterface({ input: child[options.stream ?? 'stderr']! }).on('line', (line) => {
        lines.push(line);
        if (ready(line)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited ${code}:\n${lines.join('\n')}`));
      });
    });
    return { child, lines };
  }

  /** Runs `script` to its end. */
  async run(
    script: string,
    args: string[],
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = this.#spawn(script, args);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stdout, stderr };
  }

  /** A new key file made by `xprotocol-adapter keygen`. */
  async keygen(name: string): Promise<{ path: string; ed25519: string }> {
    const path = join(this.dir, name);
    const { code, stdout, stderr } = await this.run(ADAPTER_BIN, ['keygen', '--output', path]);
    if (code !== 0) throw new Error(`keygen failed: ${stderr}`);
    return { path, ...(JSON.parse(stdout) as { ed25519: string }) };
  }

  #spawn(script: string, args: string[], env?: NodeJS.ProcessEnv): ChildProcess {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: this.dir,
      env: { ...process.env, ...env },
    });
    this.#children.push(child);
    return child;
  }

  /** Ends every child still running (SIGTERM, then SIGKILL after 5 s) and removes the folder. */
  async close(): Promise<void> {
    for (const child of this.#children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
