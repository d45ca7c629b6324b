// Runs the built `xprotocol-conformance` bin as a child process, the way another project runs it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const here = import.meta.dirname;
/** The suite's bin (built by `pnpm build`, which turbo runs before the tests). */
export const CONFORMANCE_BIN = join(here, '..', 'dist', 'bin.js');
/** Our adapter's bin: the adapter app is a devDependency, so turbo builds it first. */
export const ADAPTER_BIN = join(here, '..', '..', 'adapter', 'dist', 'bin.js');

/** Runs the suite with `args`; resolves with the exit code and both streams. */
export function runSuiteBin(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CONFORMANCE_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The `--adapter-command` value that starts `script` with this Node. */
export function nodeCommand(script: string, ...args: string[]): string {
  return [process.execPath, script, ...args].map((w) => `'${w}'`).join(' ');
}
