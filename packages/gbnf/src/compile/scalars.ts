/**
 * Strings (length, pattern, format, excluded values) and numbers (bounds, multipleOf, excluded
 * values) of a merged schema.
 * @module
 */

import { GbnfCompileError } from './compile-error.js';
import type { _Ctx } from './context.js';
import type { _Flat } from './flat.js';
import { _formatGrammar, _NUMBER_FORMATS, _SPEC_ONLY_FORMATS, AJV_FORMATS } from './formats.js';
import { _intersectRegular, type _Operand } from './intersect.js';
import { _charCp, _integer, _integerDraft04, _lit, _number, _string } from './json-primitives.js';
import { type _Bound, _boundedInteger, _boundedNumber } from './number-range.js';
import { _patternContent, _patternWithLength } from './pattern.js';
import { _repeat } from './repeat.js';
import { _stringNotIn } from './string-complement.js';

/** @internal The string part of a flat, or `null` when no string is allowed. */
export function _compileString(ctx: _Ctx, f: _Flat, label: string): string | null {
  if (f.maxLength !== undefined && f.minLength > f.maxLength) return null;
  const known = assertedFormats(ctx, f);
  const contents = stringContents(ctx, f, label, known);
  if (contents === null) return null;
  const notIn = f.notIn.filter((v): v is string => typeof v === 'string');
  const lengthConstrained = f.minLength > 0 || f.maxLength !== undefined;
  if (contents.length > 0 && notIn.length > 0) {
    ctx.narrow(
      contents[0]!.ptr,
      'excluded values cannot be combined with a pattern or format; no string is accepted here',
    );
    return null;
  }
  if (contents.length === 1 && !contents[0]!.negated) {
    const one = singleContentString(ctx, f, label, contents[0]!, lengthConstrained);
    if (one !== undefined) return one;
  }
  if (contents.length > 0) return intersectedString(ctx, f, label, contents);
  if (notIn.length > 0) {
    if (lengthConstrained) {
      ctx.narrow(
        f.ptr,
        'excluded string values cannot be combined with minLength/maxLength; no string is accepted here',
      );
      return null;
    }
    return ctx.g.rule(`${label}-string`, _stringNotIn(ctx.g, notIn, `${label}-not`));
  }
  if (!lengthConstrained) return _string(ctx.g);
  return lengthBoundedString(ctx, f, label);
}

/** One regular language a string must be in (or, `negated`, must not be in). */
interface StringContent {
  /** GBNF of the content as spelled in JSON; `null` for a negated pattern (only decoded). */
  readonly expr: string | null;
  readonly ptr: string;
  readonly minLength: number;
  readonly maxLength: number | undefined;
  /** The pattern's source, for a pattern. */
  readonly source?: string;
  /** A format grammar written over the characters themselves (no escapes). */
  readonly decoded?: boolean;
  /** The strings outside this language are meant (from `not`). */
  readonly negated?: boolean;
}

/**
 * The string formats of `f` that are assertions (ajv-formats' and the specification's own); each
 * unknown one is noted as ignored, or is an error with `unknownFormats: "error"`.
 */
function assertedFormats(ctx: _Ctx, f: _Flat): _Flat['formats'] {
  const formats = f.formats.filter((x) => !(x.name in _NUMBER_FORMATS));
  const asserted = (name: string) => AJV_FORMATS.has(name) || _SPEC_ONLY_FORMATS.has(name);
  const known = formats.filter((x) => asserted(x.name));
  for (const x of formats) {
    if (asserted(x.name)) continue;
    if (ctx.options.unknownFormats === 'error') {
      throw new GbnfCompileError(
        'UNSUPPORTED_FORMAT',
        x.ptr,
        `unknown format ${JSON.stringify(x.name)} (unknownFormats: "error")`,
      );
    }
    ctx.note(x.ptr, `unknown format ${JSON.stringify(x.name)} ignored (ajv ignores unknown formats)`);
  }
  return known;
}

/**
 * Every language a string of `f` must (or must not) be in: its formats, patterns, and the patterns
 * and formats negations excluded. `null` when one of them cannot be expressed (narrowed: no
 * string is accepted).
 */
function stringContents(ctx: _Ctx, f: _Flat, label: string, known: _Flat['formats']): StringContent[] | null {
  const formats = formatContents(ctx, known);
  if (formats === null) return null;
  const patterns = patternContents(ctx, f, label);
  if (patterns === null) return null;
  const negated = negatedContents(ctx, f);
  if (negated === null) return null;
  return [...formats, ...patterns, ...negated];
}

/** The grammars of the asserted formats (`password`, `binary`: any string, none). */
function formatContents(ctx: _Ctx, known: _Flat['formats']): StringContent[] | null {
  const g = ctx.g;
  const contents: StringContent[] = [];
  for (const x of known) {
    const fg = _formatGrammar(g, x.name);
    if (fg === undefined) continue;
    if (fg.content === null) continue;
    if (fg.gap !== null) ctx.narrow(x.ptr, `format ${JSON.stringify(x.name)}: ${fg.gap}`);
    contents.push({
      expr: fg.content,
      ptr: x.ptr,
      minLength: fg.minLength,
      maxLength: fg.maxLength,
      decoded: x.name !== 'json-pointer',
    });
  }
  if (known.some((x) => _formatGrammar(g, x.name) === undefined)) {
    const x = known.find((y) => _formatGrammar(g, y.name) === undefined)!;
    ctx.narrow(
      x.ptr,
      `format ${JSON.stringify(x.name)} cannot be expressed as a grammar; no string is accepted here`,
    );
    return null;
  }
  return contents;
}

/** The translations of `f`'s patterns. */
function patternContents(ctx: _Ctx, f: _Flat, label: string): StringContent[] | null {
  const contents: StringContent[] = [];
  for (const p of f.patterns) {
    const c = _patternContent(ctx, p.src, p.ptr, `${label}-pattern`);
    if (c === null) {
      ctx.narrow(
        p.ptr,
        `pattern ${JSON.stringify(p.src)} could not be translated; no string is accepted here`,
      );
      return null;
    }
    contents.push({ expr: c, ptr: p.ptr, minLength: 0, maxLength: undefined, source: p.src });
  }
  return contents;
}

/** From negations: not matching a pattern, not in an (exact) format. */
function negatedContents(ctx: _Ctx, f: _Flat): StringContent[] | null {
  const contents: StringContent[] = [];
  for (const p of f.notPatterns)
    contents.push({
      expr: null,
      ptr: p.ptr,
      minLength: 0,
      maxLength: undefined,
      source: p.src,
      negated: true,
    });
  for (const x of f.notFormats) {
    const fg = _formatGrammar(ctx.g, x.name);
    if (fg?.content == null || fg.gap !== null) {
      ctx.narrow(
        x.ptr,
        `the negation of format ${JSON.stringify(x.name)} cannot be expressed; no string is accepted here`,
      );
      return null;
    }
    contents.push({
      expr: fg.content,
      ptr: x.ptr,
      minLength: 0,
      maxLength: undefined,
      decoded: true,
      negated: true,
    });
  }
  return contents;
}

/**
 * A string of one pattern or format `c` within `f`'s length bounds, when that needs no automaton
 * product: a pattern translated with its length, or a content whose own lengths fit. `undefined`
 * when it does need one.
 */
function singleContentString(
  ctx: _Ctx,
  f: _Flat,
  label: string,
  c: StringContent,
  lengthConstrained: boolean,
): string | null | undefined {
  const g = ctx.g;
  const maxLen = f.maxLength;
  if (lengthConstrained && c.source !== undefined) {
    const both = _patternWithLength(ctx, c.source, c.ptr, label, f.minLength, maxLen);
    if (both === null) return null;
    if (both !== undefined) return g.rule(`${label}-string`, `"\\"" ${both} "\\""`);
  }
  const fits =
    !lengthConstrained ||
    (f.minLength <= c.minLength &&
      (maxLen === undefined || (c.maxLength !== undefined && c.maxLength <= maxLen)));
  if (fits) return c.expr === null ? _string(g) : g.rule(`${label}-string`, `"\\"" ${c.expr} "\\""`);
  return undefined;
}

/**
 * Two or more regular languages (patterns, formats, a length): their exact intersection, as the
 * product of automata over the decoded characters, then written in every JSON spelling. Too large
 * an automaton is retried with a shorter maximum length (a reported narrowing).
 */
function intersectedString(
  ctx: _Ctx,
  f: _Flat,
  label: string,
  contents: readonly StringContent[],
): string | null {
  const maxLen = f.maxLength;
  let both = contentProduct(ctx, f, label, contents, maxLen);
  // too large an automaton: a shorter maximum length keeps it small (a reported narrowing)
  for (const extra of [64, 16]) {
    if (both !== undefined) break;
    const cap = f.minLength + extra;
    if (maxLen !== undefined && cap >= maxLen) continue;
    both = contentProduct(ctx, f, label, contents, cap);
    if (both !== undefined)
      ctx.narrow(
        contents[0]!.ptr,
        `strings here are at most ${cap} characters long (the exact intersection of the patterns/formats/length is too large an automaton)`,
      );
  }
  if (both === null) return null;
  if (both !== undefined) return ctx.g.rule(`${label}-string`, `"\\"" ${both} "\\""`);
  ctx.narrow(
    contents[contents.length > 1 ? 1 : 0]!.ptr,
    contents.length > 1
      ? 'these patterns/formats are not intersected (not regular, or the automaton is too large); no string is accepted here'
      : 'minLength/maxLength cannot be combined with this pattern or format; no string is accepted here',
  );
  return null;
}

/**
 * The intersection of `contents` and the length bounds `f.minLength`..`max`, as the content of a
 * JSON string; `null` for the empty language, `undefined` when it cannot be built (too large, or
 * a content that is not regular over decoded characters).
 */
function contentProduct(
  ctx: _Ctx,
  f: _Flat,
  label: string,
  contents: readonly StringContent[],
  max: number | undefined,
): string | null | undefined {
  const g = ctx.g;
  const bounded = f.minLength > 0 || max !== undefined;
  if (bounded && max !== undefined && max > ctx.options.maxRepetition) return undefined;
  const operands: _Operand[] = [];
  for (const c of contents) {
    const e =
      c.source !== undefined
        ? _patternContent(ctx, c.source, c.ptr, `${label}-pattern`, 'decoded')
        : c.decoded
          ? c.expr
          : null;
    if (e === null) return undefined;
    operands.push(c.negated ? { expr: e, negated: true } : { expr: e });
  }
  if (bounded) {
    const cp = g.fixed('decoded-cp', () => '[\\x00-\\U0010FFFF]');
    operands.push({ expr: _repeat(cp, f.minLength, max, (body) => g.rule(`${label}-cps`, body)) });
  }
  // only complements: intersect with any string
  if (operands.every((o) => o.negated))
    operands.push({ expr: `${g.fixed('decoded-cp', () => '[\\x00-\\U0010FFFF]')}*` });
  return _intersectRegular(g, operands, `${label}-all`, 'json');
}

/** Any string within `f`'s length bounds (each bound capped at maxRepetition, reported). */
function lengthBoundedString(ctx: _Ctx, f: _Flat, label: string): string | null {
  const g = ctx.g;
  let maxLen = f.maxLength;
  if (maxLen !== undefined && maxLen > ctx.options.maxRepetition) {
    ctx.narrow(f.ptr, `maxLength ${maxLen} narrowed to maxRepetition ${ctx.options.maxRepetition}`);
    maxLen = ctx.options.maxRepetition;
    if (f.minLength > maxLen) return null;
  }
  let min = f.minLength;
  if (min > ctx.options.maxRepetition) {
    throw new GbnfCompileError(
      'TOO_LARGE',
      f.ptr,
      `minLength ${min} exceeds maxRepetition ${ctx.options.maxRepetition}`,
    );
  }
  if (maxLen === undefined && min > 0) min = Math.min(min, ctx.options.maxRepetition);
  return g.rule(
    `${label}-string`,
    `"\\"" ${_repeat(_charCp(g), min, maxLen, (body) => g.rule(`${label}-chars`, body))} "\\""`,
  );
}

/** @internal The number part (`number` or `integer`) of a flat, or `null`. */
export function _compileNumber(ctx: _Ctx, f: _Flat, label: string): string | null {
  const g = ctx.g;
  let integer = !f.types.has('number');
  let lo = f.lo;
  let hi = f.hi;
  for (const x of f.formats) {
    const nf = _NUMBER_FORMATS[x.name];
    if (!nf) continue;
    if (nf.integer) integer = true;
    if (nf.lo !== undefined) lo = tighter(lo, { value: nf.lo, exclusive: false }, true);
    if (nf.hi !== undefined) hi = tighter(hi, { value: nf.hi, exclusive: false }, false);
    if (x.name === 'int64') {
      lo = tighter(lo, { value: Number.MIN_SAFE_INTEGER, exclusive: false }, true);
      hi = tighter(hi, { value: Number.MAX_SAFE_INTEGER, exclusive: false }, false);
    }
  }
  if (f.notMultipleOf.length > 0) return notMultiple(ctx, f, integer, lo, hi, label);
  const multiples = f.multipleOf.map((m) => m.value);
  const intMultiples = multiples.filter((m) => Number.isInteger(m));
  if (multiples.includes(1)) integer = true;
  const nonInt = f.multipleOf.find((m) => !Number.isInteger(m.value));
  if (nonInt) {
    // ajv divides in binary floating point; only 0 is a multiple of every number for certain
    ctx.narrow(nonInt.ptr, `multipleOf ${nonInt.value} is not an integer; only 0 is accepted`);
    return inBounds(0, lo, hi) && !f.notIn.some((v) => v === 0) ? g.rule(`${label}-zero`, '"-"? "0"') : null;
  }
  const m = intMultiples.reduce((a, b) => lcm(a, b), 1);
  const notIn = f.notIn.filter((v): v is number => typeof v === 'number');
  if (m > 1) {
    integer = true;
    const range = bigRange(lo, hi);
    if (range.lo !== undefined && range.hi !== undefined && (range.hi - range.lo) / BigInt(m) <= 256n) {
      const vals: string[] = [];
      const bm = BigInt(m);
      let q = range.lo / bm;
      if (q * bm < range.lo) q += 1n;
      const start = q * bm;
      for (let v = start; v <= range.hi; v += bm) {
        if (v >= range.lo && !notIn.some((x) => BigInt(x) === v)) vals.push(_lit(v.toString()));
      }
      if (vals.length === 0) return null;
      if (range.lo <= 0n && range.hi >= 0n) vals.push('"-0"');
      return g.rule(`${label}-multiple`, vals.join(' | '));
    }
    if (range.lo === undefined && range.hi === undefined && m <= 1000 && notIn.length === 0) {
      return multipleDfa(ctx, m, label);
    }
    ctx.narrow(f.multipleOf[0]!.ptr, `multipleOf ${m} with a wide range: only 0 is accepted`);
    return inBounds(0, lo, hi) ? g.rule(`${label}-zero`, '"-"? "0"') : null;
  }
  const notInInts = notIn.filter((v) => Number.isInteger(v));
  if (notIn.length > notInInts.length) {
    ctx.narrow(f.ptr, 'excluding a non-integer number cannot be expressed; no number is accepted here');
    return null;
  }
  if (lo === undefined && hi === undefined && notInInts.length === 0)
    return integer
      ? // draft-04 integers are spelled without fraction or exponent (draft-04 core §3.5)
        ctx.draft === 'draft-04' && !f.types.has('number')
        ? _integerDraft04(g)
        : _integer(g)
      : _number(g);
  // split the range around excluded integers
  const cuts = [...new Set(notInInts)].sort((a, b) => a - b);
  const pieces: [_Bound | undefined, _Bound | undefined][] = [];
  let curLo = lo;
  for (const c of cuts) {
    pieces.push([curLo, tighter(hi, { value: c, exclusive: true }, false)]);
    curLo = tighter(lo, { value: c, exclusive: true }, true);
  }
  pieces.push([curLo, hi]);
  const alts: string[] = [];
  for (const [a, b] of pieces) {
    if (integer) {
      const e = _boundedInteger(a, b);
      if (e !== null) alts.push(e);
    } else {
      const r = _boundedNumber(a, b);
      if (r.narrowed)
        ctx.narrow(
          f.ptr,
          'a non-integer minimum/maximum is narrowed to the nearest integer inside the range',
        );
      if (r.expr !== null) alts.push(r.expr);
    }
  }
  if (alts.length === 0) return null;
  return g.rule(`${label}-${integer ? 'int' : 'num'}`, alts.join(' | '));
}

/**
 * Numbers that are not multiples of the integers in `f.notMultipleOf` (from `not: {multipleOf}`):
 * integers whose remainder is not 0 (a digit automaton over the least common multiple) and, unless
 * the type is integer, numbers with a non-zero fractional digit (never a multiple of an integer).
 * Written in plain decimal; other constraints on the same number are not combined (narrowed).
 */
function notMultiple(
  ctx: _Ctx,
  f: _Flat,
  integer: boolean,
  lo: _Bound | undefined,
  hi: _Bound | undefined,
  label: string,
): string | null {
  const g = ctx.g;
  const ptr = f.notMultipleOf[0]!.ptr;
  const positive = f.multipleOf.map((x) => x.value);
  if (
    lo !== undefined ||
    hi !== undefined ||
    positive.some((x) => !Number.isInteger(x)) ||
    f.formats.some((x) => x.name in _NUMBER_FORMATS)
  ) {
    ctx.narrow(
      ptr,
      'a negated multipleOf is not combined with bounds, a non-integer multipleOf or a number format; no number is accepted here',
    );
    return null;
  }
  ctx.narrow(ptr, 'numbers that are not multiples are accepted in plain decimal only (no exponent)');
  // a number passes when it is a multiple of every positive multipleOf and of none of the excluded
  // ones: the automaton tracks the remainder modulo the lcm of all of them
  const ms = f.notMultipleOf.map((x) => x.value);
  const mp = positive.reduce((a, b) => lcm(a, b), 1);
  const m = ms.reduce((a, b) => lcm(a, b), mp);
  const excludedInts = f.notIn.filter((v): v is number => typeof v === 'number');
  if (m > 1000 || excludedInts.length > 0)
    ctx.narrow(
      ptr,
      'integers are left out here (the excluded multiples are too far apart, or values are excluded too)',
    );
  const alts: string[] = [];
  if (m <= 1000 && excludedInts.length === 0) {
    const names: string[] = [];
    for (let r = 0; r < m; r++) names.push(g.reserve(`${label}-notmod${m}-r${r}`));
    const ok = (r: number) => r % mp === 0 && ms.every((x) => r % x !== 0);
    for (let r = 0; r < m; r++) {
      const out: string[] = ok(r) ? ['""'] : [];
      const byNext = new Map<number, number[]>();
      for (let d = 0; d <= 9; d++) {
        const nx = (r * 10 + d) % m;
        byNext.set(nx, [...(byNext.get(nx) ?? []), d]);
      }
      for (const [nx, ds] of [...byNext].sort((a, b) => a[0] - b[0]))
        out.push(`[${ds.join('')}] ${names[nx]}`);
      g.define(names[r]!, out.join(' | '));
    }
    const starts = new Map<number, number[]>();
    for (let d = 1; d <= 9; d++) starts.set(d % m, [...(starts.get(d % m) ?? []), d]);
    const first = [...starts].sort((a, b) => a[0] - b[0]).map(([nx, ds]) => `[${ds.join('')}] ${names[nx]}`);
    alts.push(`"-"? ( ${first.join(' | ')} )`);
  }
  // a non-integer is a multiple of no integer: allowed unless a positive multipleOf is required
  if (!integer && mp === 1) {
    if (excludedInts.some((v) => !Number.isInteger(v)))
      ctx.narrow(ptr, 'non-integer numbers are left out here (values are excluded too)');
    else alts.push('"-"? ( "0" | [1-9] [0-9]* ) "." [0-9]* [1-9] [0-9]*');
  }
  if (alts.length === 0) return null;
  return g.rule(`${label}-notmul`, alts.join(' | '));
}

function tighter(a: _Bound | undefined, b: _Bound, isLo: boolean): _Bound {
  if (a === undefined) return b;
  if (isLo ? b.value > a.value : b.value < a.value) return b;
  if (b.value === a.value && b.exclusive) return b;
  return a;
}

function inBounds(v: number, lo: _Bound | undefined, hi: _Bound | undefined): boolean {
  if (lo && (lo.exclusive ? v <= lo.value : v < lo.value)) return false;
  if (hi && (hi.exclusive ? v >= hi.value : v > hi.value)) return false;
  return true;
}

function bigRange(
  lo: _Bound | undefined,
  hi: _Bound | undefined,
): { lo: bigint | undefined; hi: bigint | undefined } {
  return {
    lo: lo === undefined ? undefined : BigInt(lo.exclusive ? Math.floor(lo.value) + 1 : Math.ceil(lo.value)),
    hi: hi === undefined ? undefined : BigInt(hi.exclusive ? Math.ceil(hi.value) - 1 : Math.floor(hi.value)),
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}

/** Multiples of m (unbounded, plain decimal): a DFA over the digits, states = remainder. */
function multipleDfa(ctx: _Ctx, m: number, label: string): string {
  const g = ctx.g;
  const names: string[] = [];
  for (let r = 0; r < m; r++) names.push(g.reserve(`${label}-mod${m}-r${r}`));
  for (let r = 0; r < m; r++) {
    const alts: string[] = [];
    if (r === 0) alts.push('""');
    const byNext = new Map<number, number[]>();
    for (let d = 0; d <= 9; d++) {
      const nx = (r * 10 + d) % m;
      byNext.set(nx, [...(byNext.get(nx) ?? []), d]);
    }
    for (const [nx, ds] of [...byNext].sort((a, b) => a[0] - b[0])) {
      alts.push(`[${ds.join('')}] ${names[nx]}`);
    }
    g.define(names[r]!, alts.join(' | '));
  }
  const starts = new Map<number, number[]>();
  for (let d = 1; d <= 9; d++) starts.set(d % m, [...(starts.get(d % m) ?? []), d]);
  const first = [...starts].sort((a, b) => a[0] - b[0]).map(([nx, ds]) => `[${ds.join('')}] ${names[nx]}`);
  return g.rule(`${label}-multiple`, `"-"? ( "0" | ${first.join(' | ')} )`);
}
