/**
 * Starts the hand-written strict 2026-07-28 server (fixtures/strict-2026-server.mjs) for a test
 * and stops every one it started.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const STRICT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'strict-2026-server.mjs');
const children: ChildProcess[] = [];

/** Starts one strict server with `args`; resolves its URL (the first line it prints). */
export async function startStrict2026(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [STRICT, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`strict server exited ${code}`)));
  });
  return (JSON.parse(line) as { url: string }).url;
}

/** Stops every strict server this file started. */
export function stopStrict2026(): void {
  for (const child of children) child.kill('SIGTERM');
}
