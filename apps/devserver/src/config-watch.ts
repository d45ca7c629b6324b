/**
 * Hot reload (seed §10): watch the configuration file and call back when its content changes.
 * Polls the file's mtime and size (`fs.watchFile`), which also follows editors that save by
 * replacing the file; bursts of changes are coalesced into one callback.
 * @module
 */
import { type Stats, unwatchFile, watchFile } from 'node:fs';

/** Options of {@link watchConfigFile}. */
export interface ConfigWatchOptions {
  /** Polling interval in ms. Default 500. */
  intervalMs?: number;
  /** Quiet time after the last change before `onChange` runs, in ms. Default 200. */
  debounceMs?: number;
}

/**
 * Calls `onChange` (never concurrently) each time `path` changes; returns a function that stops
 * watching. A file that disappears is ignored until it comes back.
 */
export function watchConfigFile(
  path: string,
  onChange: () => Promise<void>,
  options: ConfigWatchOptions = {},
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const listener = (current: Stats, previous: Stats) => {
    if (current.mtimeMs === 0) return; // removed (or not there yet)
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(() => (stopped ? undefined : onChange())).catch(() => {});
    }, options.debounceMs ?? 200);
  };
  watchFile(path, { interval: options.intervalMs ?? 500, persistent: false }, listener);
  return () => {
    stopped = true;
    clearTimeout(timer);
    unwatchFile(path, listener);
  };
}
