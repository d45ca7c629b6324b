// The built `xprotocol-relay` bin as a child process, and WebSocket upgrades to it that report
// what the relay answered: the tests of the bin attack a real process over loopback.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

export const BIN = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');

/** A running relay bin: the child, the URL it printed, and its stderr so far. */
export interface RelayBin {
  child: ChildProcess;
  url: string;
  stderr: string[];
}

/** Children started by {@link startBin}; {@link killBins} ends the ones still running. */
const children: ChildProcess[] = [];

/**
 * Starts the built bin (with `nodeArgs` before it on Node's command line, in the environment
 * `env`) and resolves with the URL it prints on stdout.
 */
export async function startBin(
  args: string[],
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<RelayBin> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  children.push(child);
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`relay exited ${code}: ${stderr.join('')}`)));
  });
  return { child, url, stderr };
}

/** Runs the bin with `args` (and `nodeArgs` for Node) to its end: exit code, stdout and stderr. */
export async function runBin(
  args: string[],
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const code = await exited(child);
  return { code, stdout, stderr };
}

/** Resolves with the exit code once `child` has exited. */
export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.once('exit', (code) => r(code)));
}

/** SIGTERMs `bin` and resolves with its exit code. */
export function stopBin(bin: RelayBin): Promise<number | null> {
  bin.child.kill('SIGTERM');
  return exited(bin.child);
}

/** SIGKILLs every child started here that is still running (for afterEach). */
export function killBins(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** How a WebSocket upgrade ended: an open socket, or the relay's HTTP answer. */
export type Upgrade = { open: true; socket: WebSocket } | { open: false; status: number; body: string };

/**
 * Asks the relay at `url` for a WebSocket, with an `Origin` header when `origin` is given and from
 * the local address `localAddress` (127.0.0.2 is another client address on Linux's loopback).
 */
export function upgrade(
  url: string,
  options: { origin?: string; localAddress?: string } = {},
): Promise<Upgrade> {
  const socket = new WebSocket(url, {
    ...(options.origin !== undefined && { origin: options.origin }),
    ...(options.localAddress !== undefined && { localAddress: options.localAddress }),
    handshakeTimeout: 10_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ open: true, socket }));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ open: false, status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    socket.once('error', reject);
  });
}

/** Closes `socket` and resolves once it has closed. */
export function closeSocket(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once('close', () => resolve());
    socket.close();
  });
}
