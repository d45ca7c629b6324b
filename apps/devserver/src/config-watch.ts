/**
 * Hot reload (docs/design.md §14): watch the configuration file and call back when it changes.
 *
 * Polls the file's stat (inode, size, mtime, ctime), which also follows editors that save by
 * replacing the file. The comparison starts from a stat the caller took *before* it read the file
 * (`since`), so an edit made while the first load or the watcher's own start-up was under way is
 * still seen: a baseline taken later would already include it and the edit would be lost. Bursts
 * of changes are coalesced into one callback.
 * @module
 */
import { type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';

/** Options of {@link watchConfigFile}. */
export interface ConfigWatchOptions {
  /** The file's stat taken before the running configuration was read; default: stat now. */
  since?: Stats | undefined;
  /** Polling interval in ms. Default 500. */
  intervalMs?: number;
  /** Quiet time after the last change before `onChange` runs, in ms. Default 200. */
  debounceMs?: number;
}

/** Identity of one version of a file; `undefined` while it does not exist. */
type Version = string | undefined;

function versionOf(stats: Stats | undefined): Version {
  return stats === undefined ? undefined : `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
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
  let seen: Version = versionOf(options.since ?? _statOrUndefined(path));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let polling = false;
  let stopped = false;
  const poll = async () => {
    if (polling || stopped) return;
    polling = true;
    try {
      const now = versionOf(await stat(path).catch(() => undefined));
      if (now === undefined || now === seen) return; // gone (until it comes back), or unchanged
      seen = now;
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(() => (stopped ? undefined : onChange())).catch(() => {});
      }, options.debounceMs ?? 200);
    } finally {
      polling = false;
    }
  };
  const interval = setInterval(poll, options.intervalMs ?? 500);
  interval.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearInterval(interval);
  };
}

/** `statSync`, or `undefined` when the file cannot be stat'ed. @internal */
export function _statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
