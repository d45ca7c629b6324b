import { describe, expect, it } from 'vitest';
import { type ToolDocument, ToolIndex } from '../src/search.js';

const opts = { vectorWeight: 0, embedder: null, queryCleanup: false } as const;

describe('ToolIndex document fields', () => {
  it('indexes the server name, title and description', () => {
    const docs: ToolDocument[] = [
      { id: 'a.list', name: 'list_items', namespace: 'a', server: { name: 'acme', title: 'Zephyr Cloud' } },
      { id: 'b.list', name: 'list_items', namespace: 'b' },
    ];
    const index = new ToolIndex(opts);
    index.add(docs);
    expect(index.search('zephyr items').map((h) => h.id)[0]).toBe('a.list');
    const off = new ToolIndex({ ...opts, fieldBoosts: { server: 0 }, serverWeight: 0 });
    off.add(docs);
    expect(off.search('zephyr').map((h) => h.id)).toEqual([]);
  });

  it('indexes server instructions, lightly', () => {
    const index = new ToolIndex(opts);
    index.add([
      { id: 'a.run', name: 'run', namespace: 'a', server: { instructions: 'Use for quasar telemetry' } },
      { id: 'b.run', name: 'run', namespace: 'b' },
    ]);
    expect(index.search('quasar')[0]?.id).toBe('a.run');
  });

  it('indexes the tool title with the name', () => {
    const index = new ToolIndex(opts);
    index.add([
      { id: 'x.t1', name: 't1', title: 'Vortex report' },
      { id: 'x.t2', name: 't2' },
    ]);
    expect(index.search('vortex').map((h) => h.id)).toEqual(['x.t1']);
  });

  it('indexes enum values of parameters', () => {
    const index = new ToolIndex(opts);
    index.add([
      {
        id: 'x.emulate',
        name: 'emulate',
        inputSchema: {
          type: 'object',
          properties: { device: { type: 'string', enum: ['iphone', 'pixel'] } },
        },
      },
      {
        id: 'x.other',
        name: 'other',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      },
    ]);
    expect(index.search('iphone').map((h) => h.id)).toEqual(['x.emulate']);
  });
});

describe('ToolIndex server affinity', () => {
  const zephyr = { name: 'zephyr', description: 'Zephyr team channels' };
  const docs: ToolDocument[] = [
    {
      id: 'chat.post',
      name: 'post_message',
      description: 'Post a message to a channel',
      namespace: 'chat',
      server: zephyr,
    },
    {
      id: 'chat.history',
      name: 'channel_history',
      description: 'Messages of a channel',
      namespace: 'chat',
      server: zephyr,
    },
    {
      id: 'chat.users',
      name: 'list_users',
      description: 'Users of a channel',
      namespace: 'chat',
      server: zephyr,
    },
    { id: 'mail.send', name: 'send_note', description: 'Send a note to a person', namespace: 'mail' },
  ];

  it('lifts the tools of the server the query points at', () => {
    const ratio = (serverWeight: number) => {
      const index = new ToolIndex({ ...opts, serverWeight });
      index.add(docs);
      const hits = index.search('post a note on zephyr');
      const score = (id: string) => hits.find((h) => h.id === id)!.score;
      return score('chat.post') / score('mail.send');
    };
    expect(ratio(2)).toBeGreaterThan(ratio(0) + 0.3);
  });

  it('ranks the same after remove and re-add as when built from scratch', () => {
    const fresh = new ToolIndex(opts);
    fresh.add(docs);
    const churned = new ToolIndex(opts);
    churned.add(docs);
    churned.remove(['chat.post', 'mail.send']);
    churned.add([docs[3]!, docs[0]!]);
    for (const q of ['post a message to the channel', 'send a note', 'channel users']) {
      expect(churned.search(q)).toEqual(fresh.search(q));
    }
    const smaller = new ToolIndex(opts);
    smaller.add(docs.slice(1));
    churned.remove(['chat.post']);
    expect(churned.search('channel message')).toEqual(smaller.search('channel message'));
  });

  it('validates serverWeight and typoWeight', () => {
    expect(() => new ToolIndex({ serverWeight: -1 })).toThrow(/serverWeight/);
    expect(() => new ToolIndex({ typoWeight: Number.NaN })).toThrow(/typoWeight/);
  });
});
