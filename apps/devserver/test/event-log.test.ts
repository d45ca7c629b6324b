// The pretty event log: line format, the observing store, refusal counting.
import { MemoryEventStore } from '@xprotocol/relay';
import { describe, expect, it } from 'vitest';
import {
  type EventLogEntry,
  formatBytes,
  formatEventLine,
  formatRefusalLine,
  ObservedEventStore,
  shortKey,
} from '../src/event-log.js';
import { createStyle } from '../src/style.js';

const plain = createStyle(false);
const FROM = `ed25519:${'3f2a91c0'.padEnd(64, 'a')}`;
const TO = `ed25519:${'7be0d412'.padEnd(64, 'b')}`;

describe('formatEventLine', () => {
  const entry: EventLogEntry = {
    at: Date.UTC(2026, 0, 1, 9, 5, 7, 42),
    kind: 'com.demo.fs.read_text_file',
    from: FROM,
    to: TO,
    bytes: 612,
    outcome: 'stored',
    id: 'ab'.repeat(32),
  };

  it('shows time, kind, short keys, size and OK', () => {
    expect(formatEventLine(entry, plain)).toBe(
      '09:05:07.042  com.demo.fs.read_text_file         3f2a91c0 → 7be0d412    612 B  OK',
    );
  });

  it('marks public events with * and duplicates and store failures', () => {
    expect(formatEventLine({ ...entry, to: undefined, outcome: 'duplicate' }, plain)).toMatch(
      /3f2a91c0 → \* +612 B {2}OK duplicate$/,
    );
    expect(formatEventLine({ ...entry, outcome: 'failed' }, plain)).toMatch(/refused: could not store$/);
  });

  it('colours only when asked', () => {
    expect(formatEventLine(entry, createStyle(true))).toContain('\u001b[32mOK\u001b[39m');
    expect(formatEventLine(entry, plain)).not.toContain('\u001b');
  });

  it('sizes and keys', () => {
    expect([formatBytes(0), formatBytes(999), formatBytes(1234), formatBytes(4_194_304)]).toEqual([
      '0 B',
      '999 B',
      '1.2 kB',
      '4.2 MB',
    ]);
    expect([shortKey(FROM), shortKey(undefined)]).toEqual(['3f2a91c0', '*']);
  });
});

describe('ObservedEventStore', () => {
  it('reports each put after the inner store answered, and passes everything through', async () => {
    const seen: EventLogEntry[] = [];
    const store = new ObservedEventStore(
      new MemoryEventStore(),
      (e) => seen.push(e),
      () => 1000,
    );
    const event = {
      id: 'cd'.repeat(32),
      pubkey: FROM,
      created_at: 1,
      kind: 'com.x.y',
      tags: [['p', TO]],
      content: 'sealed',
      sig: 'ef'.repeat(64),
    };
    expect(await store.put(event, 10)).toBe('stored');
    expect(await store.put(event, 10)).toBe('duplicate');
    expect(seen.map((e) => [e.outcome, e.from, e.to, e.kind, e.at])).toEqual([
      ['stored', FROM, TO, 'com.x.y', 1000],
      ['duplicate', FROM, TO, 'com.x.y', 1000],
    ]);
    expect(seen[0]!.bytes).toBe(Buffer.byteLength(JSON.stringify(event)));
    expect(await store.count()).toBe(1);
    expect(await store.query({ ids: [event.id] }, 0)).toHaveLength(1);
    // What it holds is passed on too, so the relay counts it against its storage quotas.
    const held: [string, number, number][] = [];
    await store.forEachStored((pubkey, expiresAt, bytes) => held.push([pubkey, expiresAt, bytes]));
    expect(held).toEqual([[FROM, 10, seen[0]!.bytes]]);
    expect(await store.expire(10)).toBe(1);
    await store.close();
  });

  it('reports a store failure and rethrows it', async () => {
    const seen: EventLogEntry[] = [];
    const inner = new MemoryEventStore();
    await inner.close();
    const failing = {
      put: () => Promise.reject(new Error('disk full')),
      query: inner.query.bind(inner),
      expire: inner.expire.bind(inner),
      count: inner.count.bind(inner),
      close: inner.close.bind(inner),
    };
    const store = new ObservedEventStore(failing, (e) => seen.push(e));
    const event = {
      id: '01'.repeat(32),
      pubkey: FROM,
      created_at: 1,
      kind: 'k',
      tags: [],
      content: '',
      sig: '',
    };
    await expect(store.put(event, 10)).rejects.toThrow('disk full');
    expect(seen.map((e) => [e.outcome, e.to])).toEqual([['failed', undefined]]);
  });
});

describe('formatRefusalLine', () => {
  it('shows time, the kind and key the event claimed, and the reason its sender was told', () => {
    expect(
      formatRefusalLine(
        {
          id: 'ab'.repeat(32),
          reason: 'invalid: bad signature',
          pubkey: FROM,
          kind: 'com.demo.fs.read_text_file',
        },
        plain,
        Date.UTC(2026, 0, 1, 9, 5, 7, 42),
      ),
    ).toBe(
      '09:05:07.042  com.demo.fs.read_text_file         3f2a91c0             refused: invalid: bad signature',
    );
  });

  it('says so when the event named no kind or key', () => {
    expect(formatRefusalLine({ id: '', reason: 'invalid: not JSON' }, plain, Date.UTC(2026, 0, 1))).toBe(
      '00:00:00.000  (no kind)                          ?                    refused: invalid: not JSON',
    );
  });
});
