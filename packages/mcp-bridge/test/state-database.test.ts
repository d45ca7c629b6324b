import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity, sealEvent } from '@xprotocol/crypto';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { StateDatabase } from '../src/index.js';

const alice = generateIdentity();
const bob = generateIdentity();
const now = Math.floor(Date.now() / 1000);
const request = sealEvent(
  { kind: 'com.test.fs.read_text_file', payload: { path: 'a' }, created_at: now },
  alice,
  bob.keys,
);
const answer = sealEvent(
  {
    kind: 'com.test.fs.read_text_file.result',
    payload: { content: [] },
    replyTo: request.id,
    created_at: now,
  },
  bob,
  alice.keys,
);

/** A request of alice's created at `createdAt`. */
function requestAt(createdAt: number) {
  return sealEvent(
    { kind: 'com.test.fs.read_text_file', payload: { path: 'a' }, created_at: createdAt },
    alice,
    bob.keys,
  );
}

/** The first column of a query's rows, read on a connection of the test's own. */
function column(path: string, sql: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(sql).raw().all() as unknown[][]).map((row) => row[0]);
  } finally {
    db.close();
  }
}

describe('StateDatabase', () => {
  it('moves a call started → answered → done, and keeps the id for dedupe', async () => {
    const state = new StateDatabase(':memory:');
    expect(state.isKnown(request.id)).toBe(false);
    await state.recordStarted(request, now);
    expect(state.unfinished()).toEqual([{ id: request.id, status: 'started', request, answer: undefined }]);
    expect(await state.recordAnswer(request, answer, now)).toEqual({ inOutbox: false });
    expect(state.unfinished()).toEqual([{ id: request.id, status: 'answered', request: undefined, answer }]);
    await state.markDone(request.id);
    expect(state.unfinished()).toEqual([]);
    expect(state.isKnown(request.id)).toBe(true);
    await state.close();
  });

  it('records a refusal directly as answered, and refuses transitions out of order', async () => {
    const state = new StateDatabase(':memory:');
    await state.recordAnswer(request, answer, now);
    expect(state.status(request.id)).toBe('answered');
    await expect(state.recordStarted(request, now)).rejects.toThrow(
      /cannot move to "started" from "answered"/,
    );
    await expect(state.markDone('f'.repeat(64))).rejects.toThrow(/cannot move to "done" from "unknown"/);
    await state.close();
  });

  it('commits done without an fsync but keeps synchronous=FULL for everything else', async () => {
    const state = new StateDatabase(':memory:');
    await state.recordStarted(request, now);
    await state.recordAnswer(request, answer, now);
    await state.markDone(request.id);
    expect(state.durability().synchronous).toBe(2);
    await state.close();
  });

  it('with its own outbox in use, stores the answer and its outbox entry in one transaction: done at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    try {
      const state = new StateDatabase(join(dir, 'state.db'));
      const outbox = state.outbox();
      await state.recordStarted(request, now);
      expect(await state.recordAnswer(request, answer, now)).toEqual({ inOutbox: true });
      expect(state.status(request.id)).toBe('done');
      expect(state.unfinished()).toEqual([]);
      expect(await outbox.size()).toBe(1);
      expect((await outbox.pending(now)).map((entry) => entry.event)).toEqual([answer]);
      // A refused transition rolls back its outbox entry with it.
      await expect(state.recordAnswer(request, { ...answer, id: 'e'.repeat(64) }, now)).rejects.toThrow(
        /cannot move to "answered" from "done"/,
      );
      expect((await outbox.pending(now)).map((entry) => entry.event.id)).toEqual([answer.id]);
      expect(state.durability().synchronous).toBe(2);
      await state.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('forgets an id that left the window only by raising the floor above it, in the same commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    try {
      const path = join(dir, 'state.db');
      const began = now - 10_000;
      const memory = { windowSeconds: 3600, maxFutureSeconds: 300, maxIds: 1_000_000 };
      const first = new StateDatabase(path);
      first.openReplayMemory({ ...memory, nowSeconds: began });
      // A new file has forgotten nothing.
      expect(first.replayFloor).toBe(0);
      const old = requestAt(began + 5);
      await first.recordAnswer(old, answer, began + 5);
      await first.markDone(old.id);
      await first.close();

      const second = new StateDatabase(path);
      expect(second.isKnown(old.id)).toBe(true);
      second.openReplayMemory({ ...memory, nowSeconds: now });
      // Raised at once, before the row is deleted.
      expect(second.replayFloor).toBe(began + 6);
      await second.close();
      expect(column(path, 'SELECT floor FROM replay_memory')).toEqual([began + 6]);
      expect(column(path, 'SELECT id FROM inbound_calls')).toEqual([]);

      const third = new StateDatabase(path);
      expect(third.replayFloor).toBe(began + 6);
      expect(third.isKnown(old.id)).toBe(false);
      await third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in memory only, answers for nothing created before it began (an earlier run may have run it)', async () => {
    const state = new StateDatabase(':memory:');
    expect(state.replayFloor).toBe(0);
    state.openReplayMemory({ nowSeconds: now, windowSeconds: 3600, maxFutureSeconds: 300, maxIds: 1000 });
    expect(state.replayFloor).toBe(now);
    await state.close();
  });

  it('reads a file of an earlier version: floor 0, and each row created at the latest its request could have been', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    try {
      const path = join(dir, 'state.db');
      const received = now - 5000;
      const legacy = new Database(path);
      legacy.exec(`CREATE TABLE inbound_calls (id TEXT PRIMARY KEY, sender TEXT NOT NULL, kind TEXT NOT NULL,
        received_at INTEGER NOT NULL, status TEXT NOT NULL, request_json TEXT, answer_json TEXT) WITHOUT ROWID`);
      legacy
        .prepare(
          `INSERT INTO inbound_calls (id, sender, kind, received_at, status) VALUES (?, ?, ?, ?, 'done')`,
        )
        .run(request.id, request.pubkey, request.kind, received);
      legacy.close();

      const state = new StateDatabase(path);
      expect(state.replayFloor).toBe(0);
      state.openReplayMemory({
        nowSeconds: received + 10,
        windowSeconds: 3600,
        maxFutureSeconds: 300,
        maxIds: 1000,
      });
      expect(state.replayFloor).toBe(0);
      expect(state.isKnown(request.id)).toBe(true);
      await state.close();
      expect(column(path, 'SELECT created_at FROM inbound_calls')).toEqual([received + 300]);

      // Its request could have been created up to 300 s after it was received: it is kept until
      // that created_at leaves the window.
      const later = new StateDatabase(path);
      later.openReplayMemory({
        nowSeconds: received + 300 + 3600,
        windowSeconds: 3600,
        maxFutureSeconds: 300,
        maxIds: 1000,
      });
      expect(later.isKnown(request.id)).toBe(true);
      await later.close();
      const last = new StateDatabase(path);
      last.openReplayMemory({
        nowSeconds: received + 300 + 3601,
        windowSeconds: 3600,
        maxFutureSeconds: 300,
        maxIds: 1000,
      });
      expect(last.replayFloor).toBe(received + 301);
      await last.close();
      expect(column(path, 'SELECT id FROM inbound_calls')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is the one owner of its file: the relay outbox lives on its connection and survives a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    try {
      const path = join(dir, 'state.db');
      const state = new StateDatabase(path);
      const outbox = state.outbox();
      expect(state.outbox()).toBe(outbox);
      await outbox.add({ event: request, expiresAt: now + 600 });
      // The pool closes its outbox first; the database stays usable until its owner closes it.
      await outbox.close();
      await state.recordStarted(request, now);
      expect(state.status(request.id)).toBe('started');
      await state.close();

      const reopened = new StateDatabase(path);
      expect((await reopened.outbox().pending(now)).map((e) => e.event.id)).toEqual([request.id]);
      expect(reopened.status(request.id)).toBe('started');
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('StateDatabase outbox removals', () => {
  const rows = (path: string): string[] => {
    const db = new Database(path, { readonly: true });
    try {
      return (db.prepare('SELECT id FROM relay_outbox ORDER BY id').all() as { id: string }[]).map(
        (r) => r.id,
      );
    } finally {
      db.close();
    }
  };

  it('ride on the next commit instead of a transaction of their own, and never wait long', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    try {
      const path = join(dir, 'state.db');
      const state = new StateDatabase(path);
      const outbox = state.outbox();
      await outbox.add({ event: answer, expiresAt: now + 600 });
      let removed = false;
      const removal = outbox.remove(answer.id).then(() => (removed = true));
      expect(await outbox.size()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 60));
      // No transaction of its own yet: the row is still on the disk.
      expect(removed).toBe(false);
      expect(rows(path)).toEqual([answer.id]);
      // The next record commits it in the same transaction (or one before).
      await state.recordStarted(request, now);
      expect(removed).toBe(true);
      expect(rows(path)).toEqual([]);
      await removal;

      // Alone, a removal still commits after a short wait.
      await outbox.add({ event: request, expiresAt: now + 600 });
      await outbox.remove(request.id);
      expect(rows(path)).toEqual([]);
      await state.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are committed by pending() before it reads, and by close()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    try {
      const path = join(dir, 'state.db');
      const state = new StateDatabase(path);
      const outbox = state.outbox();
      await outbox.add({ event: answer, expiresAt: now + 600 });
      await outbox.add({ event: request, expiresAt: now + 600 });
      void outbox.remove(answer.id);
      expect((await outbox.pending(now)).map((entry) => entry.event.id)).toEqual([request.id]);
      void outbox.remove(request.id);
      await state.close();
      expect(rows(path)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('StateDatabase outbox order', () => {
  it('finds the next sequence number through an index, not a scan of the whole outbox', async () => {
    // Every add reads max(added_seq): without an index that is a scan per add, and a backlog of
    // 20,000 answers took minutes to enqueue.
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    const path = join(dir, 'state.db');
    const state = new StateDatabase(path);
    await state.close();
    const db = new Database(path);
    try {
      const plan = db
        .prepare('EXPLAIN QUERY PLAN SELECT coalesce(max(added_seq), 0) + 1 FROM relay_outbox')
        .all() as { detail: string }[];
      expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING (COVERING )?INDEX relay_outbox_seq/);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
