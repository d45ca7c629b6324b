/**
 * Gathers every issue and warning of one load, positioned through the YAML source, so that all
 * problems are reported at once. Issues on a value whose `${…}` interpolation already failed are
 * dropped (that failure is the one worth reading).
 * @module
 */

import { _formatPath, _isSecretPath, type KeyPath } from './_path.js';
import type { _YamlSource } from './_yaml-source.js';
import type { ConfigIssue, ConfigWarning, ConfigWarningCode } from './errors.js';

/** Where to point: at the key (`key:`) or at its value. */
export type _At = 'key' | 'value';

/** The issues and warnings of one load. */
export class _Collector {
  readonly issues: ConfigIssue[] = [];
  readonly warnings: ConfigWarning[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly source: _YamlSource) {}

  /** Records a problem at `path` (skipped when the value's interpolation failed). */
  error(path: KeyPath, message: string, at: _At = 'value'): void {
    if (this.source.isFailed(path)) return;
    const pos = at === 'key' ? this.source.locateKey(path) : this.source.locate(path);
    const issue: ConfigIssue = { file: this.source.file, ...pos, path: _formatPath(path), message };
    const id = `${issue.path}\u0000${message}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.issues.push(issue);
  }

  /** Records a warning at `path`. */
  warn(code: ConfigWarningCode, path: KeyPath, message: string, at: _At = 'value'): void {
    const pos = at === 'key' ? this.source.locateKey(path) : this.source.locate(path);
    this.warnings.push({ file: this.source.file, ...pos, path: _formatPath(path), code, message });
  }

  /** The plain value at `path`. */
  get(path: KeyPath): unknown {
    return this.source.get(path);
  }
}

/**
 * A value as a message may show it: strings quoted (and shortened, a URL's credentials left
 * out), lists and mappings by their shape, and anything under a secret path as "a value (not
 * shown)".
 */
export function _render(value: unknown, path: KeyPath): string {
  if (_isSecretPath(path)) return 'a value (not shown)';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    if (value === '') return 'an empty string';
    // a URL's user and password are not repeated
    const shown = value.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#@\s]*@/, '$1(credentials not shown)@');
    return JSON.stringify(shown.length > 60 ? `${shown.slice(0, 57)}...` : shown);
  }
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length}`;
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

/** Sorts by position, then path, so messages read top to bottom. */
export function _byPosition<T extends { line: number; column: number; path: string }>(a: T, b: T): number {
  return a.line - b.line || a.column - b.column || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
