/**
 * Exact digit-range grammars: the decimal spellings (no leading zeros) of the integers in a
 * range, built digit by digit so any bound — negative, huge, open — is exact.
 * @module
 */

/** @internal `[a-b]` for two digits. */
function cls(a: number, b: number): string {
  if (a === b) return `"${a}"`;
  if (a === 0 && b === 9) return '[0-9]';
  return `[${a}-${b}]`;
}

function digits(n: number): string {
  return n === 0 ? '' : n === 1 ? '[0-9]' : `[0-9]{${n}}`;
}

/** Same-length digit strings `lo` ≤ x ≤ `hi`. */
function sameLength(lo: string, hi: string): string {
  if (lo.length === 0) return '';
  if (lo === hi) return `"${lo}"`;
  const l0 = Number(lo[0]);
  const h0 = Number(hi[0]);
  const loRest = lo.slice(1);
  const hiRest = hi.slice(1);
  const n = loRest.length;
  if (l0 === h0) return join(`"${lo[0]}"`, sameLength(loRest, hiRest));
  const allZero = /^0*$/.test(loRest);
  const allNine = /^9*$/.test(hiRest);
  const alts: string[] = [];
  let from = l0;
  let to = h0;
  if (!allZero) {
    alts.push(join(`"${l0}"`, sameLength(loRest, '9'.repeat(n))));
    from = l0 + 1;
  }
  if (!allNine) to = h0 - 1;
  if (from <= to) alts.push(join(cls(from, to), digits(n)));
  if (!allNine) alts.push(join(`"${h0}"`, sameLength('0'.repeat(n), hiRest)));
  return alts.length === 1 ? alts[0]! : `( ${alts.join(' | ')} )`;
}

function join(a: string, b: string): string {
  return b === '' ? a : `${a} ${b}`;
}

/**
 * @internal GBNF for the spellings of the natural numbers in [`lo`, `hi`] (`hi` undefined: no
 * upper bound), without sign or leading zeros. Returns `null` for an empty range.
 */
export function _naturalRange(lo: bigint, hi: bigint | undefined): string | null {
  if (lo < 0n) lo = 0n;
  if (hi !== undefined && hi < lo) return null;
  const alts: string[] = [];
  const loS = lo.toString();
  const maxLen = hi === undefined ? loS.length : hi.toString().length;
  for (let len = loS.length; len <= maxLen; len++) {
    const a = len === loS.length ? loS : len === 1 ? '0' : `1${'0'.repeat(len - 1)}`;
    const b = hi !== undefined && len === maxLen ? hi.toString() : '9'.repeat(len);
    if (len === 1) {
      alts.push(cls(Number(a), Number(b)));
      continue;
    }
    // first digit is never 0 for len > 1 (a starts with 1..9)
    alts.push(sameLength(a, b));
  }
  if (hi === undefined) {
    const n = loS.length; // longer spellings: any digit string of length > n
    alts.push(`[1-9] ${digits(n)} [0-9]*`.replace('  ', ' '));
  }
  return alts.length === 1 ? alts[0]! : `( ${alts.join(' | ')} )`;
}

/**
 * @internal GBNF for the integers in [`lo`, `hi`] (either open when undefined), spelled as JSON
 * writes them: optional `-`, no leading zeros; `-0` is accepted when 0 is in range. Returns
 * `null` for an empty range.
 */
export function _integerRange(lo: bigint | undefined, hi: bigint | undefined): string | null {
  const alts: string[] = [];
  // non-negative part
  if (hi === undefined || hi >= 0n) {
    const r = _naturalRange(lo === undefined || lo < 0n ? 0n : lo, hi);
    if (r !== null) alts.push(r);
  }
  // negative part: -m for m in [max(1, -hi), -lo]
  if (lo === undefined || lo < 0n) {
    const mLo = hi === undefined || hi >= -1n ? 1n : -hi;
    const mHi = lo === undefined ? undefined : -lo;
    const r = _naturalRange(mLo, mHi);
    if (r !== null) alts.push(`"-" ${r}`);
  }
  if ((lo === undefined || lo <= 0n) && (hi === undefined || hi >= 0n)) alts.push('"-0"');
  if (alts.length === 0) return null;
  return alts.length === 1 ? alts[0]! : `( ${alts.join(' | ')} )`;
}
