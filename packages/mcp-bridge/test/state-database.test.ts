import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity, sealEvent } from '@xprotocol/crypto';
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

describe('StateDatabase', () => {
  it('moves a call started → answered → done, and keeps the id for dedupe', () => {
    const state = new StateDatabase(':memory:');
    expect(state.isKnown(request.id)).toBe(false);
    state.recordStarted(request, now);
    expect(state.unfinished()).toEqual([{ id: request.id, status: 'started', request, answer: undefined }]);
    state.recordAnswer(request, answer, now);
    expect(state.unfinished()).toEqual([{ id: request.id, status: 'answered', request: undefined, answer }]);
    state.markDone(request.id);
    expect(state.unfinished()).toEqual([]);
    expect(state.isKnown(request.id)).toBe(true);
    state.close();
  });

  it('records a refusal directly as answered, and refuses transitions out of order', () => {
    const state = new StateDatabase(':memory:');
    state.recordAnswer(request, answer, now);
    expect(state.status(request.id)).toBe('answered');
    expect(() => state.recordStarted(request, now)).toThrow(/cannot move to "started" from "answered"/);
    expect(() => state.markDone('f'.repeat(64))).toThrow(/cannot move to "done" from "unknown"/);
    state.close();
  });

  it('commits done without an fsync but keeps synchronous=FULL for everything else', () => {
    const state = new StateDatabase(':memory:');
    state.recordStarted(request, now);
    state.recordAnswer(request, answer, now);
    state.markDone(request.id);
    expect(state.durability().synchronous).toBe(2);
    state.close();
  });

  it('with its own outbox in use, records the answer unsynced and restores synchronous=FULL, also on failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-state-'));
    const state = new StateDatabase(join(dir, 'state.db'));
    const outbox = state.outbox();
    state.recordStarted(request, now);
    state.recordAnswer(request, answer, now);
    expect(state.durability().synchronous).toBe(2);
    expect(state.status(request.id)).toBe('answered');
    // A refused transition throws inside the unsynced section: the level must still come back.
    expect(() => state.recordAnswer(request, answer, now)).toThrow(
      /cannot move to "answered" from "answered"/,
    );
    expect(state.durability().synchronous).toBe(2);
    void outbox;
    state.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prunes finished calls older than the cutoff only', () => {
    const state = new StateDatabase(':memory:');
    state.recordAnswer(request, answer, now - 7200);
    state.markDone(request.id);
    expect(state.prune(now - 3600)).toBe(1);
    expect(state.isKnown(request.id)).toBe(false);
    state.close();
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
      state.recordStarted(request, now);
      expect(state.status(request.id)).toBe('started');
      state.close();

      const reopened = new StateDatabase(path);
      expect((await reopened.outbox().pending(now)).map((e) => e.event.id)).toEqual([request.id]);
      expect(reopened.status(request.id)).toBe('started');
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
