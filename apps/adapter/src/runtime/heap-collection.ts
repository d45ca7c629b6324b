/**
 * One full, compacting garbage collection, on demand. Starting up — loading modules, listing and
 * translating every catalog, compiling schemas and grammars — and every burst of calls leave
 * dead objects spread over V8's old generation, and a young generation grown to its maximum
 * (two 16 MiB semi-spaces). An idle adapter allocates too little for V8 to start a major
 * collection of its own, so that memory stays resident for as long as nothing happens; and a
 * collection of V8's default kind frees the dead objects but keeps most pages that still hold a
 * live one. With 40 catalogs at rest: 126–180 MiB of old space for 50–60 MiB of live objects
 * (heap snapshot and `v8.getHeapSpaceStatistics()`, docs/performance.md).
 *
 * Node exposes no collection call without `--expose-gc`; the flag is switched on just long enough
 * to take `gc` from a fresh context, then off again, and `--compact-on-every-full-gc` is on only
 * for the one collection, so every fragmented page is evacuated and returned (a known use of
 * `v8.setFlagsFromString`). A collection made while the process allocates little also shrinks
 * the young generation back to its initial size (V8 does that on a full collection at a low
 * allocation rate): runtime/idle-collector.ts calls this once the event loop has been idle.
 * @module
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let _gc: (() => void) | undefined;

/** V8's `gc`, taken once from a fresh context with `--expose-gc` on for that moment. */
function _collector(): (() => void) | undefined {
  if (_gc) return _gc;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc === 'function') _gc = gc as () => void;
  } catch {
    // This Node provides no collector function; callers are told so.
  } finally {
    try {
      setFlagsFromString('--no-expose-gc');
    } catch {
      // Leaving the flag on changes nothing for this process's own code.
    }
  }
  return _gc;
}

/**
 * Runs one full (major) garbage collection that compacts the old generation. Returns false,
 * having done nothing, when this Node does not provide the collector function. Never throws.
 */
export function collectGarbage(): boolean {
  const gc = _collector();
  if (!gc) return false;
  try {
    setFlagsFromString('--compact-on-every-full-gc');
    gc();
    return true;
  } catch {
    return false;
  } finally {
    try {
      setFlagsFromString('--no-compact-on-every-full-gc');
    } catch {
      // Left on, later full collections compact too: slower, never wrong.
    }
  }
}
