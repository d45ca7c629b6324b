/**
 * Sets of code points as sorted, disjoint, non-adjacent inclusive ranges, and the sets ECMAScript
 * regex escapes denote in `u` mode (ECMA-262 §22.2.2.9 CharacterClassEscape, §22.2.2.7 `.`).
 * @module
 */

/** Sorted, disjoint, non-adjacent inclusive ranges `[from, to]`. */
export type _CharSet = readonly (readonly [number, number])[];

/** The highest code point. */
export const _MAX_CP = 0x10ffff;

/** Normalizes any list of ranges. */
export function _set(ranges: readonly (readonly [number, number])[]): _CharSet {
  const sorted = ranges.filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

export function _union(...sets: _CharSet[]): _CharSet {
  return _set(sets.flat());
}

/** Complement within 0..0x10FFFF. */
export function _complement(s: _CharSet): _CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of s) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= _MAX_CP) out.push([next, _MAX_CP]);
  return out;
}

export function _intersect(a: _CharSet, b: _CharSet): _CharSet {
  return _complement(_union(_complement(a), _complement(b)));
}

export function _subtract(a: _CharSet, b: _CharSet): _CharSet {
  return _intersect(a, _complement(b));
}

export function _isEmpty(s: _CharSet): boolean {
  return s.length === 0;
}

export function _isSubset(a: _CharSet, b: _CharSet): boolean {
  return _isEmpty(_subtract(a, b));
}

/** `\d` */
export const _DIGIT: _CharSet = [[0x30, 0x39]];
/** `\w` (u mode without the i flag): `[A-Za-z0-9_]` */
export const _WORD: _CharSet = _set([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
/** `\s`: WhiteSpace and LineTerminator (ECMA-262 §12.2, §12.3). */
export const _SPACE: _CharSet = _set([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** Line terminators: what `.` does not match. */
export const _LINE_TERMINATORS: _CharSet = _set([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
/** Every code point. */
export const _ALL: _CharSet = [[0, _MAX_CP]];
/** The surrogate code points: never part of a well-formed string. */
export const _SURROGATES: _CharSet = [[0xd800, 0xdfff]];

const propertyCache = new Map<string, _CharSet>();

/**
 * The set of `\p{…}` (the text between the braces), computed by asking the JavaScript engine's
 * own Unicode tables about every code point (cached).
 */
export function _property(body: string): _CharSet {
  let s = propertyCache.get(body);
  if (!s) {
    const re = new RegExp(`^\\p{${body}}$`, 'u');
    const ranges: [number, number][] = [];
    let start = -1;
    for (let c = 0; c <= _MAX_CP + 1; c++) {
      const inside = c <= _MAX_CP && (c < 0xd800 || c > 0xdfff) && re.test(String.fromCodePoint(c));
      if (inside && start < 0) start = c;
      else if (!inside && start >= 0) {
        ranges.push([start, c - 1]);
        start = -1;
      }
    }
    s = ranges;
    propertyCache.set(body, s);
  }
  return s;
}
