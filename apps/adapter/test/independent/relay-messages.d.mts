// The types of relay-messages.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * The prefix of a reason and where §9.2 allows it; a prefix the client does not know reads as
 * `invalid:` (§9.2).
 *
 * @param {string} reason @param {string} on e.g. "OK false"
 */
export function reasonPrefix(reason: string, on: string): string;
/**
 * The wait a `rate-limited:` reason asks for, in seconds (§9.2), or null.
 *
 * @param {string} reason
 */
export function retryAfter(reason: string): number;
/**
 * Reads one relay → client text frame strictly (§9's table).
 *
 * @param {string} text
 * @returns {{ type: string, [k: string]: unknown }}
 */
export function readRelayMessage(text: string): {
  type: string;
  [k: string]: unknown;
};
/** The six reason prefixes of §9.2, and the messages each may appear on. */
export const REASON_PREFIXES: {
  'invalid:': string[];
  'duplicate:': string[];
  'rate-limited:': string[];
  'restricted:': string[];
  'too-large:': string[];
  'error:': string[];
};
export function eventFrame(eventText: string): string;
export function reqFrame(subId: string, filters: object[]): string;
export function closeFrame(subId: string): string;
