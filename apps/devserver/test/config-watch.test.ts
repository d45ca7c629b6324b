// watchConfigFile: polls the file's stat against a baseline the caller took before reading it.
import { mkdtempSync, rmSync, type Stats, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchConfigFile } from '../src/config-watch.js';

const dirs: string[] = [];
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'xp-watch-'));
  dirs.push(dir);
  const file = join(dir, 'config.yml');
  writeFileSync(file, text);
  return file;
}

/** Resolves with the number of callbacks once `onChange` has run `count` times. */
function watch(file: string, since?: Stats) {
  let calls = 0;
  let wake: () => void = () => {};
  const stop = watchConfigFile(
    file,
    async () => {
      calls += 1;
      wake();
    },
    { since, intervalMs: 20, debounceMs: 150 },
  );
  stops.push(stop);
  return {
    get calls() {
      return calls;
    },
    stop,
    next: () => new Promise<void>((resolve) => (wake = resolve)),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchConfigFile', () => {
  it('sees an edit made between the caller’s stat and the watcher’s start', async () => {
    const file = tempFile('a: 1\n');
    const since = statSync(file);
    writeFileSync(file, 'a: 22\n'); // lands before the watcher exists
    const watcher = watch(file, since);
    await watcher.next();
    expect(watcher.calls).toBe(1);
  });

  it('stays quiet while nothing changes, and coalesces a burst into one call', async () => {
    const file = tempFile('a: 1\n');
    const watcher = watch(file, statSync(file));
    await pause(120);
    expect(watcher.calls).toBe(0);
    const called = watcher.next();
    for (let i = 0; i < 3; i += 1) writeFileSync(file, `a: ${'9'.repeat(i + 2)}\n`);
    await called;
    await pause(400);
    expect(watcher.calls).toBe(1);
  });

  it('ignores a removed file until it comes back, and stops when asked', async () => {
    const file = tempFile('a: 1\n');
    const watcher = watch(file, statSync(file));
    rmSync(file);
    await pause(120);
    expect(watcher.calls).toBe(0);
    const called = watcher.next();
    writeFileSync(file, 'a: 333\n');
    await called;
    expect(watcher.calls).toBe(1);
    watcher.stop();
    writeFileSync(file, 'a: 4444\n');
    await pause(400);
    expect(watcher.calls).toBe(1);
  });
});
