/**
 * One full garbage collection once the adapter serves. Starting up — loading modules, listing and
 * translating every catalog, compiling schemas and grammars — leaves tens of megabytes of dead
 * objects in V8's old generation: with 40 catalogs, 60 MiB live in 145 MiB of old space (heap
 * snapshot and `v8.getHeapSpaceStatistics()`, docs/performance.md). An idle adapter allocates too
 * little for V8 to start a major collection soon, so that memory stays resident for as long as
 * nothing happens. One collection right after startup returns it.
 *
 * Node exposes no collection call without `--expose-gc`; the flag is switched on just long enough
 * to take `gc` from a fresh context, then off again (a known use of `v8.setFlagsFromString`).
 * @module
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs one full (major) garbage collection. Returns false, having done nothing, when this Node
 * does not provide the collector function. Never throws.
 */
export function collectStartupGarbage(): boolean {
  let gc: unknown;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc');
  } catch {
    gc = undefined;
  } finally {
    try {
      setFlagsFromString('--no-expose-gc');
    } catch {
      // Leaving the flag on changes nothing for this process's own code.
    }
  }
  if (typeof gc !== 'function') return false;
  try {
    (gc as () => void)();
    return true;
  } catch {
    return false;
  }
}
