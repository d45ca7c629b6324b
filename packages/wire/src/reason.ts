/**
 * Refusal reasons of the relay protocol (docs/protocol.md §9): a machine-readable prefix, a colon,
 * a space and a human sentence, on `OK false`, `CLOSED` and `NOTICE`.
 * @module
 */

/** Every reason prefix, in the order docs/protocol.md §9 lists them. */
export const REASON_PREFIXES = Object.freeze([
  'invalid',
  'duplicate',
  'rate-limited',
  'restricted',
  'too-large',
  'error',
] as const);

/** One reason prefix. `duplicate` comes with `accepted: true`. */
export type ReasonPrefix = (typeof REASON_PREFIXES)[number];

/**
 * Builds a `prefix: message` reason string.
 * @example
 * reason('rate-limited', 'slow down: retry after 2 s'); // 'rate-limited: slow down: retry after 2 s'
 */
export function reason(prefix: ReasonPrefix, message: string): string {
  return `${prefix}: ${message}`;
}

/** The prefix of a reason string, or `undefined` when it starts with none. */
export function reasonPrefixOf(text: string): ReasonPrefix | undefined {
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const head = text.slice(0, colon);
  return (REASON_PREFIXES as readonly string[]).includes(head) ? (head as ReasonPrefix) : undefined;
}

/** True for a refusal worth retrying later (`rate-limited:` and `error:`). */
export function isRetryableReason(text: string): boolean {
  const prefix = reasonPrefixOf(text);
  return prefix === 'rate-limited' || prefix === 'error';
}

/**
 * The `retry after N` hint of a `rate-limited:` reason, in seconds, or `undefined` when absent.
 * @example
 * retryAfterOf('rate-limited: slow down: retry after 3 s'); // 3
 */
export function retryAfterOf(text: string): number | undefined {
  const found = /retry after (\d+)/.exec(text);
  return found ? Number(found[1]) : undefined;
}
