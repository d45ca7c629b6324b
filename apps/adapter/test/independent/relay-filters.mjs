/**
 * Subscription filters: validation, matching, and the order of stored events a relay returns,
 * written from docs/protocol.md §9.3 alone. It imports nothing from this repository: it is one
 * part of an independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { RuleError } from './canonical-json.mjs';

const ARRAY_FIELDS = ['ids', 'authors', 'kinds', '#p', '#e'];
const NUMBER_FIELDS = ['since', 'until', 'limit'];
/** Most values in one array, and the default and largest `limit` (the project's relay, §9.3). */
const MAX_VALUES = 1000;
const MAX_LIMIT = 500;

/**
 * Refuses a filter §9.3 refuses: another field, a field of the wrong type, a negative or
 * fractional number, too many values.
 *
 * @param {unknown} filter @param {number} index
 */
export function checkFilter(filter, index) {
  const fail = (/** @type {string} */ why) => {
    throw new RuleError('§9.3', `invalid: filter ${index}: ${why}`);
  };
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) fail('expected an object');
  for (const [name, value] of Object.entries(/** @type {object} */ (filter))) {
    if (ARRAY_FIELDS.includes(name)) {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        fail(`${name}: expected an array of strings`);
      if (value.length > MAX_VALUES) fail(`${name}: at most ${MAX_VALUES} values`);
    } else if (NUMBER_FIELDS.includes(name)) {
      if (!Number.isSafeInteger(value) || value < 0) fail(`${name}: expected an integer ≥ 0`);
    } else fail(`unknown field ${JSON.stringify(name)}`);
  }
}

/**
 * Whether `event` matches one filter (fields ANDed, values ORed, an empty array matches nothing).
 *
 * @param {Record<string, unknown>} filter @param {import('./event.mjs').XpEvent} event
 */
export function matchesFilter(filter, event) {
  const tagValues = (/** @type {string} */ name) =>
    event.tags.filter((t) => t[0] === name && t.length >= 2).map((t) => t[1]);
  if (filter.ids && !filter.ids.includes(event.id)) return false;
  if (filter.authors && !filter.authors.includes(event.pubkey)) return false;
  if (filter.kinds && !filter.kinds.includes(event.kind)) return false;
  for (const tag of ['p', 'e']) {
    const wanted = filter[`#${tag}`];
    if (wanted && !tagValues(tag).some((v) => wanted.includes(v))) return false;
  }
  if (filter.since !== undefined && event.created_at < filter.since) return false;
  if (filter.until !== undefined && event.created_at > filter.until) return false;
  return true;
}

/** @param {object[]} filters @param {import('./event.mjs').XpEvent} event */
export function matchesAny(filters, event) {
  return filters.some((f) => matchesFilter(f, event));
}

/**
 * The stored events a relay sends for a REQ, in order (§9.3): per filter, newest first, ties by
 * id ascending, at most `limit` (absent → 500, clamped at 500); an event sent for an earlier
 * filter is skipped (after the limit counted it).
 *
 * @param {Record<string, unknown>[]} filters @param {import('./event.mjs').XpEvent[]} stored
 */
export function storedAnswer(filters, stored) {
  const sent = new Set();
  const out = [];
  for (const filter of filters) {
    const limit = Math.min(filter.limit ?? MAX_LIMIT, MAX_LIMIT);
    const matching = stored
      .filter((e) => matchesFilter(filter, e))
      .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
    for (const e of matching) {
      if (sent.has(e.id)) continue;
      sent.add(e.id);
      out.push(e);
    }
  }
  return out;
}
