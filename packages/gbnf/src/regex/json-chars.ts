/**
 * How a set of characters is written inside a JSON string literal (RFC 8259 §7), as GBNF.
 *
 * `escapes: 'all'` (complete): a character may appear in every form JSON allows —
 * - raw, unless it is `"`, `\` or a control character U+0000–U+001F;
 * - its short escape where it has one: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`;
 * - `\uXXXX` with upper- or lower-case hex digits (BMP characters), or an escaped surrogate pair
 *   `\uD83D\uDE00` (characters above U+FFFF).
 * `escapes: 'canonical'`: only the form `JSON.stringify` writes — raw, except `\"`, `\\`, `\b \f
 * \n \r \t`, and `\u00xx` (lower-case hex) for the other control characters.
 * Lone surrogates (U+D800–U+DFFF, raw or escaped) are never accepted: a pattern is matched against
 * well-formed strings only.
 * @module
 */
import type { CharRange, GrammarElement, GrammarSequence } from '../grammar/ast.js';
import { type _CharSet, _complement, _intersect, _isEmpty, _SURROGATES, _set, _subtract } from './charset.js';

/** Which JSON escape forms a character may take; see the module documentation. */
export type JsonEscapes = 'all' | 'canonical';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const RAW_FORBIDDEN: _CharSet = _set([
  [0x00, 0x1f],
  [QUOTE, QUOTE],
  [BACKSLASH, BACKSLASH],
]);
/** Characters with a two-character escape, and the letter after the backslash. */
const SHORT: readonly [number, string][] = [
  [QUOTE, '"'],
  [BACKSLASH, '\\'],
  [0x2f, '/'],
  [0x08, 'b'],
  [0x0c, 'f'],
  [0x0a, 'n'],
  [0x0d, 'r'],
  [0x09, 't'],
];

const lit = (value: string): GrammarElement => ({ type: 'literal', value });
const cls = (ranges: readonly (readonly [number, number])[], negated = false): GrammarElement => ({
  type: 'class',
  negated,
  ranges: ranges.map(([from, to]): CharRange => ({ from, to })),
});

/**
 * The alternatives writing one character of `set` inside a JSON string (empty: none). `decoded`
 * (internal) writes the characters themselves, unescaped: a grammar of decoded strings, used to
 * intersect automata before spelling them.
 */
export function _jsonCharForms(set: _CharSet, escapes: JsonEscapes | 'decoded'): GrammarSequence[] {
  const s = _subtract(set, _SURROGATES);
  const out: GrammarSequence[] = [];
  if (escapes === 'decoded') return _isEmpty(s) ? out : [[rawClass(s)]];
  const raw = _subtract(s, RAW_FORBIDDEN);
  if (!_isEmpty(raw)) out.push([rawClass(raw)]);
  const letters = SHORT.filter(([c]) => (escapes === 'all' || c !== 0x2f) && contains(s, c)).map(
    ([, l]) => l,
  );
  if (letters.length > 0) {
    const codes = letters.map((l) => l.codePointAt(0) ?? 0);
    out.push([lit('\\'), letters.length === 1 ? lit(letters[0] ?? '') : cls(_set(codes.map((c) => [c, c])))]);
  }
  if (escapes === 'canonical') {
    // JSON.stringify: \u00xx in lower case for control characters without a short form
    const controls = _subtract(_intersect(s, [[0, 0x1f]]), _set(SHORT.map(([c]) => [c, c])));
    for (const [a, b] of controls) {
      for (let c = a; c <= b; c++) out.push([lit(`\\u00${c.toString(16).padStart(2, '0')}`)]);
    }
    return out;
  }
  const bmp = _intersect(s, [[0, 0xffff]]);
  for (const [a, b] of bmp) for (const digits of hexRange(a, b, 4)) out.push(joined([lit('\\u'), ...digits]));
  const astral = _intersect(s, [[0x10000, 0x10ffff]]);
  for (const [a, b] of astral) {
    for (const [hi, [lo1, lo2]] of surrogateRanges(a, b)) {
      for (const hd of hexRange(hi[0], hi[1], 4)) {
        for (const ld of hexRange(lo1, lo2, 4)) out.push(joined([lit('\\u'), ...hd, lit('\\u'), ...ld]));
      }
    }
  }
  return out;
}

/** Joins adjacent literals. */
function joined(els: GrammarElement[]): GrammarElement[] {
  const out: GrammarElement[] = [];
  for (const e of els) {
    const prev = out[out.length - 1];
    if (e.type === 'literal' && prev?.type === 'literal') out[out.length - 1] = lit(prev.value + e.value);
    else out.push(e);
  }
  return out;
}

function contains(s: _CharSet, c: number): boolean {
  return s.some(([a, b]) => a <= c && c <= b);
}

/**
 * A class for raw characters: positive, or negated when that is shorter (surrogates, which never
 * occur in text, may then fall inside).
 */
function rawClass(raw: _CharSet): GrammarElement {
  const [only] = raw;
  if (raw.length === 1 && only && only[0] === only[1]) return lit(String.fromCodePoint(only[0]));
  const complement = _subtract(_complement(raw), _SURROGATES);
  if (complement.length > 0 && complement.length < raw.length) return cls(complement, true);
  return cls(raw);
}

/** Surrogate pairs for astral code points a..b: [[hiFrom, hiTo], [loFrom, loTo]] groups. */
function surrogateRanges(a: number, b: number): [[number, number], [number, number]][] {
  const hi = (c: number) => 0xd800 + ((c - 0x10000) >> 10);
  const lo = (c: number) => 0xdc00 + ((c - 0x10000) & 0x3ff);
  const [ha, hb, la, lb] = [hi(a), hi(b), lo(a), lo(b)];
  if (ha === hb)
    return [
      [
        [ha, ha],
        [la, lb],
      ],
    ];
  const out: [[number, number], [number, number]][] = [];
  let first = ha;
  let last = hb;
  if (la !== 0xdc00) {
    out.push([
      [ha, ha],
      [la, 0xdfff],
    ]);
    first++;
  }
  const tail: [[number, number], [number, number]][] = [];
  if (lb !== 0xdfff) {
    tail.push([
      [hb, hb],
      [0xdc00, lb],
    ]);
    last--;
  }
  if (first <= last)
    out.push([
      [first, last],
      [0xdc00, 0xdfff],
    ]);
  return out.concat(tail);
}

/** Sequences of hex-digit classes (either case) spelling every value in lo..hi with `width` digits. */
function hexRange(lo: number, hi: number, width: number): GrammarElement[][] {
  if (width === 0) return [[]];
  const base = 16 ** (width - 1);
  const loTop = Math.floor(lo / base);
  const hiTop = Math.floor(hi / base);
  const prefix = (d1: number, d2: number, rest: GrammarElement[][]) =>
    rest.map((r) => [hexDigits(d1, d2), ...r]);
  if (loTop === hiTop) return prefix(loTop, loTop, hexRange(lo % base, hi % base, width - 1));
  const out: GrammarElement[][] = [];
  let first = loTop;
  let last = hiTop;
  if (lo % base !== 0) {
    out.push(...prefix(loTop, loTop, hexRange(lo % base, base - 1, width - 1)));
    first++;
  }
  const tail: GrammarElement[][] = [];
  if (hi % base !== base - 1) {
    tail.push(...prefix(hiTop, hiTop, hexRange(0, hi % base, width - 1)));
    last--;
  }
  if (first <= last)
    out.push(...prefix(first, last, [Array.from({ length: width - 1 }, () => hexDigits(0, 15))]));
  return out.concat(tail);
}

/** One hex digit with value in d1..d2, in either case. */
function hexDigits(d1: number, d2: number): GrammarElement {
  const ranges: [number, number][] = [];
  if (d1 <= 9) ranges.push([0x30 + d1, 0x30 + Math.min(d2, 9)]);
  if (d2 >= 10) {
    const a = Math.max(d1, 10) - 10;
    const b = d2 - 10;
    ranges.push([0x41 + a, 0x41 + b], [0x61 + a, 0x61 + b]);
  }
  if (ranges.length === 1 && ranges[0]?.[0] === ranges[0]?.[1])
    return lit(String.fromCharCode(ranges[0]?.[0] ?? 0));
  return cls(ranges);
}
