/**
 * Negation of a schema (`not`, the `else` side of `if`, the other branches of an overlapping
 * `oneOf`), built keyword by keyword: ¬(k1 ∧ k2) = ¬k1 ∨ ¬k2. `pattern` and exact string formats
 * are negated as the complement of their automaton (internal keywords `$$notPattern`,
 * `$$notFormat`). A keyword whose negation a grammar cannot express (items, additionalProperties,
 * an inexact format, …) makes the negation fail with `NOT_NEGATABLE`.
 * @module
 */
import { CONSTRAINING_KEYWORDS } from '@xprotocol/json-schema-vocabulary';
import { GbnfCompileError } from './compile-error.js';
import type { _Ctx } from './context.js';
import { _EXACT_STRING_FORMATS } from './formats.js';
import { _child, type _Loc } from './refs.js';

const TYPES = ['null', 'boolean', 'object', 'array', 'string', 'number'] as const;
const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function others(type: string): string[] {
  return TYPES.filter((t) => t !== type && !(type === 'integer' && t === 'number'));
}

/** @internal A schema accepting exactly the instances `loc` rejects (or fewer, with a narrowing note). */
export function _negate(ctx: _Ctx, loc: _Loc, depth = 0): unknown {
  const s = loc.schema;
  if (s === true) return false;
  if (s === false) return true;
  const fail = (kw: string, why: string): never => {
    throw new GbnfCompileError('NOT_NEGATABLE', `${loc.ptr}/${kw}`, `cannot compile the negation of ${why}`);
  };
  if (!isObj(s)) fail('', 'a non-schema value');
  if (depth > 12) fail('', 'a deeply nested or recursive schema');
  const n: Negation = {
    ctx,
    loc,
    depth,
    o: s as Record<string, unknown>,
    alts: [],
    handled: new Set<string>(),
    fail,
    neg: (sub, ...segs) => _negate(ctx, _child(loc, sub, ...segs), depth + 1),
  };
  for (const k of Object.keys(n.o).sort()) {
    if (!CONSTRAINING_KEYWORDS.has(k) || n.handled.has(k)) continue;
    n.handled.add(k);
    negateKeyword(n, k, n.o[k]);
  }
  const real = n.alts.filter((a) => a !== false);
  if (real.length === 0) return false;
  if (real.length === 1) return real[0];
  return { anyOf: real };
}

/** One negation in progress: its schema `o`, and the alternatives (¬k per keyword k) so far. */
interface Negation {
  readonly ctx: _Ctx;
  readonly loc: _Loc;
  readonly depth: number;
  readonly o: Record<string, unknown>;
  /** The negation is the union (`anyOf`) of these. */
  readonly alts: unknown[];
  /** Keywords already negated (`type-done`: `type` and `nullable` together). */
  readonly handled: Set<string>;
  /** Throws `NOT_NEGATABLE` for keyword `kw`, saying what cannot be negated. */
  readonly fail: (kw: string, why: string) => never;
  /** The negation of a subschema at the given path segments. */
  readonly neg: (sub: unknown, ...segs: (string | number)[]) => unknown;
}

/** Adds ¬k for keyword `k` (value `v`) to the alternatives, or fails when it cannot be written. */
function negateKeyword(n: Negation, k: string, v: unknown): void {
  switch (k) {
    case 'type':
    case 'nullable':
      negateType(n);
      return;
    case 'enum':
    case 'const':
      if (k === 'enum' && !Array.isArray(v)) n.fail(k, 'a malformed enum');
      n.alts.push({ $$notIn: k === 'const' ? [v] : v });
      return;
    case 'required':
      negateRequired(n, v);
      return;
    case 'properties':
      negateProperties(n, v);
      return;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      negateBound(n, k, v);
      return;
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
      negateCount(n, k, v);
      return;
    case 'anyOf':
      if (!Array.isArray(v)) n.fail(k, 'a malformed anyOf');
      n.alts.push({ allOf: (v as unknown[]).map((b, i) => n.neg(b, 'anyOf', i)) });
      return;
    case 'allOf':
      if (!Array.isArray(v)) n.fail(k, 'a malformed allOf');
      for (let i = 0; i < (v as unknown[]).length; i++) n.alts.push(n.neg((v as unknown[])[i], 'allOf', i));
      return;
    case 'not':
      n.alts.push(v);
      return;
    case 'multipleOf':
      // only numbers can fail it: the integers with a non-zero remainder and every non-integer
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 2 || v > 1000) n.fail(k, '"multipleOf"');
      n.alts.push({ type: 'number', $$notMultipleOf: v });
      return;
    case 'pattern':
      // only strings can fail a pattern: the strings it does not match (an automaton complement)
      if (typeof v !== 'string') n.fail(k, 'a malformed pattern');
      n.alts.push({ type: 'string', $$notPattern: v });
      return;
    case 'format':
      // only formats whose grammar is exact can be complemented soundly
      if (typeof v !== 'string' || !_EXACT_STRING_FORMATS.has(v)) n.fail(k, `"format" ${JSON.stringify(v)}`);
      n.alts.push({ type: 'string', $$notFormat: v });
      return;
    case '$ref': {
      const target = n.ctx.index.resolve(String(v), n.loc, `${n.loc.ptr}/$ref`);
      n.alts.push(_negate(n.ctx, target, n.depth + 1));
      return;
    }
    default:
      n.fail(k, `"${k}"`);
  }
}

/** ¬type: the other types (`type` and `nullable` are negated together, once). */
function negateType(n: Negation): void {
  const { o, loc } = n;
  if (n.handled.has('type-done')) return;
  n.handled.add('type-done');
  if (o.type === undefined) return;
  const ts = new Set((Array.isArray(o.type) ? o.type : [o.type]) as string[]);
  if (o.nullable === true) ts.add('null');
  const rest = TYPES.filter((t) => !ts.has(t) && !(t === 'number' && ts.has('integer')));
  if (ts.has('integer') && !ts.has('number'))
    n.ctx.narrow(`${loc.ptr}/type`, 'negation of "integer" leaves out non-integer numbers');
  if (rest.length > 0) n.alts.push({ type: rest });
}

/** ¬required: an object without one of the names, or not an object. */
function negateRequired(n: Negation, v: unknown): void {
  if (!Array.isArray(v)) n.fail('required', 'a malformed required');
  for (const name of v as unknown[]) {
    n.alts.push({ type: 'object', properties: { [String(name)]: false } });
  }
  if ((v as unknown[]).length > 0) n.alts.push({ type: others('object') });
}

/** ¬properties: an object with one of the members present and its value negated. */
function negateProperties(n: Negation, v: unknown): void {
  if (!isObj(v)) n.fail('properties', 'malformed properties');
  for (const name of Object.keys(v as object)) {
    const neg = n.neg((v as Record<string, unknown>)[name], 'properties', name);
    if (neg !== false) n.alts.push({ type: 'object', required: [name], properties: { [name]: neg } });
  }
}

/** ¬bound: a number on the other side of it, or not a number. */
function negateBound(n: Negation, k: string, v: unknown): void {
  const { o } = n;
  if (typeof v === 'boolean') return; // draft-04 modifier, handled with minimum/maximum
  if (typeof v !== 'number') n.fail(k, `a malformed ${k}`);
  const value = v as number;
  const isMin = k === 'minimum' || k === 'exclusiveMinimum';
  const excl =
    k.startsWith('exclusive') ||
    (k === 'minimum' && o.exclusiveMinimum === true) ||
    (k === 'maximum' && o.exclusiveMaximum === true);
  const bound = isMin
    ? excl
      ? { maximum: value }
      : { exclusiveMaximum: value }
    : excl
      ? { minimum: value }
      : { exclusiveMinimum: value };
  n.alts.push({ type: 'number', ...bound });
  n.alts.push({ type: others('number') });
}

/** ¬(min|max)(Length|Items|Properties): the opposite count of the same type, or another type. */
function negateCount(n: Negation, k: string, v: unknown): void {
  if (typeof v !== 'number') n.fail(k, `a malformed ${k}`);
  const count = Math.floor(v as number);
  const type = k.endsWith('Length') ? 'string' : k.endsWith('Items') ? 'array' : 'object';
  const stem = k.slice(3);
  if (k.startsWith('min')) {
    if (count > 0) n.alts.push({ type, [`max${stem}`]: count - 1 });
  } else n.alts.push({ type, [`min${stem}`]: count + 1 });
  if (!(k.startsWith('min') && count <= 0)) n.alts.push({ type: others(type) });
}
