/**
 * ECMAScript regex (JSON Schema `pattern`, ECMA-262 with the `u` flag) → RE2 syntax with the same
 * language, for an engine that matches in linear time (RE2 and its ports). The pattern is parsed
 * by the same reader as {@link regexToGbnf}, so every ECMAScript meaning is resolved here, not
 * left to RE2's rules: `\s`, `.`, `\p{…}`, `\u` escapes and classes become explicit code point
 * ranges; `^` and `$` become `\A` and `\z` (JSON Schema patterns have no `m` flag). What has no
 * linear-time evaluation (backreferences, lookahead, lookbehind, pattern modifiers) is refused
 * with {@link GbnfRegexError} (`REGEX_UNSUPPORTED`, naming the construct and its offset).
 * @module
 */
import { type _CharSet, _MAX_CP } from './charset.js';
import { _parseRegex } from './parse-regex.js';
import type { _RegexNode } from './regex-ast.js';

/** Options of {@link regexToRe2}. */
export interface RegexToRe2Options {
  /**
   * Read a pattern that is invalid with the `u` flag but valid without it by Annex B (identity
   * escapes such as `\_`), as {@link regexToGbnf} does. Default false.
   */
  lenient?: boolean;
}

/**
 * The RE2 syntax matching exactly the strings `pattern` matches (unanchored search, as JSON
 * Schema's `pattern` applies). Throws {@link GbnfRegexError}: `REGEX_SYNTAX` for an invalid
 * pattern, `REGEX_UNSUPPORTED` for a construct with no linear-time evaluation.
 * @example
 * regexToRe2('^(a+)+$'); // '\\A(?:(?:\\x{61})+)+\\z'
 */
export function regexToRe2(pattern: string, options: RegexToRe2Options = {}): string {
  return _print(_parseRegex(pattern, options.lenient ?? false));
}

function _print(node: _RegexNode): string {
  switch (node.type) {
    case 'set':
      return _printSet(node.set);
    case 'seq':
      return node.items.map((item) => (item.type === 'alt' ? `(?:${_print(item)})` : _print(item))).join('');
    case 'alt':
      return node.alternatives.map(_print).join('|');
    case 'repeat': {
      const { min, max } = node;
      const count =
        max === null
          ? min === 0
            ? '*'
            : min === 1
              ? '+'
              : `{${min},}`
          : min === 0 && max === 1
            ? '?'
            : min === max
              ? `{${min}}`
              : `{${min},${max}}`;
      return `(?:${_print(node.item)})${count}`;
    }
    case 'start':
      return '\\A';
    case 'end':
      return '\\z';
    case 'boundary':
      return node.negated ? '\\B' : '\\b';
  }
}

const _hex = (cp: number): string => `\\x{${cp.toString(16)}}`;

function _printSet(set: _CharSet): string {
  if (set.length === 0) return `[^\\x{0}-${_hex(_MAX_CP)}]`; // matches nothing
  const only = set[0];
  if (set.length === 1 && only && only[0] === only[1]) return _hex(only[0]);
  return `[${set.map(([from, to]) => (from === to ? _hex(from) : `${_hex(from)}-${_hex(to)}`)).join('')}]`;
}
