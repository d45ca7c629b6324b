// Real child processes for end-to-end tests: the relay bin, the adapter bin, its CLI commands.
// Every child is killed (by PID) when the test ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export { freePort } from '@xprotocol/test-ports';

const here = import.meta.dirname;
export const ADAPTER_BIN = join(here, '..', '..', 'dist', 'bin.js');
export const RELAY_BIN = join(here, '..', '..', 'node_modules', '@xprotocol', 'relay', 'dist', 'bin.js');
export const EVERYTHING_SERVER = join(
  here,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
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

/** The MCP conformance fixture server of mcp-bridge (`<port>` for Streamable HTTP, `stdio`). */
export const CONFORMANCE_FIXTURE = join(
  here,
  '..',
  '..',
  '..',
  '..',
  'packages',
  'mcp-bridge',
  'test',
  'fixtures',
  'conformance-server.mjs',
);

/**
 * A strict MCP 2026-07-28 server written by hand from the specification (mcp-bridge's fixture
 * `strict-2026-server.mjs`; flags `--port`, `--revisions 2026|dual|2025`, `--refuse-envelope`).
 */
export const STRICT_2026_SERVER = join(dirname(CONFORMANCE_FIXTURE), 'strict-2026-server.mjs');

export class Processes {
  readonly children: ChildProcess[] = [];
  readonly dir = mkdtempSync(join(tmpdir(), 'xp-e2e-'));

  file(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  /** Starts the relay bin on a free port; resolves with its URL (printed on stdout). */
  async relay(args: string[] = []): Promise<{ url: string; child: ChildProcess }> {
    const child = this.#spawn(RELAY_BIN, args.includes('--port') ? args : ['--port', '0', ...args]);
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`relay exited ${code}`)));
    });
    return { url, child };
  }

  /** Starts `xprotocol-adapter start` and resolves once it logs {"event":"ready"}. */
  adapter(config: string, env?: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; logs: string[] }> {
    return this.serving(['start', '--config', config], (line) => line.includes('"event":"ready"'), env);
  }

  /**
   * Starts the adapter bin with `args` (a command that serves until stopped) and resolves once a
   * line on its stderr is `ready`; `logs` holds every stderr line, also those that come later.
   */
  async serving(
    args: string[],
    ready: (line: string) => boolean,
    env?: NodeJS.ProcessEnv,
  ): Promise<{ child: ChildProcess; logs: string[] }> {
    const child = this.#spawn(ADAPTER_BIN, args, env);
    const logs: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`adapter not ready after 90 s:\n${logs.join('\n')}`)),
        90_000,
      );
      createInterface({ input: child.stderr! }).on('line', (line) => {
        logs.push(line);
        if (ready(line)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`adapter exited ${code}:\n${logs.join('\n')}`));
      });
    });
    return { child, logs };
  }

  /** Starts a Node script; resolves with its first stdout line (a server prints its URL there). */
  async node(
    script: string,
    args: string[],
    env?: NodeJS.ProcessEnv,
  ): Promise<{ child: ChildProcess; firstLine: string }> {
    const child = this.#spawn(script, args, env);
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
    });
    return { child, firstLine: firstLine.trim() };
  }

  /** Runs the adapter CLI to completion. */
  async cli(
    args: string[],
    env?: NodeJS.ProcessEnv,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = this.#spawn(ADAPTER_BIN, args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stdout, stderr };
  }

  /**
   * Starts `xprotocol-adapter start --config <config>` as an MCP stdio server, the way an MCP
   * client (Claude Code, Cursor) launches it, and returns a connected SDK client. `close()` on the
   * client ends the adapter. `env` is added to the SDK's default environment of the child.
   */
  async mcpClient(config: string, env?: Record<string, string>): Promise<Client> {
    const client = new Client({ name: 'e2e', version: '0.0.0' }, { capabilities: {} });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [ADAPTER_BIN, 'start', '--config', config],
        cwd: this.dir,
        stderr: 'pipe',
        ...(env && { env: { ...getDefaultEnvironment(), ...env } }),
      }),
    );
    return client;
  }

  async keygen(name: string): Promise<{ path: string; ed25519: string; x25519: string }> {
    const path = join(this.dir, name);
    const { code, stdout, stderr } = await this.cli(['keygen', '--output', path]);
    if (code !== 0) throw new Error(`keygen failed: ${stderr}`);
    return { path, ...(JSON.parse(stdout) as { ed25519: string; x25519: string }) };
  }

  #spawn(script: string, args: string[], env?: NodeJS.ProcessEnv): ChildProcess {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: this.dir,
      ...(env && { env: { ...process.env, ...env } }),
    });
    this.children.push(child);
    return child;
  }

  async close(): Promise<void> {
    for (const child of this.children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => {
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            resolve(undefined);
          }, 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve(undefined);
          });
        });
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
