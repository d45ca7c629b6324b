/**
 * A small, conservative JSON Schema evaluator used at compile time (to filter `enum`/`const`
 * members and member names through the other keywords). It answers `true`, `false`, or
 * `undefined` when it cannot decide; callers treat `undefined` as "leave it out" (narrowing).
 * @module
 */
import { CONSTRAINING_KEYWORDS } from '@xprotocol/json-schema-vocabulary';
import { _child, type _Loc, type _RefIndex } from './refs.js';

/** @internal Deep equality of two JSON values (objects compared without key order). */
export function _jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => _jsonEqual(x, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b as object, k) &&
      _jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** @internal JSON type of a value, `integer` for integral numbers. */
export function _typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** @internal Length in code points, as ajv counts. */
export function _codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'required',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'items',
  'additionalItems',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  '$ref',
  'propertyNames',
  'dependentRequired',
  'nullable',
]);

type V = boolean | undefined;
const and = (a: V, b: V): V =>
  a === false || b === false ? false : a === undefined || b === undefined ? undefined : true;

/** @internal Does `value` satisfy the schema at `loc`? `undefined`: cannot tell. */
export function _check(value: unknown, loc: _Loc, index: _RefIndex, depth = 0): V {
  const s = loc.schema;
  if (s === true) return true;
  if (s === false) return false;
  if (s === null || typeof s !== 'object' || Array.isArray(s) || depth > 40) return undefined;
  const o = s as Record<string, unknown>;
  let r = unhandledKeywords(o, value);
  const t = _typeOf(value);
  const sub: Sub = (v, schema, ...segs) => _check(v, _child(loc, schema, ...segs), index, depth + 1);
  if (!typeAndValuesHold(o, value, t)) return false;
  // each step answers false as soon as a keyword fails
  if (typeof value === 'number') r = and(r, numberKeywords(o, value));
  if (r === false) return false;
  if (typeof value === 'string') r = and(r, stringKeywords(o, value));
  if (r === false) return false;
  if (t === 'object') r = and(r, objectKeywords(o, value as Record<string, unknown>, sub));
  if (r === false) return false;
  if (t === 'array') r = and(r, arrayKeywords(o, value as unknown[], sub));
  if (r === false) return false;
  return and(
    r,
    applicators(o, value, sub, () => refTarget(o, value, loc, index, depth)),
  );
}

/** Checks `value` against a subschema of the one being checked, at the given path segments. */
type Sub = (v: unknown, schema: unknown, ...segs: (string | number)[]) => V;

/** `undefined` when the schema has a constraining keyword this evaluator does not handle. */
function unhandledKeywords(o: Record<string, unknown>, value: unknown): V {
  let r: V = true;
  for (const k of Object.keys(o)) {
    if (!CONSTRAINING_KEYWORDS.has(k)) continue;
    if (HANDLED.has(k) || k === 'then' || k === 'else') continue;
    if (k === 'format' && typeof value !== 'string' && typeof value !== 'number') continue;
    r = and(r, undefined);
  }
  return r;
}

/** `type` (with `nullable`), `enum` and `const`. */
function typeAndValuesHold(o: Record<string, unknown>, value: unknown, t: string): boolean {
  if (o.type !== undefined) {
    const types = (Array.isArray(o.type) ? o.type : [o.type]) as unknown[];
    if (o.nullable === true) types.push('null');
    const ok = types.some((x) => x === t || (x === 'number' && t === 'integer'));
    if (!ok) return false;
  }
  if (Array.isArray(o.enum) && !o.enum.some((e) => _jsonEqual(e, value))) return false;
  if ('const' in o && !_jsonEqual(o.const, value)) return false;
  return true;
}

/** Bounds, `multipleOf`, and the compiler's `$$notMultipleOf`. */
function numberKeywords(o: Record<string, unknown>, value: number): V {
  let r: V = true;
  const exMinBool = o.exclusiveMinimum === true;
  const exMaxBool = o.exclusiveMaximum === true;
  if (typeof o.minimum === 'number' && (exMinBool ? value <= o.minimum : value < o.minimum)) return false;
  if (typeof o.maximum === 'number' && (exMaxBool ? value >= o.maximum : value > o.maximum)) return false;
  if (typeof o.exclusiveMinimum === 'number' && value <= o.exclusiveMinimum) return false;
  if (typeof o.exclusiveMaximum === 'number' && value >= o.exclusiveMaximum) return false;
  if (typeof o.$$notMultipleOf === 'number') {
    if (!Number.isInteger(value)) r = and(r, true);
    else if (Number.isSafeInteger(value)) {
      if (value % o.$$notMultipleOf === 0) return false;
    } else r = and(r, undefined);
  }
  if (typeof o.multipleOf === 'number') {
    if (Number.isInteger(o.multipleOf) && Number.isInteger(value)) {
      if (value % o.multipleOf !== 0) return false;
    } else r = and(r, undefined);
  }
  return r;
}

/** Lengths, `pattern`, and the compiler's `$$notPattern` / `$$notFormat`. */
function stringKeywords(o: Record<string, unknown>, value: string): V {
  let r: V = true;
  const n = _codePoints(value);
  if (typeof o.minLength === 'number' && n < o.minLength) return false;
  if (typeof o.maxLength === 'number' && n > o.maxLength) return false;
  if (typeof o.pattern === 'string') {
    try {
      if (!new RegExp(o.pattern, 'u').test(value)) return false;
    } catch {
      r = and(r, undefined);
    }
  }
  // compiler-made negations (negate.ts): not matching a pattern; not in a format
  if (typeof o.$$notPattern === 'string') {
    try {
      if (new RegExp(o.$$notPattern, 'u').test(value)) return false;
    } catch {
      r = and(r, undefined);
    }
  }
  if (o.$$notFormat !== undefined) r = and(r, undefined);
  return r;
}

/** `required`, property counts, member schemas, `propertyNames`, `dependentRequired`. */
function objectKeywords(o: Record<string, unknown>, obj: Record<string, unknown>, sub: Sub): V {
  let r: V = true;
  const keys = Object.keys(obj);
  if (Array.isArray(o.required) && o.required.some((k) => typeof k === 'string' && !Object.hasOwn(obj, k)))
    return false;
  if (typeof o.minProperties === 'number' && keys.length < o.minProperties) return false;
  if (typeof o.maxProperties === 'number' && keys.length > o.maxProperties) return false;
  for (const k of keys) {
    r = and(r, memberHolds(o, k, obj[k], sub));
    if (r === false) return false;
  }
  const dr = o.dependentRequired as Record<string, unknown> | undefined;
  if (dr && typeof dr === 'object') {
    for (const [k, req] of Object.entries(dr)) {
      if (Object.hasOwn(obj, k) && Array.isArray(req) && req.some((q) => !Object.hasOwn(obj, String(q))))
        return false;
    }
  }
  return r;
}

/**
 * Member `k` with value `v`: the `properties` and matching `patternProperties` schemas, else
 * `additionalProperties`; and `propertyNames` on the name.
 */
function memberHolds(o: Record<string, unknown>, k: string, v: unknown, sub: Sub): V {
  let r: V = true;
  const props = (o.properties ?? {}) as Record<string, unknown>;
  const pats = Object.entries((o.patternProperties ?? {}) as Record<string, unknown>);
  let matched = false;
  if (Object.hasOwn(props, k)) {
    matched = true;
    r = and(r, sub(v, props[k], 'properties', k));
  }
  for (const [p, ps] of pats) {
    let m: boolean | undefined;
    try {
      m = new RegExp(p, 'u').test(k);
    } catch {
      m = undefined;
    }
    if (m === undefined) r = and(r, undefined);
    else if (m) {
      matched = true;
      r = and(r, sub(v, ps, 'patternProperties', p));
    }
  }
  if (!matched && o.additionalProperties !== undefined)
    r = and(r, sub(v, o.additionalProperties, 'additionalProperties'));
  if (o.propertyNames !== undefined) r = and(r, sub(k, o.propertyNames, 'propertyNames'));
  return r;
}

/** Item counts, item schemas (a prefix, then the rest) and `uniqueItems`. */
function arrayKeywords(o: Record<string, unknown>, arr: unknown[], sub: Sub): V {
  let r: V = true;
  if (typeof o.minItems === 'number' && arr.length < o.minItems) return false;
  if (typeof o.maxItems === 'number' && arr.length > o.maxItems) return false;
  const prefix = Array.isArray(o.prefixItems) ? o.prefixItems : Array.isArray(o.items) ? o.items : [];
  const prefixKw = Array.isArray(o.prefixItems) ? 'prefixItems' : 'items';
  const rest = Array.isArray(o.prefixItems) ? o.items : Array.isArray(o.items) ? o.additionalItems : o.items;
  const restKw = Array.isArray(o.prefixItems)
    ? 'items'
    : Array.isArray(o.items)
      ? 'additionalItems'
      : 'items';
  arr.forEach((x, i) => {
    if (i < prefix.length) r = and(r, sub(x, prefix[i], prefixKw, i));
    else if (rest !== undefined) r = and(r, sub(x, rest, restKw));
  });
  if (o.uniqueItems === true) {
    for (let i = 0; i < arr.length; i++)
      for (let j = i + 1; j < arr.length; j++) if (_jsonEqual(arr[i], arr[j])) return false;
  }
  return r;
}

/** `allOf`, `anyOf`, `oneOf`, `not`, then `$ref` (`ref` checks the target, when there is one). */
function applicators(o: Record<string, unknown>, value: unknown, sub: Sub, ref: () => V): V {
  let r: V = true;
  if (Array.isArray(o.allOf)) {
    o.allOf.forEach((x, i) => {
      r = and(r, sub(value, x, 'allOf', i));
    });
  }
  if (Array.isArray(o.anyOf)) {
    const vs = o.anyOf.map((x, i) => sub(value, x, 'anyOf', i));
    r = and(r, vs.includes(true) ? true : vs.includes(undefined) ? undefined : false);
  }
  if (Array.isArray(o.oneOf)) {
    const vs = o.oneOf.map((x, i) => sub(value, x, 'oneOf', i));
    r = and(r, vs.includes(undefined) ? undefined : vs.filter(Boolean).length === 1);
  }
  if ('not' in o) {
    const v = sub(value, o.not, 'not');
    r = and(r, v === undefined ? undefined : !v);
  }
  if (typeof o.$ref === 'string') r = and(r, ref());
  return r;
}

/** `value` against the target of `$ref`; `undefined` when it cannot be resolved. */
function refTarget(
  o: Record<string, unknown>,
  value: unknown,
  loc: _Loc,
  index: _RefIndex,
  depth: number,
): V {
  try {
    return _check(value, index.resolve(o.$ref as string, loc, `${loc.ptr}/$ref`), index, depth + 1);
  } catch {
    return undefined;
  }
}
