/**
 * Returns an idle adapter's spare heap to the system. After a burst of work (startup, a catalog
 * refresh, a run of calls) V8 keeps the grown young generation and the old generation's
 * fragmented pages resident, and an idle process never allocates enough for V8 to collect on its
 * own (docs/performance.md, "What the profiles showed", the idle collection). Every interval the
 * collector looks at the event loop's utilization over that interval; when it was idle and the
 * heap holds at least `minSpareBytes` more than it uses and has grown by that much since the last
 * collection, it runs one low-memory collection (runtime/heap-collection.ts).
 *
 * The cost is bounded: a collection runs only after the heap has grown again, and only in an
 * interval in which the process did next to nothing (the pause, tens of milliseconds with 40
 * catalogs, lands on a process nobody is waiting for). The timer is unref'd.
 * @module
 */

import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { collectGarbage } from './heap-collection.js';

/** The heap's committed and used bytes. */
export interface HeapFigures {
  total: number;
  used: number;
}

/** Options of {@link startIdleCollector}; the defaults suit the adapter. */
export interface IdleCollectorOptions {
  /** How often to look. Default 5 s. */
  intervalMs?: number;
  /** Below this share of the interval spent busy, the process counts as idle. Default 0.02. */
  idleBelow?: number;
  /** Spare heap (committed − used) and growth since the last collection that justify one. Default 16 MiB. */
  minSpareBytes?: number;
  /** For tests: the event loop's utilization since the previous call (0–1). */
  utilization?: () => number;
  /** For tests: the heap's figures. */
  heap?: () => HeapFigures;
  /** Told of every collection made (by a check or by `collectNow`), with the heap before and after. */
  onCollected?: (before: HeapFigures, after: HeapFigures) => void;
  /** For tests: the collection. */
  collect?: () => Promise<boolean>;
}

/** A running idle collector. */
export interface IdleCollector {
  /** Runs one check now (what the timer does). True when it collected. */
  check(): Promise<boolean>;
  /** Collects now, idle or not (after startup). True when it collected. */
  collectNow(): Promise<boolean>;
  /** Stops the timer. */
  stop(): void;
}

function _utilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    return utilization;
  };
}

function _heap(): HeapFigures {
  const stats = getHeapStatistics();
  return { total: stats.total_heap_size, used: stats.used_heap_size };
}

/** Starts checking every `intervalMs` whether an idle collection is due. */
export function startIdleCollector(options: IdleCollectorOptions = {}): IdleCollector {
  const idleBelow = options.idleBelow ?? 0.02;
  const minSpare = options.minSpareBytes ?? 16 * 1024 * 1024;
  const utilization = options.utilization ?? _utilization();
  const heap = options.heap ?? _heap;
  const collect = options.collect ?? collectGarbage;
  // The heap's size after the last collection; the first check compares with nothing.
  let after = 0;
  let collecting = false;
  const collectNow = async (): Promise<boolean> => {
    if (collecting) return false;
    collecting = true;
    const before = heap();
    try {
      if (!(await collect())) return false;
    } finally {
      collecting = false;
    }
    const figures = heap();
    after = figures.total;
    options.onCollected?.(before, figures);
    return true;
  };
  const check = async (): Promise<boolean> => {
    if (collecting || utilization() >= idleBelow) return false;
    const { total, used } = heap();
    if (total - used < minSpare || total - after < minSpare) return false;
    return collectNow();
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? 5000);
  timer.unref();
  return { check, collectNow, stop: () => clearInterval(timer) };
}
