import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, newSecret, TestClient } from './support/client.js';
import { BIN, exited, killBins, runBin, startBin } from './support/relay-bin.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-bin-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
afterEach(killBins);

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

  it('exits 0 on SIGTERM or SIGINT sent the moment its URL is printed (the line a supervisor waits for)', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn(process.execPath, [BIN, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
        if (stdout.includes('\n')) child.kill(signal);
      });
      const [code, exitSignal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.once('exit', (c, s) => resolve([c, s])),
      );
      expect({ signal, code, exitSignal }, stderr).toEqual({ signal, code: 0, exitSignal: null });
      expect(stderr).toContain(`${signal}: closing`);
    }
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
    const { code, stdout, stderr } = await runBin(['--port', 'abc']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/--port expects an integer >= 0, got "abc"/);
    expect(stderr).toMatch(/usage: xprotocol-relay/);
  });
});
