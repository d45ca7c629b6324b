// When the idle collector (runtime/idle-collector.ts) collects: only after an idle interval, only
// with enough spare heap, and not again until the heap has grown by as much.
import { describe, expect, it } from 'vitest';
import { type HeapFigures, startIdleCollector } from '../src/runtime/idle-collector.js';

const MiB = 1024 * 1024;

function _collector(heap: HeapFigures, busy: { value: number }) {
  const collections: number[] = [];
  const collector = startIdleCollector({
    intervalMs: 1 << 30,
    minSpareBytes: 16 * MiB,
    utilization: () => busy.value,
    heap: () => ({ ...heap }),
    collect: async () => {
      collections.push(heap.total);
      // What a collection does: the spare heap is returned.
      heap.total = heap.used + 2 * MiB;
      return true;
    },
  });
  return { collector, collections };
}

describe('startIdleCollector', () => {
  it('collects once idle with spare heap, then waits for the heap to grow again', async () => {
    const heap = { total: 180 * MiB, used: 60 * MiB };
    const busy = { value: 0.4 };
    const { collector, collections } = _collector(heap, busy);
    try {
      expect(await collector.check()).toBe(false); // busy
      busy.value = 0.001;
      expect(await collector.check()).toBe(true); // idle, 120 MiB spare
      expect(collections).toEqual([180 * MiB]);
      expect(await collector.check()).toBe(false); // nothing to return
      heap.total += 10 * MiB;
      expect(await collector.check()).toBe(false); // grown, but by less than 16 MiB
      heap.total += 10 * MiB;
      expect(await collector.check()).toBe(true);
      expect(collections).toEqual([180 * MiB, 82 * MiB]);
    } finally {
      collector.stop();
    }
  });

  it('collects on demand however busy, tells of every collection, and never runs two at once', async () => {
    const heap = { total: 50 * MiB, used: 45 * MiB };
    const told: [number, number][] = [];
    let release: (() => void) | undefined;
    const collector = startIdleCollector({
      intervalMs: 1 << 30,
      utilization: () => 0.9,
      heap: () => ({ ...heap }),
      collect: () =>
        new Promise<boolean>((resolve) => {
          release = () => {
            heap.total = 46 * MiB;
            resolve(true);
          };
        }),
      onCollected: (before, after) => told.push([before.total / MiB, after.total / MiB]),
    });
    try {
      const first = collector.collectNow();
      expect(await collector.collectNow()).toBe(false); // one at a time
      release?.();
      expect(await first).toBe(true);
      expect(told).toEqual([[50, 46]]);
    } finally {
      collector.stop();
    }
  });

  it('does not collect a heap without spare room, however idle', async () => {
    const heap = { total: 70 * MiB, used: 60 * MiB };
    const { collector, collections } = _collector(heap, { value: 0 });
    try {
      expect(await collector.check()).toBe(false);
      expect(collections).toEqual([]);
    } finally {
      collector.stop();
    }
  });

  it('measures the real event loop and heap by default', async () => {
    const collector = startIdleCollector({ intervalMs: 1 << 30, minSpareBytes: Number.MAX_SAFE_INTEGER });
    try {
      // Spare heap can never reach the bound: the check runs its measurements and declines.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await collector.check()).toBe(false);
    } finally {
      collector.stop();
    }
  });
});
