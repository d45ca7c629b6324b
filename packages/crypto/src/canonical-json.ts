/**
 * RFC 8785 JSON Canonicalization Scheme (JCS), restricted to the values every implementation
 * reads the same way (I-JSON, RFC 7493): no lone surrogates, no non-finite numbers, and — unless
 * asked — no integers outside ±(2^53 − 1), which other languages parse exactly and would
 * re-serialize differently. Anything that is not plain JSON data is refused, never coerced.
 * @module
 */
import { _loneSurrogateIndex } from './_bytes.js';
import { CryptoError } from './errors.js';
import { MAX_JSON_DEPTH } from './limits.js';

/** Options of {@link canonicalJson}. */
export interface CanonicalJsonOptions {
  /**
   * Serialize integers beyond `Number.MAX_SAFE_INTEGER` (e.g. `1e30`) the RFC 8785 way instead
   * of refusing them. Off by default: nothing this protocol signs may contain one.
   */
  readonly allowUnsafeIntegers?: boolean;
}

/**
 * Serializes `value` as RFC 8785 canonical JSON: object members sorted by the UTF-16 code units
 * of their names (§3.2.3), no whitespace, numbers as ECMAScript `Number.prototype.toString`
 * writes them (§3.2.2.3), strings with the minimal JSON escapes (§3.2.2.2).
 *
 * Throws {@link CryptoError} `INVALID_PAYLOAD`, naming the JSON path, for a lone surrogate (in a
 * string or a member name), `NaN`/`Infinity`, an unsafe integer, a cycle, nesting deeper than
 * {@link MAX_JSON_DEPTH}, a sparse array, or anything that is not `null`, a boolean, a number, a
 * string, an array or a plain object (`undefined`, functions, symbols, bigints, `Date`, `Map`,
 * class instances — `toJSON` is not called).
 * @example
 * canonicalJson({ b: [1, 2.50, 'é'], a: null }); // '{"a":null,"b":[1,2.5,"é"]}'
 */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const parts: string[] = [];
  _serialize(value, '$', 0, new Set(), options.allowUnsafeIntegers === true, parts);
  return parts.join('');
}

function fail(path: string, message: string): never {
  throw new CryptoError('INVALID_PAYLOAD', `${path}: ${message}`);
}

function serializeString(text: string, path: string, what: string): string {
  const at = _loneSurrogateIndex(text);
  if (at >= 0) {
    const unit = text.charCodeAt(at).toString(16).padStart(4, '0');
    fail(path, `expected well-formed Unicode in ${what}, got a lone surrogate \\u${unit} at index ${at}`);
  }
  // For well-formed strings JSON.stringify emits exactly RFC 8785 §3.2.2.2: `"` and `\` escaped,
  // \b \t \n \f \r short forms, other controls as lowercase \u00xx, everything else literal.
  return JSON.stringify(text);
}

function _serialize(
  value: unknown,
  path: string,
  depth: number,
  stack: Set<object>,
  allowUnsafeIntegers: boolean,
  out: string[],
): void {
  switch (typeof value) {
    case 'string':
      out.push(serializeString(value, path, 'a string'));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) fail(path, `expected a finite number, got ${String(value)}`);
      if (!allowUnsafeIntegers && Number.isInteger(value) && !Number.isSafeInteger(value)) {
        fail(
          path,
          `expected an integer within ±${Number.MAX_SAFE_INTEGER} (or a string), got ${String(value)}`,
        );
      }
      // ECMAScript Number::toString is the RFC 8785 §3.2.2.3 number format; -0 becomes "0".
      out.push(Object.is(value, -0) ? '0' : String(value));
      return;
    case 'object':
      break;
    default:
      fail(path, `expected a JSON value, got ${typeof value}`);
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (depth >= MAX_JSON_DEPTH) fail(path, `expected at most ${MAX_JSON_DEPTH} levels of nesting`);
  if (stack.has(value)) fail(path, 'expected a tree, got a cycle');
  if (Array.isArray(value)) {
    stack.add(value);
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) fail(`${path}[${i}]`, 'expected an array element, got a hole');
      if (i > 0) out.push(',');
      _serialize(value[i], `${path}[${i}]`, depth + 1, stack, allowUnsafeIntegers, out);
    }
    out.push(']');
    stack.delete(value);
    return;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    fail(
      path,
      `expected a plain object, got ${typeof name === 'string' ? name : 'an object with a prototype'}`,
    );
  }
  if (Object.getOwnPropertySymbols(value).length > 0) {
    fail(path, 'expected string member names only, got a symbol-keyed property');
  }
  stack.add(value);
  const record = value as Record<string, unknown>;
  // Default sort compares UTF-16 code units: exactly RFC 8785 §3.2.3.
  const keys = Object.keys(record).sort();
  out.push('{');
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const memberPath = `${path}[${JSON.stringify(key)}]`;
    if (i > 0) out.push(',');
    out.push(serializeString(key, memberPath, 'a member name'), ':');
    _serialize(record[key], memberPath, depth + 1, stack, allowUnsafeIntegers, out);
  }
  out.push('}');
  stack.delete(value);
}
