/**
 * Subscription filters (docs/protocol.md §9; NIP-01 shape, XProtocol kinds and key strings): the
 * type, parsing with precise errors, and matching an event against a filter. A filter's fields are ANDed; the values inside
 * one field are ORed; several filters in one REQ are ORed.
 * @module
 */
import { _typeName } from './_type-name.js';

/** A parsed filter. Absent fields do not constrain. */
export interface Filter {
  ids?: string[];
  authors?: string[];
  kinds?: string[];
  '#p'?: string[];
  '#e'?: string[];
  since?: number;
  until?: number;
  limit?: number;
}

/** The minimal event view a filter reads. */
export interface FilterableEvent {
  id: string;
  pubkey: string;
  kind: string;
  created_at: number;
  tags: readonly (readonly string[])[];
}

/** Limits a relay places on filters. */
export interface FilterLimits {
  /** Most values in one array field. */
  maxValues: number;
  /** The largest `limit` honoured; larger ones are clamped, absent ones default to it. */
  maxLimit: number;
}

const ARRAY_FIELDS = ['ids', 'authors', 'kinds', '#p', '#e'] as const;
const ALL_FIELDS = new Set<string>([...ARRAY_FIELDS, 'since', 'until', 'limit']);

/** The result of parsing: a filter, or what was wrong with it. */
export type FilterParse = { ok: true; filter: Filter } | { ok: false; reason: string };

/**
 * Parses one filter object from a REQ. Unknown fields are refused (a filter the relay cannot
 * honour must not silently match more than asked).
 */
export function parseFilter(value: unknown, limits: FilterLimits): FilterParse {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `a filter must be an object, got ${_typeName(value)}` };
  }
  const record = value as Record<string, unknown>;
  const filter: Filter = {};
  for (const key of Object.keys(record)) {
    if (!ALL_FIELDS.has(key)) {
      return {
        ok: false,
        reason: `unsupported filter field ${JSON.stringify(key)}; expected one of ${[...ALL_FIELDS].join(', ')}`,
      };
    }
  }
  for (const field of ARRAY_FIELDS) {
    const raw = record[field];
    if (raw === undefined) continue;
    if (!Array.isArray(raw) || !raw.every((v) => typeof v === 'string')) {
      return { ok: false, reason: `filter field ${field} must be an array of strings` };
    }
    if (raw.length > limits.maxValues) {
      return {
        ok: false,
        reason: `filter field ${field} has ${raw.length} values; the limit is ${limits.maxValues}`,
      };
    }
    filter[field] = raw as string[];
  }
  for (const field of ['since', 'until', 'limit'] as const) {
    const raw = record[field];
    if (raw === undefined) continue;
    if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) {
      return { ok: false, reason: `filter field ${field} must be a non-negative integer` };
    }
    filter[field] = raw;
  }
  filter.limit = Math.min(filter.limit ?? limits.maxLimit, limits.maxLimit);
  return { ok: true, filter };
}

function hasTag(event: FilterableEvent, name: string, values: string[]): boolean {
  for (const tag of event.tags) {
    if (tag[0] === name && tag[1] !== undefined && values.includes(tag[1])) return true;
  }
  return false;
}

/** True when `event` satisfies every field of `filter` (ignoring `limit`, which applies to queries). */
export function matchesFilter(event: FilterableEvent, filter: Filter): boolean {
  if (filter.ids && !filter.ids.includes(event.id)) return false;
  if (filter.authors && !filter.authors.includes(event.pubkey)) return false;
  if (filter.kinds && !filter.kinds.includes(event.kind)) return false;
  if (filter.since !== undefined && event.created_at < filter.since) return false;
  if (filter.until !== undefined && event.created_at > filter.until) return false;
  if (filter['#p'] && !hasTag(event, 'p', filter['#p'])) return false;
  if (filter['#e'] && !hasTag(event, 'e', filter['#e'])) return false;
  return true;
}

/** True when `event` satisfies at least one of `filters`. */
export function matchesAny(event: FilterableEvent, filters: readonly Filter[]): boolean {
  return filters.some((filter) => matchesFilter(event, filter));
}
