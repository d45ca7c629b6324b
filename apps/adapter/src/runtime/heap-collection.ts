/**
 * One full garbage collection that returns spare heap to the system, on demand. Starting up —
 * loading modules, listing and translating every catalog, compiling schemas and grammars — and
 * every burst of calls leave dead objects spread over V8's old generation and a young generation
 * grown to its maximum (two 16 MiB semi-spaces). An idle adapter allocates too little for V8 to
 * start a major collection of its own, so that memory stays resident for as long as nothing
 * happens; and a collection of V8's default kind frees the dead objects but keeps every page that
 * still holds a live one, and the young generation's size. With 40 catalogs at rest: 126–180 MiB
 * of old space for 50–60 MiB of live objects, and 32 MiB of empty young generation (heap snapshot
 * and `v8.getHeapSpaceStatistics()`, docs/performance.md).
 *
 * The collection is V8's low-memory one (`Isolate::LowMemoryNotification`: full collections that
 * compact the old generation, shrink the young generation to its initial size and release the
 * freed pages at once), which Node exposes as the inspector protocol's
 * `HeapProfiler.collectGarbage` on an in-process `inspector.Session` (no port is opened). A Node
 * built without the inspector gets a compacting collection instead: `gc`, taken with
 * `--expose-gc` switched on for that moment, with `--compact-on-every-full-gc` on for the one
 * collection (known uses of `v8.setFlagsFromString`); the young generation then keeps its size.
 * @module
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs the low-memory collection (or the compacting one, see the module comment). Resolves with
 * false, having done nothing, when this Node offers neither. Never rejects.
 */
export async function collectGarbage(): Promise<boolean> {
  let session: import('node:inspector').Session;
  try {
    const { Session } = await import('node:inspector');
    session = new Session();
    session.connect();
  } catch {
    return _collectWithGcFlag();
  }
  const collected = await new Promise<boolean>((resolve) => {
    try {
      session.post('HeapProfiler.collectGarbage', (error) => resolve(error === null || error === undefined));
    } catch {
      resolve(false);
    }
  });
  // Not from inside the protocol's callback: on Node 20.20 a disconnect there left the event loop
  // stuck (no timer fired again); once the dispatch has returned it is safe.
  setImmediate(() => session.disconnect());
  return collected || _collectWithGcFlag();
}

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
 * The fallback: one full collection that compacts the old generation, through `gc` with
 * `--compact-on-every-full-gc` on for the call. False when no `gc` can be had. Never throws.
 */
export function _collectWithGcFlag(): boolean {
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
