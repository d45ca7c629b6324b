// The running adapter's status record in the state database: written by StateDatabase (through
// its writer thread, for a file), read by another process's read-only connection while the writer
// is open, replaced rather than appended, and never creating a database that is not there.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, readStatusRecord, StateDatabase } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xp-status-'));
  dirs.push(dir);
  return dir;
}

describe('the status record', () => {
  it('is read, while the adapter holds the file open, as the adapter last wrote it', async () => {
    const path = join(folder(), 'state.db');
    const state = new StateDatabase(path);
    try {
      expect(readStatusRecord(path)).toBeUndefined();
      await state.saveStatus({
        pid: 4242,
        startedAt: 1_000,
        writtenAt: 2_000,
        snapshot: { phase: 'starting' },
      });
      await state.saveStatus({ pid: 4242, startedAt: 1_000, writtenAt: 3_000, snapshot: { phase: 'ready' } });
      expect(readStatusRecord(path)).toEqual({
        pid: 4242,
        startedAt: 1_000,
        writtenAt: 3_000,
        stoppedAt: undefined,
        snapshot: { phase: 'ready' },
      });
      await state.saveStatus({
        pid: 4242,
        startedAt: 1_000,
        writtenAt: 4_000,
        stoppedAt: 4_000,
        snapshot: { phase: 'stopping' },
      });
      expect(readStatusRecord(path)).toMatchObject({ writtenAt: 4_000, stoppedAt: 4_000 });
    } finally {
      await state.close();
    }
    // After the adapter closed the file, the record is still there to say when it stopped.
    expect(readStatusRecord(path)).toMatchObject({ pid: 4242, stoppedAt: 4_000 });
  });

  it('finds a database whose path has spaces, ?, # and % in it', async () => {
    const path = join(folder(), 'odd name ?x=1 #frag %20.db');
    const state = new StateDatabase(path);
    await state.saveStatus({ pid: 7, startedAt: 1, writtenAt: 2, snapshot: {} });
    await state.close();
    expect(readStatusRecord(path)).toMatchObject({ pid: 7 });
  });

  it('starts no writer thread for the status alone (a pure gateway writes nothing else through it)', async () => {
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
    const state = new StateDatabase(join(folder(), 'state.db'));
    // libuv starts its thread pool on the first asynchronous file operation: have it running already.
    await readFile('/proc/self/status');
    const before = threads();
    for (let i = 0; i < 3; i++) await state.saveStatus({ pid: 1, startedAt: 1, writtenAt: i, snapshot: {} });
    expect(threads()).toBe(before);
    // The journal's first record starts the thread; from then on the status rides on it too.
    await state.outbox().add({ event: { id: 'a'.repeat(64) } as never, expiresAt: 2 ** 31 });
    expect(threads()).toBeGreaterThan(before);
    await state.saveStatus({ pid: 1, startedAt: 1, writtenAt: 9, snapshot: {} });
    await state.close();
  });

  it('never creates a database: a missing file is an error that names it', () => {
    const dir = folder();
    const path = join(dir, 'missing.db');
    expect(() => readStatusRecord(path)).toThrow(BridgeError);
    expect(() => readStatusRecord(path)).toThrow(/no state database at .*missing\.db/);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads a database written before the status table existed as having no record', () => {
    const path = join(folder(), 'old.db');
    const old = new Database(path);
    old.exec('CREATE TABLE inbound_calls (id TEXT PRIMARY KEY)');
    old.close();
    expect(readStatusRecord(path)).toBeUndefined();
  });

  it('a file that is not a database is an error that names it', () => {
    const dir = folder();
    const path = join(dir, 'not.db');
    writeFileSync(path, 'this is not SQLite, and it is long enough to have a header');
    expect(() => readStatusRecord(path)).toThrow(/cannot read the state database .*not\.db/);
  });
});
