// The collection that returns spare heap (runtime/heap-collection.ts): the low-memory collection
// frees what is unreachable, returns a fragmented old generation's pages and shrinks the young
// generation; the fallback compacts and leaves `--expose-gc` off again.
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { _collectWithGcFlag, collectGarbage } from '../src/runtime/heap-collection.js';

const MiB = 1024 * 1024;

/**
 * Tens of MiB of objects that live long enough to be promoted, then all but one in 64 dropped:
 * each old-generation page keeps a few live objects, which a collection without compaction leaves
 * in place.
 */
async function _fragmentedHeap(settle: () => unknown): Promise<object[][]> {
  const kept: object[][] = [];
  for (let i = 0; i < 64; i++) kept.push(Array.from({ length: 16_384 }, (_, j) => ({ i, j, s: `v${j}` })));
  await new Promise((resolve) => setImmediate(resolve));
  await settle();
  for (const chunk of kept) for (let j = 0; j < chunk.length; j++) if (j % 64 !== 0) chunk[j] = [];
  await new Promise((resolve) => setImmediate(resolve));
  return kept;
}

const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

describe('collectGarbage', () => {
  it('collects an unreachable object', async () => {
    let target: object | undefined = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef's target survives the current job; the collection runs in the next one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await collectGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
  });

  it('returns the pages of a fragmented old generation and shrinks the young generation', async () => {
    const kept = await _fragmentedHeap(() => collectGarbage());
    const grown = newSpace();
    const before = getHeapStatistics();
    expect(await collectGarbage()).toBe(true);
    const after = getHeapStatistics();
    expect(kept.length).toBe(64);
    expect(after.total_heap_size).toBeLessThan(before.total_heap_size - 16 * MiB);
    // Promoting tens of MiB grew the young generation past its initial size; it is back to that.
    expect(grown).toBeGreaterThan(2 * MiB);
    expect(newSpace()).toBeLessThanOrEqual(2 * MiB);
  });
});

describe('_collectWithGcFlag (the fallback)', () => {
  it('compacts a fragmented old generation and switches --expose-gc off again', async () => {
    const kept = await _fragmentedHeap(() => _collectWithGcFlag());
    const before = getHeapStatistics();
    expect(_collectWithGcFlag()).toBe(true);
    const after = getHeapStatistics();
    expect(kept.length).toBe(64);
    expect(after.total_heap_size).toBeLessThan(before.total_heap_size - 16 * MiB);
    expect(typeof runInNewContext('typeof gc')).toBe('string');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
