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
import { regexToGbnf } from '../regex/to-gbnf.js';
import type { _Ctx } from './context.js';

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
  escapes: JsonEscapes = 'all',
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
    let translated: ReturnType<typeof regexToGbnf>;
    try {
      translated = regexToGbnf(source, { prefix: ctx.g.freshPrefix(label), escapes });
    } catch (e) {
      if (!(e instanceof GbnfError) || e.code !== 'REGEX_SYNTAX') throw e;
      translated = regexToGbnf(source, { prefix: ctx.g.freshPrefix(label), escapes, lenient: true });
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
