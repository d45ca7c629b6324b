/**
 * Time checks of the verification order (docs/protocol.md §4): freshness runs after dedupe,
 * expiry is answered `EXPIRED`. Both take "now" as an argument, so they are deterministic.
 * @module
 */
import { type EventTemplate, getExpiration } from './event.js';

/** Limits of {@link checkFreshness}, in seconds. */
export interface FreshnessWindow {
  /** How far `created_at` may be ahead of now (clock skew). Default 300. */
  readonly maxFutureSeconds?: number;
  /** How far `created_at` may be behind now: the dedupe retention. Default 3600. */
  readonly maxAgeSeconds?: number;
}

/** Default clock skew allowance: 300 s. */
export const DEFAULT_MAX_FUTURE_SECONDS = 300;
/** Default maximum age, equal to the default dedupe retention: 3600 s. */
export const DEFAULT_MAX_AGE_SECONDS = 3600;

/**
 * `'future'` when `created_at` is more than `maxFutureSeconds` ahead of `nowSeconds`, `'stale'`
 * when it is more than `maxAgeSeconds` behind (the dedupe store may have forgotten it, so it is
 * dropped silently), else `'ok'`. The bounds themselves are inside the window.
 * @example
 * checkFreshness(event, Math.floor(Date.now() / 1000)); // 'ok' | 'future' | 'stale'
 */
export function checkFreshness(
  event: Pick<EventTemplate, 'created_at'>,
  nowSeconds: number,
  window: FreshnessWindow = {},
): 'ok' | 'future' | 'stale' {
  const maxFuture = window.maxFutureSeconds ?? DEFAULT_MAX_FUTURE_SECONDS;
  const maxAge = window.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
  if (event.created_at > nowSeconds + maxFuture) return 'future';
  if (event.created_at < nowSeconds - maxAge) return 'stale';
  return 'ok';
}

/**
 * True when the event carries an `expiration` tag and `nowSeconds` is past it (an event is still
 * valid during its expiration second).
 */
export function isExpired(event: Pick<EventTemplate, 'tags'>, nowSeconds: number): boolean {
  const expiration = getExpiration(event);
  return expiration !== undefined && nowSeconds > expiration;
}
