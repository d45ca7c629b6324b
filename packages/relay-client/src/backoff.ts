/**
 * Reconnect delays: exponential growth from `initialMs` to `maxMs`, with "equal jitter" (half the
 * delay fixed, half random) so many clients that lost the same relay do not return in step, yet no
 * client retries sooner than half the planned delay.
 * @module
 */

/** Options of {@link reconnectDelay}. */
export interface BackoffOptions {
  /** The first delay, in ms. */
  initialMs: number;
  /** The largest delay, in ms. */
  maxMs: number;
}

/**
 * The delay before reconnect attempt `attempt` (0 for the first), in ms.
 * @param random - a number in [0, 1); injectable for tests.
 */
export function reconnectDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const planned = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(planned / 2 + (planned / 2) * random());
}
