/**
 * Provable disjointness of two merged schemas, for `oneOf`: when no instance can match two
 * branches, `oneOf` is exactly `anyOf`. The test is conservative (false when unsure).
 * @module
 */
import type { _Ctx } from './context.js';
import { type _Flat, _flatOf, type _JsonType } from './flat.js';
import { _check } from './instance-check.js';
import { _child, type _Loc } from './refs.js';

function effTypes(f: _Flat): Set<_JsonType> {
  const out = new Set<_JsonType>();
  for (const t of f.types) out.add(t === 'integer' ? 'number' : t);
  return out;
}

/** @internal Schema a flat gives to property `name` when it is present (list of conjuncts), or `false`. */
function propSchemas(f: _Flat, name: string): _Loc[] | false {
  const out: _Loc[] = [];
  for (const part of f.objParts) {
    const o = part.schema as Record<string, unknown>;
    const props = (o.properties ?? {}) as Record<string, unknown>;
    if (Object.hasOwn(props, name)) {
      if (props[name] === false) return false;
      out.push(_child(part, props[name], 'properties', name));
      continue;
    }
    const pats = Object.keys((o.patternProperties ?? {}) as object);
    let matched = false;
    for (const p of pats) {
      try {
        if (new RegExp(p, 'u').test(name)) matched = true;
      } catch {
        matched = true;
      }
    }
    if (matched) continue;
    if (o.additionalProperties === false) return false;
  }
  return out;
}

/** @internal True when no instance satisfies both `a` and `b`. */
export function _disjoint(ctx: _Ctx, a: _Flat, b: _Flat, depth = 0): boolean {
  if (depth > 6) return false;
  const ta = effTypes(a);
  const tb = effTypes(b);
  const common = [...ta].filter((t) => tb.has(t));
  if (common.length === 0) return true;
  // finite value sets
  const valuesOk = (vals: unknown[], other: _Flat) =>
    vals.every((v) => other.sources.some((src) => _check(v, src, ctx.index) === false) || !typeOk(other, v));
  if (a.values !== undefined && valuesOk(a.values, b)) return true;
  if (b.values !== undefined && valuesOk(b.values, a)) return true;
  for (const t of common) {
    if (!disjointFor(ctx, t, a, b, depth)) return false;
  }
  return true;
}

function typeOk(f: _Flat, v: unknown): boolean {
  const t = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  if (t === 'number') return f.types.has('number') || (f.types.has('integer') && Number.isInteger(v));
  return f.types.has(t as _JsonType);
}

function disjointFor(ctx: _Ctx, t: _JsonType, a: _Flat, b: _Flat, depth: number): boolean {
  switch (t) {
    case 'object': {
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        for (const name of x.required) {
          const ys = propSchemas(y, name);
          if (ys === false) return true;
          if (y.required.includes(name)) {
            const xs = propSchemas(x, name);
            if (xs === false) return true;
            if (xs.length > 0 && ys.length > 0) {
              const fx = _flatOf(ctx, xs, xs[0]!);
              const fy = _flatOf(ctx, ys, ys[0]!);
              if (fx && fy && _disjoint(ctx, fx, fy, depth + 1)) return true;
            }
          }
        }
      }
      return false;
    }
    case 'string':
      return (
        (a.maxLength !== undefined && a.maxLength < b.minLength) ||
        (b.maxLength !== undefined && b.maxLength < a.minLength)
      );
    case 'array':
      return (
        (a.maxItems !== undefined && a.maxItems < b.minItems) ||
        (b.maxItems !== undefined && b.maxItems < a.minItems)
      );
    case 'number': {
      const below = (x: _Flat, y: _Flat) =>
        x.hi !== undefined &&
        y.lo !== undefined &&
        (x.hi.value < y.lo.value || (x.hi.value === y.lo.value && (x.hi.exclusive || y.lo.exclusive)));
      return below(a, b) || below(b, a);
    }
    default:
      return false;
  }
}
