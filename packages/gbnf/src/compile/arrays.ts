/**
 * Arrays: `prefixItems`/tuple `items` + `additionalItems`, `items`, `minItems`/`maxItems`,
 * `contains` (exact when it is the only count constraint, else the first items are made to
 * satisfy it), `uniqueItems` (exact for nothing; narrowed — items of a finite enum in enum
 * order, or at most one item — or dropped with `allowWidening`).
 * @module
 */
import { GbnfCompileError } from './compile-error.js';
import type { _Ctx } from './context.js';
import { _expand, type _Flat, _merge } from './flat.js';
import { _check } from './instance-check.js';
import { _valueLiteral } from './json-primitives.js';
import type { _Loc } from './refs.js';
import { _repeat } from './repeat.js';
import { _sequence } from './sequence.js';

/** @internal The array part of a flat, or `null` when no array is allowed. */
export function _compileArray(ctx: _Ctx, f: _Flat, label: string): string | null {
  const a = arrayScope(ctx, f, label);
  const len: Length = { min: f.minItems, max: f.maxItems };
  if (len.max !== undefined && len.max > ctx.options.maxRepetition) {
    ctx.narrow(f.ptr, `maxItems ${len.max} narrowed to maxRepetition ${ctx.options.maxRepetition}`);
    len.max = ctx.options.maxRepetition;
  }
  if (len.min > ctx.options.maxRepetition)
    throw new GbnfCompileError('TOO_LARGE', f.ptr, `minItems ${len.min} exceeds maxRepetition`);
  if (len.max !== undefined && len.min > len.max) return null;
  if (f.uniqueItems !== undefined) {
    const unique = uniqueItemsArray(a, len, f.uniqueItems);
    if (unique !== undefined) return unique;
  }
  const items: (string | null)[] = [];
  for (let i = 0; i < a.P; i++) items.push(ctx.conj(a.posLocs(i), `${label}-${i}`));
  const rest = ctx.conj(a.restLocs, `${label}-item`);
  // a null position caps the length
  const firstNull = items.indexOf(null);
  if (firstNull >= 0) len.max = Math.min(len.max ?? firstNull, firstNull);
  if (rest === null) len.max = Math.min(len.max ?? a.P, a.P);
  if (len.max !== undefined && len.min > len.max) return null;
  let containsAt: _Loc[][] = [];
  if (f.contains.length > 0) {
    const single = singleContainsArray(a, len, rest);
    if (single !== undefined) return single;
    containsAt = containsFirst(a, len);
    if (len.max !== undefined && len.min > len.max) return null;
  }
  const members = positionalMembers(a, len, items, rest, containsAt);
  if (len.max !== undefined && len.min > len.max) return null;
  // members are positional: an optional member may be skipped only when all later ones are too
  const fixed = Math.max(a.P, containsAt.length);
  const inner = positional(
    ctx,
    members,
    fixed < (len.max ?? Infinity) && rest !== null ? `${rest} ${ctx.ws}` : null,
    len.min,
    len.max,
    label,
    f.ptr,
  );
  if (inner === null) return null;
  return ctx.g.rule(`${label}-arr`, `"[" ${ctx.ws} ${inner === '""' ? '' : `${inner} `}"]"`);
}

/** The item schemas of one array, by position. */
interface ArrayScope {
  readonly ctx: _Ctx;
  readonly f: _Flat;
  readonly label: string;
  /** The longest prefix (`prefixItems` / tuple `items`) of the merged schemas. */
  readonly P: number;
  /** The schemas item `i` must satisfy. */
  readonly posLocs: (i: number) => _Loc[];
  /** The schemas every item after the prefix must satisfy. */
  readonly restLocs: _Loc[];
}

/** The bounds on the number of items, narrowed step by step. */
interface Length {
  min: number;
  max: number | undefined;
}

function arrayScope(ctx: _Ctx, f: _Flat, label: string): ArrayScope {
  const P = Math.max(0, ...f.arrParts.map((p) => p.prefix.length));
  const hasRest = f.arrParts.some((p) => p.rest !== undefined);
  const posLocs = (i: number): _Loc[] => {
    const out: _Loc[] = [];
    for (const part of f.arrParts) {
      if (i < part.prefix.length) out.push(part.prefix[i]!);
      else if (part.rest !== undefined) out.push(part.rest);
    }
    if (i >= P && !hasRest) out.push(...f.unevaluatedItems);
    return out;
  };
  return { ctx, f, label, P, posLocs, restLocs: posLocs(P) };
}

/**
 * `uniqueItems` (at `ptr`): dropped with allowWidening; else, for items of a finite enum, the
 * whole array (unique items in enum order); else at most one item (`len` narrowed, `undefined`
 * returned to go on).
 */
function uniqueItemsArray(a: ArrayScope, len: Length, ptr: string): string | null | undefined {
  const { ctx, f, label } = a;
  const ws = ctx.ws;
  if (ctx.options.allowWidening) {
    ctx.widen(ptr, 'uniqueItems is not enforced');
    return undefined;
  }
  const finite = a.P === 0 ? finiteItems(ctx, a.restLocs) : undefined;
  if (finite !== undefined) {
    ctx.narrow(ptr, 'unique items are accepted in enum order only');
    if (f.contains.length > 0) {
      ctx.narrow(f.contains[0]!.ptr, 'contains together with uniqueItems: no array is accepted');
      return null;
    }
    const members = finite.map((v) => ({ expr: `${_valueLiteral(v, ws).expr} ${ws}`, required: false }));
    const inner = _sequence(ctx, members, null, len.min, len.max, `${label}-uniq`, ptr);
    return inner === null
      ? null
      : ctx.g.rule(`${label}-arr`, `"[" ${ws} ${inner === '""' ? '' : `${inner} `}"]"`);
  }
  ctx.narrow(ptr, 'uniqueItems: at most one item is accepted');
  len.max = Math.min(len.max ?? 1, 1);
  if (len.min > len.max) return null;
  return undefined;
}

/**
 * The one case `contains` is exact in: a single `contains` (at least one) over items that are all
 * alike, with no other count: any items, one of which matches. `undefined` otherwise (and an
 * error for `maxContains`, which is never compiled).
 */
function singleContainsArray(a: ArrayScope, len: Length, rest: string | null): string | null | undefined {
  const { ctx, f, label } = a;
  const ws = ctx.ws;
  for (const c of f.contains) {
    if (c.max !== undefined) {
      throw new GbnfCompileError(
        'UNSUPPORTED_KEYWORD',
        `${c.ptr.replace(/\/contains$/, '')}/maxContains`,
        'maxContains cannot be compiled',
      );
    }
  }
  const only = f.contains[0]!;
  if (
    f.contains.length === 1 &&
    only.min === 1 &&
    a.P === 0 &&
    len.min <= 1 &&
    len.max === undefined &&
    rest !== null
  ) {
    const hit = ctx.conj([...a.restLocs, only.loc], `${label}-contains`);
    if (hit === null) return null;
    return ctx.g.rule(
      `${label}-arr`,
      `"[" ${ws} ( ${rest} ${ws} "," ${ws} )* ${hit} ${ws} ( "," ${ws} ${rest} ${ws} )* "]"`,
    );
  }
  return undefined;
}

/**
 * `contains` narrowed to the first items: per position, the `contains` schemas that item must
 * also satisfy (`len.min` raised to cover them).
 */
function containsFirst(a: ArrayScope, len: Length): _Loc[][] {
  const { f } = a;
  a.ctx.narrow(f.contains[0]!.ptr, 'contains: the first items are the ones that must match');
  const containsAt: _Loc[][] = [];
  let pos = 0;
  for (const c of f.contains) {
    for (let k = 0; k < c.min; k++) {
      containsAt[pos] = [...(containsAt[pos] ?? []), c.loc];
      pos++;
    }
  }
  len.min = Math.max(len.min, pos);
  return containsAt;
}

/**
 * The members at fixed positions (the prefix, and the items `contains` constrains); a position
 * no item can take caps `len.max` there.
 */
function positionalMembers(
  a: ArrayScope,
  len: Length,
  items: readonly (string | null)[],
  rest: string | null,
  containsAt: readonly _Loc[][],
): { expr: string; required: boolean }[] {
  const { ctx, label } = a;
  const at = (i: number): string | null => {
    const extra = containsAt[i];
    if (extra === undefined) return i < a.P ? items[i]! : rest;
    return ctx.conj([...a.posLocs(i), ...extra], `${label}-${i}`);
  };
  const fixed = Math.max(a.P, containsAt.length);
  const members = [];
  for (let i = 0; i < fixed; i++) {
    if (len.max !== undefined && i >= len.max) break;
    const e = at(i);
    if (e === null) {
      len.max = Math.min(len.max ?? i, i);
      break;
    }
    members.push({ expr: `${e} ${ctx.ws}`, required: i < len.min });
  }
  return members;
}

/** Positional items: item i can only appear when items 0..i-1 did. */
function positional(
  ctx: _Ctx,
  members: { expr: string; required: boolean }[],
  rest: string | null,
  min: number,
  max: number | undefined,
  label: string,
  ptr: string,
): string | null {
  const ws = ctx.ws;
  const n = members.length;
  const build = (i: number): string | null => {
    if (i === n) {
      if (rest === null) return '""';
      const lo = Math.max(0, min - n);
      const hi = max === undefined ? undefined : max - n;
      if (hi !== undefined && hi < lo) return null;
      if (hi === 0) return '""';
      const more = `( "," ${ws} ${rest} )`;
      if (n === 0) {
        const tailRep = repeat(ctx, more, Math.max(lo - 1, 0), hi === undefined ? undefined : hi - 1, label);
        const inner = `${rest}${tailRep === '' ? '' : ` ${tailRep}`}`;
        return lo === 0 ? `( ${inner} )?` : inner;
      }
      return repeat(ctx, more, lo, hi, label) || '""';
    }
    const m = members[i]!;
    const after = build(i + 1);
    const sep = i === 0 ? '' : `"," ${ws} `;
    const emit = after === null ? null : `${sep}${m.expr}${after === '""' ? '' : ` ${after}`}`;
    if (m.required) return emit === null ? null : i === 0 ? emit : ctx.g.rule(`${label}-at${i}`, emit);
    if (emit === null) return '""';
    return ctx.g.rule(`${label}-at${i}`, `( ${emit} )?`);
  };
  void ptr;
  return build(0);
}

function repeat(ctx: _Ctx, unit: string, a: number, b: number | undefined, label: string): string {
  if (b === 0) return '';
  return _repeat(unit, a, b, (body) => ctx.g.rule(`${label}-more`, body));
}

/** The finite set of values the items may take (an enum), or undefined. */
function finiteItems(ctx: _Ctx, locs: _Loc[]): unknown[] | undefined {
  if (locs.length === 0) return undefined;
  let flat: _Flat;
  try {
    const parts = _expand(ctx, locs);
    if (parts.groups.length > 0 || parts.nots.length > 0 || parts.conds.length > 0) return undefined;
    if (parts.never !== undefined) return [];
    flat = _merge(ctx, parts.plain, locs[0]!);
  } catch {
    return undefined;
  }
  if (flat.values === undefined || flat.values.length > 12) return undefined;
  return flat.values.filter((v) => locs.every((l) => _check(v, l, ctx.index) === true));
}
