import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, newSecret, TestClient } from './support/client.js';

const BIN = join(import.meta.dirname, '..', 'dist', 'bin.js');
const children: ChildProcess[] = [];
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-bin-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the built bin and resolves with the URL it prints on stdout. */
async function startBin(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: string[] }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.once('exit', (code) => r(code)));
}

describe('xprotocol-relay bin', () => {
  it('prints its ws:// URL on stdout, serves, and exits 0 on SIGTERM', async () => {
    const { child, url } = await startBin(['--port', '0']);
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const client = await TestClient.connect(url);
    const event = makeEvent(newSecret());
    expect((await client.publish(event))[2]).toBe(true);
    client.close();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('keeps an acknowledged event through SIGKILL when given --db', async () => {
    const db = join(dir, 'kill.db');
    const first = await startBin(['--port', '0', '--db', db]);
    const client = await TestClient.connect(first.url);
    const event = makeEvent(newSecret());
    expect((await client.publish(event))[2]).toBe(true);
    // OK means committed: a hard kill right after must not lose it.
    first.child.kill('SIGKILL');
    await exited(first.child);
    const second = await startBin(['--port', '0', '--db', db]);
    const again = await TestClient.connect(second.url);
    expect(await again.request('after-restart', { ids: [event.id] })).toEqual([event]);
    again.close();
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });

  it('refuses bad arguments with exit 2 and usage on stderr, nothing on stdout', async () => {
    const child = spawn(process.execPath, [BIN, '--port', 'abc'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    expect(await exited(child)).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/--port expects an integer >= 0, got "abc"/);
    expect(stderr).toMatch(/usage: xprotocol-relay/);
  });
});
