/**
 * Internal JSON helpers: deep copy preserving key order, structural equality, previews for
 * error messages.
 * @module
 */
import type { JsonObject, JsonValue } from './json.js';

/** Deep copy of a JSON value; object key order is kept (it is declaration order for schemas). */
export function _cloneJson<T extends JsonValue>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => _cloneJson(item)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      // defineProperty so a key such as "__proto__" (refused earlier anyway) can never reach the prototype
      Object.defineProperty(out, key, {
        value: _cloneJson((value as JsonObject)[key] as JsonValue),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out as T;
  }
  return value;
}

/** Structural equality of two JSON values; object key order is ignored. */
export function _jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => _jsonEqual(item, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((key) => Object.hasOwn(b, key) && _jsonEqual(a[key], b[key]));
}

/** A short printable form of any value for error messages. */
export function _preview(value: unknown, max = 60): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (value === undefined) text = 'undefined';
  else if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint')
    text = typeof value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Encodes one JSON Pointer reference token (RFC 6901 §3). */
export function _pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}
