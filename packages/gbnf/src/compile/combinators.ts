/**
 * `anyOf`, `oneOf`, `not`, `if`/`then`/`else` and `dependentSchemas`. Disjunctions are
 * distributed over the rest of the conjunction (A ∧ (B ∨ C) = (A ∧ B) ∨ (A ∧ C)); a `oneOf` is
 * an `anyOf` when its branches are provably disjoint, else each branch is joined with the
 * negation of the others (exact when those negations are expressible, else an error);
 * `not` and the `else` side of `if` use {@link _negate}.
 * @module
 */
import { GbnfCompileError } from './compile-error.js';
import type { _Ctx } from './context.js';
import { _disjoint } from './disjoint.js';
import { _expand, type _Flat, _flatOf, type _Group, type _JsonType, _merge, type _Parts } from './flat.js';
import { _NUMBER_FORMATS } from './formats.js';
import { _negate } from './negate.js';
import type { _Loc } from './refs.js';

/** Most alternatives one conjunction may distribute into. */
const MAX_ALTERNATIVES = 128;

/**
 * @internal Rewrites `not` and conditionals into plain schemas and groups, then distributes the
 * groups. Returns the alternatives (each a list of conjunct locations without combinators).
 */
export function _alternatives(ctx: _Ctx, parts: _Parts, depth = 0): _Loc[][] {
  if (depth > 8)
    throw new GbnfCompileError('TOO_LARGE', parts.plain[0]?.ptr ?? '#', 'combinators nest too deeply');
  const plain = [...parts.plain];
  const groups: _Group[] = [...parts.groups];
  let combos: _Loc[][] = [plain];
  const product = (alts: _Loc[][], ptr: string) => {
    const next: _Loc[][] = [];
    for (const combo of combos) for (const a of alts) next.push([...combo, ...a]);
    if (next.length > MAX_ALTERNATIVES) {
      throw new GbnfCompileError(
        'TOO_LARGE',
        ptr,
        `combinators expand into more than ${MAX_ALTERNATIVES} alternatives`,
      );
    }
    combos = next;
  };
  for (const n of parts.nots) {
    let negSchema: unknown;
    try {
      negSchema = _negate(ctx, n);
    } catch (e) {
      if (!(e instanceof GbnfCompileError)) throw e;
      // ¬S contains every value of a type S does not admit: a sound narrowing when S declares types
      const t =
        n.schema !== null && typeof n.schema === 'object'
          ? (n.schema as Record<string, unknown>).type
          : undefined;
      if (t === undefined) throw e;
      const ts = new Set((Array.isArray(t) ? t : [t]) as string[]);
      const rest = ['null', 'boolean', 'object', 'array', 'string', 'number'].filter(
        (x) => !ts.has(x) && !(x === 'number' && ts.has('integer')),
      );
      if (rest.length === 0) throw e;
      ctx.narrow(
        n.ptr,
        `only values of other types than ${JSON.stringify(t)} are accepted here (${e.message})`,
      );
      negSchema = { type: rest };
    }
    const neg = ctx.synth(negSchema, n.ptr, n.base);
    const sub = _expand(ctx, [neg]);
    if (sub.never !== undefined) return [];
    product(
      sub.groups.length + sub.nots.length + sub.conds.length > 0
        ? _alternatives(ctx, sub, depth + 1)
        : [sub.plain],
      n.ptr,
    );
  }
  for (const c of parts.conds) {
    const thenSide = c.thenLoc ? [c.cond, c.thenLoc] : [c.cond];
    const branches = [ctx.synth({ allOf: thenSide.map((l) => l.schema) }, c.ptr, c.cond.base)];
    let negated: _Loc | undefined;
    try {
      negated = ctx.synth(_negate(ctx, c.cond), c.cond.ptr, c.cond.base);
    } catch (e) {
      if (!(e instanceof GbnfCompileError)) throw e;
      // (if ∧ then) ∨ (then ∧ else) is inside (if ∧ then) ∨ (¬if ∧ else): a sound narrowing
      ctx.narrow(
        c.ptr,
        `the negation of "if" cannot be expressed (${e.message}); only instances valid under "then" (and "else", if given) are accepted when "if" fails`,
      );
    }
    if (negated) {
      branches.push(
        ctx.synth({ allOf: [negated.schema, ...(c.elseLoc ? [c.elseLoc.schema] : [])] }, c.ptr, c.cond.base),
      );
    } else if (c.thenLoc && c.elseLoc) {
      branches.push(ctx.synth({ allOf: [c.thenLoc.schema, c.elseLoc.schema] }, c.ptr, c.cond.base));
    } else if (c.thenLoc === undefined && c.elseLoc === undefined) continue;
    groups.push({ kind: 'anyOf', branches, ptr: c.ptr });
  }
  for (const group of groups) {
    const next: _Loc[][] = [];
    for (const combo of combos) {
      const branches =
        group.kind === 'oneOf' ? exclusiveBranches(ctx, combo, group) : group.branches.map((b) => [b]);
      for (const b of branches) {
        const sub = _expand(ctx, b);
        if (sub.never !== undefined) continue;
        const subAlts =
          sub.groups.length + sub.nots.length + sub.conds.length > 0
            ? _alternatives(ctx, sub, depth + 1)
            : [sub.plain];
        for (const s of subAlts) next.push([...combo, ...s]);
        if (next.length > MAX_ALTERNATIVES) {
          throw new GbnfCompileError(
            'TOO_LARGE',
            group.ptr,
            `combinators expand into more than ${MAX_ALTERNATIVES} alternatives`,
          );
        }
      }
    }
    combos = next;
  }
  return combos;
}

/** Branches of a oneOf, each joined with the negation of the others unless provably disjoint. */
function exclusiveBranches(ctx: _Ctx, base: _Loc[], group: _Group): _Loc[][] {
  const n = group.branches.length;
  const own = group.branches.map((b) => _flatOf(ctx, [b], b));
  // A JSON type that two branches admit without constraining it cannot occur at all (both would
  // match): it is removed from every branch. Exact.
  const removed = new Set<string>();
  for (const t of SPLIT_TYPES) {
    const free = own.filter((f) => f !== undefined && admits(f, t) && unconstrainedFor(f, t));
    if (free.length >= 2) removed.add(t);
  }
  const keep = (f: _Flat | undefined): _Flat | undefined => {
    if (f === undefined || removed.size === 0) return f;
    const types = new Set([...f.types].filter((t) => !removed.has(t === 'integer' ? 'number' : t)));
    return { ...f, types };
  };
  const flats: (_Flat | undefined)[] = group.branches.map((b) => keep(_flatOf(ctx, [...base, b], b)));
  const restriction =
    removed.size === 0
      ? undefined
      : SPLIT_TYPES.filter((t) => !removed.has(t) && t !== 'number').concat(
          removed.has('number') ? [] : ['number'],
        );
  const out: _Loc[][] = [];
  let failure: string | undefined;
  for (let i = 0; i < n; i++) {
    let dropped = false;
    let why = '';
    const list: _Loc[] = [group.branches[i]!];
    if (restriction) list.push(ctx.synth({ type: restriction }, group.ptr, group.branches[i]!.base));
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const fi = flats[i];
      const fj = flats[j];
      if (fi && fj && _disjoint(ctx, fi, fj)) continue;
      if (fi === undefined && fj === undefined) {
        // neither branch is a plain schema: compare every pair of their alternatives
        if (altsDisjoint(ctx, base, group.branches[i]!, group.branches[j]!)) continue;
      }
      try {
        list.push(
          ctx.synth(_negate(ctx, group.branches[j]!), group.branches[j]!.ptr, group.branches[j]!.base),
        );
      } catch (e) {
        if (!(e instanceof GbnfCompileError)) throw e;
        why = `branches ${i} and ${j} may both match and branch ${j} cannot be negated (${e.message})`;
        failure ??= why;
        dropped = true;
        break;
      }
    }
    if (dropped) {
      // leaving out the part of the oneOf that branch i contributes is a sound narrowing
      ctx.narrow(group.ptr, `oneOf branch ${i} is left out: ${why}`);
      continue;
    }
    out.push(list);
  }
  if (out.length === 0)
    throw new GbnfCompileError('OVERLAPPING_ONEOF', group.ptr, failure ?? 'no branch can be compiled');
  return out;
}

const SPLIT_TYPES = ['null', 'boolean', 'object', 'array', 'string', 'number'] as const;

function admits(f: _Flat, t: string): boolean {
  return t === 'number' ? f.types.has('number') || f.types.has('integer') : f.types.has(t as _JsonType);
}

/** True when the flat accepts every value of JSON type `t` (number: every number). */
function unconstrainedFor(f: _Flat, t: string): boolean {
  if (f.values !== undefined || f.notIn.length > 0) return false;
  switch (t) {
    case 'null':
    case 'boolean':
      return true;
    case 'string':
      return (
        f.minLength === 0 &&
        f.maxLength === undefined &&
        f.patterns.length === 0 &&
        f.notPatterns.length === 0 &&
        f.notFormats.length === 0 &&
        f.formats.every((x) => x.name in _NUMBER_FORMATS)
      );
    case 'number':
      return (
        f.types.has('number') &&
        f.lo === undefined &&
        f.hi === undefined &&
        f.multipleOf.length === 0 &&
        f.notMultipleOf.length === 0 &&
        !f.formats.some((x) => x.name in _NUMBER_FORMATS)
      );
    case 'object':
      return (
        f.objParts.length === 0 &&
        f.required.length === 0 &&
        f.minProperties === 0 &&
        f.maxProperties === undefined &&
        f.dependentRequired.length === 0 &&
        f.unevaluatedProperties.length === 0
      );
    case 'array':
      return (
        f.arrParts.length === 0 &&
        f.minItems === 0 &&
        f.maxItems === undefined &&
        f.uniqueItems === undefined &&
        f.contains.length === 0 &&
        f.unevaluatedItems.length === 0
      );
    default:
      return false;
  }
}

function altsDisjoint(ctx: _Ctx, base: _Loc[], a: _Loc, b: _Loc): boolean {
  try {
    const aa = _alternatives(ctx, _expand(ctx, [...base, a]), 6).map((l) => _merge(ctx, l, a));
    const bb = _alternatives(ctx, _expand(ctx, [...base, b]), 6).map((l) => _merge(ctx, l, b));
    return aa.every((x) => bb.every((y) => _disjoint(ctx, x, y)));
  } catch {
    return false;
  }
}
