/**
 * The SHA-256 of a call's arguments as canonical JSON (object keys sorted, no whitespace), so the
 * audit log can tell two calls with the same arguments apart from different ones without holding
 * a single value of them.
 * @module
 */
import { createHash } from 'node:crypto';

/** `sha256:` and the hex SHA-256 of `value`'s canonical JSON. */
export function argumentsHash(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** `value` as JSON with every object's keys in sorted order and no whitespace. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
