/**
 * Conjunctions: a list of schemas that must all hold (`allOf`, `$ref` with siblings, a schema and
 * its `anyOf` branch) is expanded, then merged per JSON type into one {@link _Flat}.
 * @module
 */
import { CONSTRAINING_KEYWORDS } from '@xprotocol/json-schema-vocabulary';
import { GbnfCompileError } from './compile-error.js';
import type { _Ctx } from './context.js';
import { _jsonEqual, _typeOf } from './instance-check.js';
import type { _Bound } from './number-range.js';
import { _child, type _Loc } from './refs.js';

/** The seven JSON Schema types. */
export type _JsonType = 'null' | 'boolean' | 'object' | 'array' | 'string' | 'number' | 'integer';
const ALL_TYPES: readonly _JsonType[] = ['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'];

/** @internal One disjunction to distribute: `anyOf` or `oneOf` branches. */
export interface _Group {
  readonly kind: 'anyOf' | 'oneOf';
  readonly branches: readonly _Loc[];
  readonly ptr: string;
}

/** @internal The result of expanding a conjunction. */
export interface _Parts {
  /** Schemas whose own (non-combinator) keywords apply. */
  readonly plain: _Loc[];
  readonly groups: _Group[];
  readonly nots: _Loc[];
  readonly conds: {
    readonly cond: _Loc;
    readonly thenLoc: _Loc | undefined;
    readonly elseLoc: _Loc | undefined;
    readonly ptr: string;
  }[];
  never: string | undefined;
}

/** @internal An array part of one conjunct. */
export interface _ArrPart {
  readonly prefix: readonly _Loc[];
  /** Schema of items after the prefix; undefined = any. */
  readonly rest: _Loc | undefined;
}

/** @internal A conjunction merged per type. */
export interface _Flat {
  readonly ptr: string;
  readonly base: string;
  types: Set<_JsonType>;
  values: unknown[] | undefined;
  valuesLocs: _Loc[];
  notIn: unknown[];
  minLength: number;
  maxLength: number | undefined;
  patterns: { src: string; ptr: string }[];
  formats: { name: string; ptr: string }[];
  /** Patterns a string must not match, formats it must not be in (from negations). */
  notPatterns: { src: string; ptr: string }[];
  notFormats: { name: string; ptr: string }[];
  /** Integers a number must not be a multiple of (from negations). */
  notMultipleOf: { value: number; ptr: string }[];
  lo: _Bound | undefined;
  hi: _Bound | undefined;
  multipleOf: { value: number; ptr: string }[];
  objParts: _Loc[];
  required: string[];
  minProperties: number;
  maxProperties: number | undefined;
  dependentRequired: { name: string; deps: string[]; ptr: string }[];
  unevaluatedProperties: _Loc[];
  arrParts: _ArrPart[];
  minItems: number;
  maxItems: number | undefined;
  uniqueItems: string | undefined;
  contains: { loc: _Loc; min: number; max: number | undefined; ptr: string }[];
  unevaluatedItems: _Loc[];
  /** Conjunct locations (original schemas) the flat came from. */
  sources: _Loc[];
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** @internal True when the schema object has a keyword that constrains (beyond annotations). */
export function _hasOwnConstraints(o: Record<string, unknown>): boolean {
  for (const k of OWN_KEYWORDS) if (k in o) return true;
  return false;
}

// Keywords that constrain the instance at this location by themselves: every constraining keyword
// of the vocabulary except the in-place applicators and references (`_expand` resolves those), and
// the modifiers that say nothing alone (`minContains`/`maxContains` refine `contains`; `nullable`
// widens `type`); plus this compiler's internal negation keywords.
const OWN_KEYWORDS = [
  ...[...CONSTRAINING_KEYWORDS].filter(
    (k) =>
      ![
        'allOf',
        'anyOf',
        'oneOf',
        'not',
        'if',
        'then',
        'else',
        'dependentSchemas',
        '$ref',
        '$dynamicRef',
        '$recursiveRef',
        'minContains',
        'maxContains',
        'nullable',
      ].includes(k),
  ),
  '$$notIn',
  '$$notPattern',
  '$$notFormat',
  '$$notMultipleOf',
];

/**
 * @internal Expands `locs`: follows `$ref`, flattens `allOf`, collects `anyOf`/`oneOf` groups,
 * `not`, `if`/`then`/`else` and `dependentSchemas` (as conditionals).
 */
export function _expand(ctx: _Ctx, locs: readonly _Loc[]): _Parts {
  const parts: _Parts = { plain: [], groups: [], nots: [], conds: [], never: undefined };
  const seen = new Set<unknown>();
  const seenOwn = new Set<unknown>();
  const work = [...locs];
  while (work.length > 0) {
    const loc = work.shift()!;
    const s = loc.schema;
    if (loc.own) {
      if (!seenOwn.has(s) && !seen.has(s)) parts.plain.push(loc);
      seenOwn.add(s);
      continue;
    }
    if (s === true) continue;
    if (s === false) {
      parts.never ??= loc.ptr;
      continue;
    }
    if (!isObj(s))
      throw new GbnfCompileError(
        'INVALID_SCHEMA',
        loc.ptr,
        `expected a schema (object or boolean), got ${describe(s)}`,
      );
    if (seen.has(s)) continue;
    seen.add(s);
    const refKw =
      typeof s.$ref === 'string'
        ? '$ref'
        : typeof s.$dynamicRef === 'string'
          ? '$dynamicRef'
          : typeof s.$recursiveRef === 'string'
            ? '$recursiveRef'
            : undefined;
    if (refKw !== undefined) {
      if (refKw !== '$ref' && ctx.index.dynamic) {
        throw new GbnfCompileError(
          'UNSUPPORTED_KEYWORD',
          `${loc.ptr}/${refKw}`,
          `${refKw} with dynamic anchors in the schema cannot be compiled`,
        );
      }
      work.push(ctx.index.resolve(s[refKw] as string, loc, `${loc.ptr}/${refKw}`));
    }
    if (!seenOwn.has(s)) parts.plain.push({ ...loc, own: true });
    if (Array.isArray(s.allOf)) {
      s.allOf.forEach((b, i) => {
        work.push(_child(loc, b, 'allOf', i));
      });
    }
    for (const kind of ['anyOf', 'oneOf'] as const) {
      const bs = s[kind];
      if (bs === undefined) continue;
      if (!Array.isArray(bs) || bs.length === 0) {
        throw new GbnfCompileError(
          'INVALID_SCHEMA',
          `${loc.ptr}/${kind}`,
          `expected a non-empty array of schemas, got ${describe(bs)}`,
        );
      }
      parts.groups.push({
        kind,
        branches: bs.map((b, i) => _child(loc, b, kind, i)),
        ptr: `${loc.ptr}/${kind}`,
      });
    }
    if ('not' in s) parts.nots.push(_child(loc, s.not, 'not'));
    if ('if' in s && ('then' in s || 'else' in s)) {
      parts.conds.push({
        cond: _child(loc, s.if, 'if'),
        thenLoc: 'then' in s ? _child(loc, s.then, 'then') : undefined,
        elseLoc: 'else' in s ? _child(loc, s.else, 'else') : undefined,
        ptr: `${loc.ptr}/if`,
      });
    }
    const depSchemas: [string, unknown, string][] = [];
    if (isObj(s.dependentSchemas))
      for (const [k, v] of Object.entries(s.dependentSchemas)) depSchemas.push([k, v, 'dependentSchemas']);
    if (isObj(s.dependencies))
      for (const [k, v] of Object.entries(s.dependencies))
        if (!Array.isArray(v)) depSchemas.push([k, v, 'dependencies']);
    for (const [k, v, kw] of depSchemas) {
      const ptr = `${loc.ptr}/${kw}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      parts.conds.push({
        cond: ctx.synth({ required: [k] }, ptr, loc.base),
        thenLoc: _child(loc, v, kw, k),
        elseLoc: undefined,
        ptr,
      });
    }
  }
  return parts;
}

function describe(v: unknown): string {
  const t = JSON.stringify(v);
  return t === undefined ? String(v) : t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

function typesOf(o: Record<string, unknown>, ptr: string): Set<_JsonType> | undefined {
  if (o.type === undefined) return undefined;
  const raw = Array.isArray(o.type) ? o.type : [o.type];
  const out = new Set<_JsonType>();
  for (const t of raw) {
    if (typeof t !== 'string' || !(ALL_TYPES as readonly string[]).includes(t)) {
      throw new GbnfCompileError(
        'INVALID_SCHEMA',
        `${ptr}/type`,
        `expected one of ${ALL_TYPES.join(', ')}, got ${describe(t)}`,
      );
    }
    out.add(t as _JsonType);
  }
  if (o.nullable === true) out.add('null');
  return out;
}

function num(o: Record<string, unknown>, k: string, ptr: string): number | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new GbnfCompileError('INVALID_SCHEMA', `${ptr}/${k}`, `expected a number, got ${describe(v)}`);
  }
  return v;
}

function nonNegInt(o: Record<string, unknown>, k: string, ptr: string): number | undefined {
  const v = num(o, k, ptr);
  if (v === undefined) return undefined;
  if (v < 0)
    throw new GbnfCompileError('INVALID_SCHEMA', `${ptr}/${k}`, `expected a non-negative integer, got ${v}`);
  return Math.floor(v);
}

function tighterLo(a: _Bound | undefined, b: _Bound): _Bound {
  if (a === undefined) return b;
  if (b.value > a.value) return b;
  if (b.value === a.value && b.exclusive) return b;
  return a;
}
function tighterHi(a: _Bound | undefined, b: _Bound): _Bound {
  if (a === undefined) return b;
  if (b.value < a.value) return b;
  if (b.value === a.value && b.exclusive) return b;
  return a;
}
const minU = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/** @internal Merges the own keywords of `plain` into one flat constraint set. */
export function _merge(_ctx: _Ctx, plain: readonly _Loc[], first: _Loc): _Flat {
  const f = emptyFlat(plain, first);
  for (const loc of plain) {
    const o = loc.schema as Record<string, unknown>;
    const p = loc.ptr;
    mergeTypes(f, o, p);
    mergeValues(f, o, p, loc);
    mergeNegations(f, o, p);
    mergeStringKeywords(f, o, p);
    mergeNumberKeywords(f, o, p);
    mergeObjectKeywords(f, o, p, loc);
    mergeArrayKeywords(f, o, p, loc);
  }
  return f;
}

/** The flat of no constraint at all (every type, any value), located at `first`. */
function emptyFlat(plain: readonly _Loc[], first: _Loc): _Flat {
  return {
    ptr: first.ptr,
    base: first.base,
    types: new Set(ALL_TYPES),
    values: undefined,
    valuesLocs: [],
    notIn: [],
    minLength: 0,
    maxLength: undefined,
    patterns: [],
    formats: [],
    notPatterns: [],
    notFormats: [],
    notMultipleOf: [],
    lo: undefined,
    hi: undefined,
    multipleOf: [],
    objParts: [],
    required: [],
    minProperties: 0,
    maxProperties: undefined,
    dependentRequired: [],
    unevaluatedProperties: [],
    arrParts: [],
    minItems: 0,
    maxItems: undefined,
    uniqueItems: undefined,
    contains: [],
    unevaluatedItems: [],
    sources: [...plain],
  };
}

/** `type` (and `nullable`): the types both allow; `integer` is what `number` and `integer` share. */
function mergeTypes(f: _Flat, o: Record<string, unknown>, p: string): void {
  const ts = typesOf(o, p);
  if (!ts) return;
  const next = new Set<_JsonType>();
  for (const t of f.types) {
    if (ts.has(t)) next.add(t);
    else if (t === 'integer' && ts.has('number')) next.add('integer');
    else if (t === 'number' && ts.has('integer')) next.add('integer');
  }
  f.types = next;
}

/** `const` and `enum`: the values both allow. */
function mergeValues(f: _Flat, o: Record<string, unknown>, p: string, loc: _Loc): void {
  const vals: unknown[] | undefined = 'const' in o ? [o.const] : Array.isArray(o.enum) ? o.enum : undefined;
  if (o.enum !== undefined && !Array.isArray(o.enum)) {
    throw new GbnfCompileError('INVALID_SCHEMA', `${p}/enum`, `expected an array, got ${describe(o.enum)}`);
  }
  if ('const' in o && Array.isArray(o.enum)) {
    const inEnum = o.enum.some((e) => _jsonEqual(e, o.const));
    f.values = inEnum ? intersect(f.values, [o.const]) : [];
  } else if (vals) f.values = intersect(f.values, vals);
  if (vals) f.valuesLocs.push(loc);
}

/** The compiler's internal negation keywords (`$$notIn`, `$$notPattern`, …; see negate.ts). */
function mergeNegations(f: _Flat, o: Record<string, unknown>, p: string): void {
  if (Array.isArray(o.$$notIn)) f.notIn.push(...o.$$notIn);
  if (typeof o.$$notPattern === 'string' && !f.notPatterns.some((x) => x.src === o.$$notPattern))
    f.notPatterns.push({ src: o.$$notPattern, ptr: p });
  if (typeof o.$$notMultipleOf === 'number') f.notMultipleOf.push({ value: o.$$notMultipleOf, ptr: p });
  if (typeof o.$$notFormat === 'string' && !f.notFormats.some((x) => x.name === o.$$notFormat))
    f.notFormats.push({ name: o.$$notFormat, ptr: p });
}

/** `minLength`, `maxLength`, `pattern`, `format`. */
function mergeStringKeywords(f: _Flat, o: Record<string, unknown>, p: string): void {
  const minL = nonNegInt(o, 'minLength', p);
  if (minL !== undefined) f.minLength = Math.max(f.minLength, minL);
  f.maxLength = minU(f.maxLength, nonNegInt(o, 'maxLength', p));
  if (o.pattern !== undefined) {
    if (typeof o.pattern !== 'string')
      throw new GbnfCompileError(
        'INVALID_SCHEMA',
        `${p}/pattern`,
        `expected a string, got ${describe(o.pattern)}`,
      );
    if (!f.patterns.some((x) => x.src === o.pattern))
      f.patterns.push({ src: o.pattern, ptr: `${p}/pattern` });
  }
  if (o.format !== undefined && typeof o.format === 'string') {
    if (!f.formats.some((x) => x.name === o.format)) f.formats.push({ name: o.format, ptr: `${p}/format` });
  }
}

/** Bounds and `multipleOf` (draft-04 boolean exclusives modify minimum/maximum). */
function mergeNumberKeywords(f: _Flat, o: Record<string, unknown>, p: string): void {
  const min = num(o, 'minimum', p);
  const max = num(o, 'maximum', p);
  if (min !== undefined) f.lo = tighterLo(f.lo, { value: min, exclusive: o.exclusiveMinimum === true });
  if (max !== undefined) f.hi = tighterHi(f.hi, { value: max, exclusive: o.exclusiveMaximum === true });
  if (typeof o.exclusiveMinimum === 'number')
    f.lo = tighterLo(f.lo, { value: o.exclusiveMinimum, exclusive: true });
  if (typeof o.exclusiveMaximum === 'number')
    f.hi = tighterHi(f.hi, { value: o.exclusiveMaximum, exclusive: true });
  const mo = num(o, 'multipleOf', p);
  if (mo !== undefined) {
    if (mo <= 0)
      throw new GbnfCompileError('INVALID_SCHEMA', `${p}/multipleOf`, `expected a number > 0, got ${mo}`);
    f.multipleOf.push({ value: mo, ptr: `${p}/multipleOf` });
  }
}

/**
 * Object keywords: the member schemas stay with their schema (`objParts`, compiled together by
 * objects.ts); the counts and required names merge here.
 */
function mergeObjectKeywords(f: _Flat, o: Record<string, unknown>, p: string, loc: _Loc): void {
  if ('properties' in o || 'patternProperties' in o || 'additionalProperties' in o || 'propertyNames' in o) {
    f.objParts.push(loc);
  }
  if (o.required !== undefined) {
    if (!Array.isArray(o.required))
      throw new GbnfCompileError(
        'INVALID_SCHEMA',
        `${p}/required`,
        `expected an array of strings, got ${describe(o.required)}`,
      );
    for (const r of o.required) if (typeof r === 'string' && !f.required.includes(r)) f.required.push(r);
  }
  const minP = nonNegInt(o, 'minProperties', p);
  if (minP !== undefined) f.minProperties = Math.max(f.minProperties, minP);
  f.maxProperties = minU(f.maxProperties, nonNegInt(o, 'maxProperties', p));
  const dr: [string, unknown, string][] = [];
  if (isObj(o.dependentRequired))
    for (const [k, v] of Object.entries(o.dependentRequired)) dr.push([k, v, 'dependentRequired']);
  if (isObj(o.dependencies))
    for (const [k, v] of Object.entries(o.dependencies))
      if (Array.isArray(v)) dr.push([k, v, 'dependencies']);
  for (const [k, v, kw] of dr) {
    if (Array.isArray(v) && v.length > 0)
      f.dependentRequired.push({ name: k, deps: v.map(String), ptr: `${p}/${kw}` });
  }
  if ('unevaluatedProperties' in o)
    f.unevaluatedProperties.push(_child(loc, o.unevaluatedProperties, 'unevaluatedProperties'));
}

/** Array keywords: the item schemas of each schema stay together (`arrParts`); counts merge. */
function mergeArrayKeywords(f: _Flat, o: Record<string, unknown>, p: string, loc: _Loc): void {
  const part = arrayPart(o, loc);
  if (part !== undefined) f.arrParts.push(part);
  const minI = nonNegInt(o, 'minItems', p);
  if (minI !== undefined) f.minItems = Math.max(f.minItems, minI);
  f.maxItems = minU(f.maxItems, nonNegInt(o, 'maxItems', p));
  if (o.uniqueItems === true) f.uniqueItems ??= `${p}/uniqueItems`;
  if ('contains' in o) {
    const cmin = nonNegInt(o, 'minContains', p) ?? 1;
    f.contains.push({
      loc: _child(loc, o.contains, 'contains'),
      min: cmin,
      max: nonNegInt(o, 'maxContains', p),
      ptr: `${p}/contains`,
    });
  }
  if ('unevaluatedItems' in o) f.unevaluatedItems.push(_child(loc, o.unevaluatedItems, 'unevaluatedItems'));
}

/**
 * The item schemas of one schema: a prefix (`prefixItems`, or draft-04..2019 tuple `items`) and
 * the schema of the items after it (`items`, or `additionalItems` after a tuple); `undefined` when
 * it says nothing about items.
 */
function arrayPart(o: Record<string, unknown>, loc: _Loc): _ArrPart | undefined {
  const items = o.items;
  const prefixKw = Array.isArray(o.prefixItems) ? 'prefixItems' : Array.isArray(items) ? 'items' : undefined;
  if (prefixKw === undefined && items === undefined && !('additionalItems' in o)) return undefined;
  const prefixArr = (
    prefixKw === 'prefixItems' ? o.prefixItems : prefixKw === 'items' ? items : []
  ) as unknown[];
  const prefix = prefixArr.map((x, i) => _child(loc, x, prefixKw ?? 'items', i));
  let rest: _Loc | undefined;
  if (prefixKw === 'prefixItems') rest = items !== undefined ? _child(loc, items, 'items') : undefined;
  else if (prefixKw === 'items')
    rest = 'additionalItems' in o ? _child(loc, o.additionalItems, 'additionalItems') : undefined;
  else rest = items !== undefined ? _child(loc, items, 'items') : undefined;
  return prefix.length > 0 || rest !== undefined ? { prefix, rest } : undefined;
}

function intersect(a: unknown[] | undefined, b: unknown[]): unknown[] {
  const uniq: unknown[] = [];
  for (const v of b) if (!uniq.some((u) => _jsonEqual(u, v))) uniq.push(v);
  if (a === undefined) return uniq;
  return a.filter((x) => uniq.some((y) => _jsonEqual(x, y)));
}

/**
 * The flat form of the conjunction of `locs`, merged with `at` as the location warnings name; or
 * `undefined` when the conjunction holds a combinator group, a `not`, a conditional or `false`, or
 * cannot be expanded. Callers fall back to the general (non-flat) path.
 */
export function _flatOf(ctx: _Ctx, locs: readonly _Loc[], at: _Loc): _Flat | undefined {
  try {
    const parts = _expand(ctx, locs);
    if (
      parts.groups.length > 0 ||
      parts.nots.length > 0 ||
      parts.conds.length > 0 ||
      parts.never !== undefined
    )
      return undefined;
    return _merge(ctx, parts.plain, at);
  } catch {
    return undefined;
  }
}

/** @internal Whether a value's JSON type is allowed by a flat's type set. */
export function _typeAllowed(types: Set<_JsonType>, v: unknown): boolean {
  const t = _typeOf(v) as _JsonType;
  if (types.has(t)) return true;
  return t === 'integer' && types.has('number');
}
