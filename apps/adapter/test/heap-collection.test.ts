// The compacting collection (runtime/heap-collection.ts): it runs, frees what is unreachable, and
// leaves `--expose-gc` off again for contexts made afterwards.
import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../src/runtime/heap-collection.js';

describe('collectGarbage', () => {
  it('collects an unreachable object and switches the flag off again', async () => {
    let target: object | undefined = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef's target survives the current job; the collection runs in the next one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
    expect(typeof runInNewContext('typeof gc')).toBe('string');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('returns the pages of a fragmented old generation', async () => {
    // Tens of MiB of objects that survive long enough to be promoted, then most of them dropped:
    // each page keeps live objects, which a collection without compaction leaves in place.
    const kept: object[][] = [];
    for (let i = 0; i < 64; i++) kept.push(Array.from({ length: 16_384 }, (_, j) => ({ i, j, s: `v${j}` })));
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    // Every 64th object stays: each page keeps a few live objects and is mostly free.
    for (const chunk of kept) for (let j = 0; j < chunk.length; j++) if (j % 64 !== 0) chunk[j] = [];
    await new Promise((resolve) => setImmediate(resolve));
    const before = getHeapStatistics();
    expect(collectGarbage()).toBe(true);
    const after = getHeapStatistics();
    expect(kept.length).toBe(64);
    // One object in 64 is left (the empty arrays share one empty backing store).
    expect(after.total_heap_size).toBeLessThan(before.total_heap_size - 16 * 1024 * 1024);
  });
});
