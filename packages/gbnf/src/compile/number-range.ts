/**
 * Bounded numbers. Integers: exact digit-range grammars. Numbers: exact for integer-valued bounds
 * (the integer part is compared with a digit range, the fraction only decides the bound itself);
 * a non-integer bound is narrowed to the nearest integer inside the range and reported.
 * Bounded values are written in plain decimal notation (no exponent).
 * @module
 */
import { _integerRange, _naturalRange } from './integer-range.js';

/** @internal One bound: its value and whether it is exclusive. */
export interface _Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

const FRAC_ANY = '( "." [0-9]+ )?';
const FRAC_ZERO = '( "." "0"+ )?';
const FRAC_NONZERO = '"." [0-9]* [1-9] [0-9]*';

/** @internal Integers in the bounds, or `null` when none. */
export function _boundedInteger(lo: _Bound | undefined, hi: _Bound | undefined): string | null {
  const l = lo === undefined ? undefined : lo.exclusive ? Math.floor(lo.value) + 1 : Math.ceil(lo.value);
  const h = hi === undefined ? undefined : hi.exclusive ? Math.ceil(hi.value) - 1 : Math.floor(hi.value);
  return _integerRange(l === undefined ? undefined : BigInt(l), h === undefined ? undefined : BigInt(h));
}

type Frac = 'any' | 'zero' | 'nonzero' | 'none';
function meet(a: Frac, b: Frac): Frac {
  if (a === 'none' || b === 'none') return 'none';
  if (a === 'any') return b;
  if (b === 'any') return a;
  return a === b ? a : 'none';
}
function fracExpr(f: Frac): string {
  return f === 'any' ? FRAC_ANY : f === 'zero' ? FRAC_ZERO : FRAC_NONZERO;
}

/** Magnitudes m ≥ 0 with K1 (<, ≤) m (<, ≤) K2, K2 undefined = open. */
function magnitude(k1: bigint, s1: boolean, k2: bigint | undefined, s2: boolean): string[] {
  const out: string[] = [];
  if (k2 !== undefined && k1 > k2) return out;
  const push = (i: bigint, j: bigint | undefined, f: Frac) => {
    if (f === 'none') return;
    const r = _naturalRange(i, j);
    if (r !== null) out.push(`${r} ${fracExpr(f)}`);
  };
  if (k2 !== undefined && k1 === k2) {
    push(k1, k1, meet(s1 ? 'nonzero' : 'any', s2 ? 'none' : 'zero'));
    return out;
  }
  push(k1, k1, s1 ? 'nonzero' : 'any');
  if (k2 === undefined) push(k1 + 1n, undefined, 'any');
  else {
    if (k2 - 1n >= k1 + 1n) push(k1 + 1n, k2 - 1n, 'any');
    push(k2, k2, s2 ? 'none' : 'zero');
  }
  return out;
}

/**
 * @internal Numbers in the bounds (plain decimal). `narrowed` is true when a non-integer bound
 * was moved inward to an integer. Returns `expr: null` when no number is in range.
 */
export function _boundedNumber(
  lo: _Bound | undefined,
  hi: _Bound | undefined,
): { expr: string | null; narrowed: boolean } {
  let narrowed = false;
  let L: bigint | undefined;
  let sL = false;
  let H: bigint | undefined;
  let sH = false;
  if (lo !== undefined) {
    if (Number.isInteger(lo.value)) {
      L = BigInt(lo.value);
      sL = lo.exclusive;
    } else {
      L = BigInt(Math.ceil(lo.value));
      narrowed = true;
    }
  }
  if (hi !== undefined) {
    if (Number.isInteger(hi.value)) {
      H = BigInt(hi.value);
      sH = hi.exclusive;
    } else {
      H = BigInt(Math.floor(hi.value));
      narrowed = true;
    }
  }
  const alts: string[] = [];
  // x >= 0 (including 0 itself)
  if (H === undefined || H > 0n || (H === 0n && !sH)) {
    const k1 = L === undefined || L < 0n ? 0n : L;
    const s1 = L !== undefined && L >= 0n ? sL : false;
    alts.push(...magnitude(k1, s1, H, sH));
  }
  // x < 0, x = -m with m > 0
  if (L === undefined || L < 0n) {
    let k1 = 0n;
    let s1 = true;
    if (H !== undefined && H < 0n) {
      k1 = -H;
      s1 = sH;
    }
    const k2 = L === undefined ? undefined : -L;
    for (const m of magnitude(k1, s1, k2, sL)) alts.push(`"-" ${m}`);
  }
  const zeroIn =
    (L === undefined || L < 0n || (L === 0n && !sL)) && (H === undefined || H > 0n || (H === 0n && !sH));
  if (zeroIn) alts.push(`"-0" ${FRAC_ZERO}`);
  return {
    expr: alts.length === 0 ? null : alts.length === 1 ? alts[0]! : `( ${alts.join(' | ')} )`,
    narrowed,
  };
}
