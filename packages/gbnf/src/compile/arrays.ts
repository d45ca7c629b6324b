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
  const g = ctx.g;
  const ws = ctx.ws;
  let min = f.minItems;
  let max = f.maxItems;
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
  const restLocs = posLocs(P);
  if (max !== undefined && max > ctx.options.maxRepetition) {
    ctx.narrow(f.ptr, `maxItems ${max} narrowed to maxRepetition ${ctx.options.maxRepetition}`);
    max = ctx.options.maxRepetition;
  }
  if (min > ctx.options.maxRepetition)
    throw new GbnfCompileError('TOO_LARGE', f.ptr, `minItems ${min} exceeds maxRepetition`);
  if (max !== undefined && min > max) return null;
  if (f.uniqueItems !== undefined) {
    if (ctx.options.allowWidening) ctx.widen(f.uniqueItems, 'uniqueItems is not enforced');
    else {
      const finite = P === 0 ? finiteItems(ctx, restLocs) : undefined;
      if (finite !== undefined) {
        ctx.narrow(f.uniqueItems, 'unique items are accepted in enum order only');
        if (f.contains.length > 0) {
          ctx.narrow(f.contains[0]!.ptr, 'contains together with uniqueItems: no array is accepted');
          return null;
        }
        const members = finite.map((v) => ({ expr: `${_valueLiteral(v, ws).expr} ${ws}`, required: false }));
        const inner = _sequence(ctx, members, null, min, max, `${label}-uniq`, f.uniqueItems);
        return inner === null
          ? null
          : g.rule(`${label}-arr`, `"[" ${ws} ${inner === '""' ? '' : `${inner} `}"]"`);
      }
      ctx.narrow(f.uniqueItems, 'uniqueItems: at most one item is accepted');
      max = Math.min(max ?? 1, 1);
      if (min > max) return null;
    }
  }
  const items: (string | null)[] = [];
  for (let i = 0; i < P; i++) items.push(ctx.conj(posLocs(i), `${label}-${i}`));
  const rest = ctx.conj(restLocs, `${label}-item`);
  // a null position caps the length
  const firstNull = items.indexOf(null);
  if (firstNull >= 0) max = Math.min(max ?? firstNull, firstNull);
  if (rest === null) max = Math.min(max ?? P, P);
  if (max !== undefined && min > max) return null;
  // contains
  const containsAt: _Loc[][] = [];
  if (f.contains.length > 0) {
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
      P === 0 &&
      min <= 1 &&
      max === undefined &&
      rest !== null
    ) {
      const hit = ctx.conj([...restLocs, only.loc], `${label}-contains`);
      if (hit === null) return null;
      return g.rule(
        `${label}-arr`,
        `"[" ${ws} ( ${rest} ${ws} "," ${ws} )* ${hit} ${ws} ( "," ${ws} ${rest} ${ws} )* "]"`,
      );
    }
    ctx.narrow(only.ptr, 'contains: the first items are the ones that must match');
    let pos = 0;
    for (const c of f.contains) {
      for (let k = 0; k < c.min; k++) {
        containsAt[pos] = [...(containsAt[pos] ?? []), c.loc];
        pos++;
      }
    }
    min = Math.max(min, pos);
    if (max !== undefined && min > max) return null;
  }
  const at = (i: number): string | null => {
    const extra = containsAt[i];
    if (extra === undefined) return i < P ? items[i]! : rest;
    return ctx.conj([...posLocs(i), ...extra], `${label}-${i}`);
  };
  const fixed = Math.max(P, containsAt.length);
  const members = [];
  for (let i = 0; i < fixed; i++) {
    if (max !== undefined && i >= max) break;
    const e = at(i);
    if (e === null) {
      max = Math.min(max ?? i, i);
      break;
    }
    members.push({ expr: `${e} ${ws}`, required: i < min });
  }
  if (max !== undefined && min > max) return null;
  // members are positional: an optional member may be skipped only when all later ones are too
  const inner = positional(
    ctx,
    members,
    fixed < (max ?? Infinity) && rest !== null ? `${rest} ${ws}` : null,
    min,
    max,
    label,
    f.ptr,
  );
  if (inner === null) return null;
  return g.rule(`${label}-arr`, `"[" ${ws} ${inner === '""' ? '' : `${inner} `}"]"`);
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
