/**
 * Helpers for the regex → GBNF tests: a matcher for a pattern's JSON string literals, and JSON
 * encoders that write each character in a random one of the forms JSON allows.
 */
import { compileMatcher, type JsonEscapes, regexToGbnf } from '../../src/index.js';

/** A matcher over whole JSON string literals (quotes included) whose value the pattern matches. */
export function patternMatcher(
  pattern: string,
  escapes: JsonEscapes = 'all',
  lenient = false,
): (json: string) => boolean {
  const { root, gbnf } = regexToGbnf(pattern, { prefix: 'pat', escapes, lenient });
  return compileMatcher(`root ::= "\\"" ${root} "\\""\n${gbnf}`);
}

const SHORT: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

const hex4 = (n: number, upper: boolean) => {
  const h = n.toString(16).padStart(4, '0');
  return upper ? h.toUpperCase() : h;
};

/** `s` as a JSON string literal, each character in a form picked by `rand` among all JSON allows. */
export function jsonEncodeAnyForm(s: string, rand: () => number): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const forms: string[] = [];
    if (cp >= 0x20 && ch !== '"' && ch !== '\\') forms.push(ch);
    const short = SHORT[ch];
    if (short) forms.push(short);
    const upper = rand() < 0.5;
    if (cp <= 0xffff) forms.push(`\\u${hex4(cp, upper)}`);
    else {
      const hi = 0xd800 + ((cp - 0x10000) >> 10);
      const lo = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      forms.push(`\\u${hex4(hi, upper)}\\u${hex4(lo, rand() < 0.5)}`);
    }
    out += forms[Math.floor(rand() * forms.length)];
  }
  return `${out}"`;
}

/** True when `s` has no lone surrogate (patterns are matched against well-formed strings only). */
export function isWellFormed(s: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}
