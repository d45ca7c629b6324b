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

/** One request the strict server received (`STRICT_TRACE`): its headers and its JSON-RPC body. */
export interface StrictRequest {
  method: string;
  headers: Record<string, string>;
  body: { method?: string; params?: Record<string, unknown> } | undefined;
}

/**
 * Starts one strict server with `args`; resolves its URL (the first line it prints). With
 * `trace`, every request it receives is pushed there.
 */
export async function startStrict2026(args: string[], trace?: StrictRequest[]): Promise<string> {
  const child = spawn(process.execPath, [STRICT, ...args], {
    stdio: ['ignore', 'pipe', trace ? 'pipe' : 'inherit'],
    env: { ...process.env, ...(trace && { STRICT_TRACE: '1' }) },
  });
  children.push(child);
  if (trace) createInterface({ input: child.stderr! }).on('line', (line) => trace.push(_traced(line)));
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

/** A trace line: `<HTTP method> <path> <headers as JSON> <body>` (the headers hold no nested object). */
function _traced(line: string): StrictRequest {
  const [method = '', , ...rest] = line.split(' ');
  const tail = rest.join(' ');
  const end = tail.indexOf('}') + 1;
  const text = tail.slice(end + 1);
  return {
    method,
    headers: JSON.parse(tail.slice(0, end)) as Record<string, string>,
    body: text === '' ? undefined : (JSON.parse(text) as StrictRequest['body']),
  };
}
