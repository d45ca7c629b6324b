/**
 * `pattern` (and `patternProperties` names): an ECMAScript regex, translated by the package's
 * regex → GBNF translator ({@link regexToGbnf}) into the grammar of the string content. Values
 * accept every JSON escape form; member names only the `JSON.stringify` spelling. A pattern that
 * is only valid without the `u` flag (`\_`, a lone `{`) is read leniently, as a non-`u` RegExp
 * would read it, and noted.
 * @module
 */
import { GbnfError } from '../errors.js';
import type { JsonEscapes } from '../regex/json-chars.js';
import { _translateRegex } from '../regex/to-gbnf.js';
import type { _Ctx } from './context.js';
import { _repeat } from './repeat.js';

const cache = new WeakMap<object, Map<string, string | null>>();

/**
 * @internal GBNF (a rule name) for the content of strings matching `source`, or `null` when the
 * translator refuses it (the caller narrows and reports).
 */
export function _patternContent(
  ctx: _Ctx,
  source: string,
  ptr: string,
  label: string,
  escapes: JsonEscapes | 'decoded' = 'all',
): string | null {
  let byPattern = cache.get(ctx.g);
  if (!byPattern) {
    byPattern = new Map();
    cache.set(ctx.g, byPattern);
  }
  const key = `${escapes}\u0000${source}`;
  if (byPattern.has(key)) return byPattern.get(key)!;
  let result: string | null = null;
  try {
    let translated: ReturnType<typeof _translateRegex>;
    try {
      translated = _translateRegex(source, ctx.g.freshPrefix(label), escapes, false);
    } catch (e) {
      if (!(e instanceof GbnfError) || e.code !== 'REGEX_SYNTAX') throw e;
      translated = _translateRegex(source, ctx.g.freshPrefix(label), escapes, true);
      if (escapes !== 'decoded')
        ctx.note(ptr, `pattern is not a valid u-mode regex; read as a non-u RegExp reads it`);
    }
    for (const line of translated.gbnf.split('\n')) {
      const at = line.indexOf(' ::= ');
      if (at > 0) ctx.g.define(line.slice(0, at), line.slice(at + 5));
    }
    result = translated.root;
  } catch (e) {
    if (!(e instanceof GbnfError)) throw e;
    ctx.note(ptr, `pattern ${JSON.stringify(source)} not translated: ${e.message}`);
    result = null;
  }
  byPattern.set(key, result);
  return result;
}

// `^X+$`, `^X*$`, `^X{n}$`, `^X{n,}$`, `^X{n,m}$` with X one character: a class, an escape, `.`
const SIMPLE = /^\^((?:\[(?:\\.|[^\]\\])*\])|\\[dDwWsS]|\.|[A-Za-z0-9_ -])(\+|\*|\{(\d+)(?:(,)(\d*))?\})\$$/;

/**
 * @internal A pattern of the form `^X{a,b}$` (one character class repeated) together with
 * `minLength`/`maxLength`: the intersection is `X{max(a,min),min(b,max)}` — exact. Returns
 * `undefined` when the pattern is not of that form, `null` when the intersection is empty.
 */
export function _patternWithLength(
  ctx: _Ctx,
  source: string,
  ptr: string,
  label: string,
  minLength: number,
  maxLength: number | undefined,
): string | null | undefined {
  const m = SIMPLE.exec(source);
  if (!m) return undefined;
  const atom = m[1]!;
  const q = m[2]!;
  let lo = 0;
  let hi: number | undefined;
  if (q === '+') lo = 1;
  else if (q !== '*') {
    lo = Number(m[3]);
    hi = m[4] === undefined ? lo : m[5] === '' ? undefined : Number(m[5]);
  }
  lo = Math.max(lo, minLength);
  if (maxLength !== undefined) hi = hi === undefined ? maxLength : Math.min(hi, maxLength);
  if (hi !== undefined && hi < lo) return null;
  const one = _patternContent(ctx, `^${atom}$`, ptr, `${label}-char`);
  if (one === null) return undefined;
  return _repeat(one, lo, hi);
}
