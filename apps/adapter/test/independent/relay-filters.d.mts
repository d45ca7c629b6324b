// The types of relay-filters.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Refuses a filter §9.3 refuses: another field, a field of the wrong type, a negative or
 * fractional number, too many values.
 *
 * @param {unknown} filter @param {number} index
 */
export function checkFilter(filter: unknown, index: number): void;
/**
 * Whether `event` matches one filter (fields ANDed, values ORed, an empty array matches nothing).
 *
 * @param {Record<string, unknown>} filter @param {import('./event.mjs').XpEvent} event
 */
export function matchesFilter(filter: Record<string, unknown>, event: import('./event.mjs').XpEvent): boolean;
/** @param {object[]} filters @param {import('./event.mjs').XpEvent} event */
export function matchesAny(filters: object[], event: import('./event.mjs').XpEvent): boolean;
/**
 * The stored events a relay sends for a REQ, in order (§9.3): per filter, newest first, ties by
 * id ascending, at most `limit` (absent → 500, clamped at 500); an event sent for an earlier
 * filter is skipped (after the limit counted it).
 *
 * @param {Record<string, unknown>[]} filters @param {import('./event.mjs').XpEvent[]} stored
 */
export function storedAnswer(
  filters: Record<string, unknown>[],
  stored: import('./event.mjs').XpEvent[],
): import('./event.mjs').XpEvent[];
