/**
 * Path helpers for flags (config values are expanded by the config loader).
 * @module
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Expands a leading `~` to the home directory and makes the path absolute. */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return resolve(path);
}
