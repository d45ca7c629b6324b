/**
 * Capped exponential backoff with jitter, for restarting an upstream server that went away.
 * Jitter spreads the restarts of many adapters (or many sources) that lost their servers at the
 * same moment, so they do not all come back in lockstep.
 * @module
 */

/** Options of {@link backoffDelay}. */
export interface BackoffOptions {
  /** The first delay, in ms. */
  minMs: number;
  /** The cap, in ms. */
  maxMs: number;
  /** A number in [0, 1); `Math.random` by default (tests pass a fixed one). */
  random?: () => number;
}

/**
 * The delay before attempt `attempt` (1 for the first retry): `minMs · 2^(attempt-1)`, capped at
 * `maxMs`, then "equal jitter" — half of it fixed, the other half random — so a delay is never
 * below half the exponential value and never above the cap.
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const random = options.random ?? Math.random;
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const base = Math.min(options.maxMs, options.minMs * 2 ** exponent);
  return Math.round(base / 2 + (base / 2) * random());
}

/** A delay as people read it: `8 s`, `0.3 s`, `12 s`, or `40 ms` below a tenth of a second. */
export function _formatDelay(ms: number): string {
  if (ms < 100) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (Number.isInteger(seconds) || seconds >= 10) return `${Math.round(seconds)} s`;
  return `${seconds.toFixed(1)} s`;
}
