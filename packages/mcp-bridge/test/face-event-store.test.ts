import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { _faceEventStore } from '../src/serving/event-store.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

async function replay(store: ReturnType<typeof _faceEventStore>, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { stream, sent };
}

describe('the face event store (stream resumption)', () => {
  it('replays the events of the same stream after Last-Event-ID, in order', async () => {
    const store = _faceEventStore();
    const a1 = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(2));
    const a3 = await store.storeEvent('a', note(3));
    const a4 = await store.storeEvent('a', note(4));
    expect(await store.getStreamIdForEventId?.(a3)).toBe('a');
    const { stream, sent } = await replay(store, a1);
    expect(stream).toBe('a');
    expect(sent).toEqual([
      [a3, note(3)],
      [a4, note(4)],
    ]);
  });

  it('forgets the oldest events past its bounds; an id it forgot replays nothing', async () => {
    const store = _faceEventStore({ maxEvents: 2 });
    const first = await store.storeEvent('a', note(1));
    const second = await store.storeEvent('a', note(2));
    const third = await store.storeEvent('a', note(3));
    expect(await replay(store, first)).toEqual({ stream: '', sent: [] });
    expect((await replay(store, second)).sent).toEqual([[third, note(3)]]);
    const small = _faceEventStore({ maxBytes: JSON.stringify(note(1)).length });
    const kept = await small.storeEvent('a', note(1));
    await small.storeEvent('a', note(2));
    expect(await small.getStreamIdForEventId?.(kept)).toBeUndefined();
  });
});
