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
  const o = s as Record<string, unknown>;
  const alts: unknown[] = [];
  const handled = new Set<string>();
  const neg = (sub: unknown, ...segs: (string | number)[]) =>
    _negate(ctx, _child(loc, sub, ...segs), depth + 1);
  for (const k of Object.keys(o).sort()) {
    if (!CONSTRAINING_KEYWORDS.has(k) || handled.has(k)) continue;
    handled.add(k);
    const v = o[k];
    switch (k) {
      case 'type':
      case 'nullable': {
        if (handled.has('type-done')) break;
        handled.add('type-done');
        if (o.type === undefined) break;
        const ts = new Set((Array.isArray(o.type) ? o.type : [o.type]) as string[]);
        if (o.nullable === true) ts.add('null');
        const rest = TYPES.filter((t) => !ts.has(t) && !(t === 'number' && ts.has('integer')));
        if (ts.has('integer') && !ts.has('number'))
          ctx.narrow(`${loc.ptr}/type`, 'negation of "integer" leaves out non-integer numbers');
        if (rest.length > 0) alts.push({ type: rest });
        break;
      }
      case 'enum':
      case 'const':
        if (k === 'enum' && !Array.isArray(v)) fail(k, 'a malformed enum');
        alts.push({ $$notIn: k === 'const' ? [v] : v });
        break;
      case 'required':
        if (!Array.isArray(v)) fail(k, 'a malformed required');
        for (const name of v as unknown[]) {
          alts.push({ type: 'object', properties: { [String(name)]: false } });
        }
        if ((v as unknown[]).length > 0) alts.push({ type: others('object') });
        break;
      case 'properties':
        if (!isObj(v)) fail(k, 'malformed properties');
        for (const name of Object.keys(v as object)) {
          const n = neg((v as Record<string, unknown>)[name], 'properties', name);
          if (n !== false) alts.push({ type: 'object', required: [name], properties: { [name]: n } });
        }
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        if (typeof v === 'boolean') break; // draft-04 modifier, handled with minimum/maximum
        if (typeof v !== 'number') fail(k, `a malformed ${k}`);
        const n = v as number;
        const isMin = k === 'minimum' || k === 'exclusiveMinimum';
        const excl =
          k.startsWith('exclusive') ||
          (k === 'minimum' && o.exclusiveMinimum === true) ||
          (k === 'maximum' && o.exclusiveMaximum === true);
        const bound = isMin
          ? excl
            ? { maximum: n }
            : { exclusiveMaximum: n }
          : excl
            ? { minimum: n }
            : { exclusiveMinimum: n };
        alts.push({ type: 'number', ...bound });
        alts.push({ type: others('number') });
        break;
      }
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
      case 'minProperties':
      case 'maxProperties': {
        if (typeof v !== 'number') fail(k, `a malformed ${k}`);
        const n = Math.floor(v as number);
        const type = k.endsWith('Length') ? 'string' : k.endsWith('Items') ? 'array' : 'object';
        const stem = k.slice(3);
        if (k.startsWith('min')) {
          if (n > 0) alts.push({ type, [`max${stem}`]: n - 1 });
        } else alts.push({ type, [`min${stem}`]: n + 1 });
        if (!(k.startsWith('min') && n <= 0)) alts.push({ type: others(type) });
        break;
      }
      case 'anyOf':
        if (!Array.isArray(v)) fail(k, 'a malformed anyOf');
        alts.push({ allOf: (v as unknown[]).map((b, i) => neg(b, 'anyOf', i)) });
        break;
      case 'allOf':
        if (!Array.isArray(v)) fail(k, 'a malformed allOf');
        for (let i = 0; i < (v as unknown[]).length; i++) alts.push(neg((v as unknown[])[i], 'allOf', i));
        break;
      case 'not':
        alts.push(v);
        break;
      case 'multipleOf':
        // only numbers can fail it: the integers with a non-zero remainder and every non-integer
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 2 || v > 1000) fail(k, '"multipleOf"');
        alts.push({ type: 'number', $$notMultipleOf: v });
        break;
      case 'pattern':
        // only strings can fail a pattern: the strings it does not match (an automaton complement)
        if (typeof v !== 'string') fail(k, 'a malformed pattern');
        alts.push({ type: 'string', $$notPattern: v });
        break;
      case 'format':
        // only formats whose grammar is exact can be complemented soundly
        if (typeof v !== 'string' || !_EXACT_STRING_FORMATS.has(v)) fail(k, `"format" ${JSON.stringify(v)}`);
        alts.push({ type: 'string', $$notFormat: v });
        break;
      case '$ref': {
        const target = ctx.index.resolve(String(v), loc, `${loc.ptr}/$ref`);
        alts.push(_negate(ctx, target, depth + 1));
        break;
      }
      default:
        fail(k, `"${k}"`);
    }
  }
  const real = alts.filter((a) => a !== false);
  if (real.length === 0) return false;
  if (real.length === 1) return real[0];
  return { anyOf: real };
}
