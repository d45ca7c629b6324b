/**
 * What `--db` (or the `db` option) names: a SQLite file path, or a Postgres database as a
 * `postgres://` or `postgresql://` URL. A URL is checked before anything connects, and it is only
 * ever shown with its password replaced by `***`: in errors, in the relay's start line, anywhere.
 * @module
 */
import { RelayError } from './errors.js';

/** Where a relay keeps its events, as read from `--db`. */
export type _DatabaseTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; shown: string };

const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:']);

/**
 * Reads `db` (given as the option or flag `name`, for messages): a `postgres://` or
 * `postgresql://` URL selects Postgres, any other `scheme://` is refused, anything else is a
 * SQLite file path. Throws `INVALID_OPTIONS` (with the password redacted) when a Postgres URL
 * cannot be read or names no host or database.
 */
export function _databaseTarget(db: string, name: string): _DatabaseTarget {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(db)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'sqlite', path: db };
  if (!POSTGRES_SCHEMES.has(`${scheme}:`)) {
    throw new RelayError(
      'INVALID_OPTIONS',
      `${name} expects a SQLite file path or a postgres:// (postgresql://) URL, got ${JSON.stringify(_redactedUrl(db).slice(0, 200))}`,
    );
  }
  let url: URL;
  try {
    url = new URL(db);
  } catch {
    throw new RelayError(
      'INVALID_OPTIONS',
      `${name} expects a postgres://user:password@host:port/database URL, got ${JSON.stringify(_redactedUrl(db).slice(0, 200))}, which is not a URL`,
    );
  }
  const shown = _redactedUrl(db);
  if (url.hostname === '' || url.pathname.length <= 1) {
    throw new RelayError(
      'INVALID_OPTIONS',
      `${name} expects a postgres://user:password@host:port/database URL naming a host and a database, got ${JSON.stringify(shown)}`,
    );
  }
  return { kind: 'postgres', url: db, shown };
}

/**
 * `url` with the password of its user-info part replaced by `***`. Works on text that is not a
 * valid URL too (the part between `:` and the last `@` before the host goes).
 */
export function _redactedUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#]*@/i, '$1:***@');
}
