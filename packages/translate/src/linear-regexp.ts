/**
 * Linear-time matching for JSON Schema `pattern` and `patternProperties` (docs/security.md,
 * "Regular expressions"). A backtracking engine takes exponential time on patterns such as
 * `^(a+)+$`: one 31-character argument blocks the event loop for seconds, and each added character
 * doubles it. Every pattern is therefore translated to RE2 syntax with the same ECMAScript meaning
 * (`regexToRe2`) and run by `re2js`, whose time grows linearly with the input. A pattern RE2
 * cannot express (backreferences, lookahead, lookbehind, pattern modifiers) or that exceeds RE2's
 * limits (a repeat count over 1000, a program too large) is refused with {@link UnboundedPatternError}:
 * no argument is ever checked by a pattern whose matching time is not bounded.
 * @module
 */
import { GbnfRegexError, regexToRe2 } from '@xprotocol/gbnf';
import { RE2JS } from 're2js';
import { _preview } from './_json-util.js';
import { TranslateError } from './errors.js';

/** What a validator calls to test a pattern (the part of `RegExp` ajv uses). */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/** A valid pattern refused because its matching time cannot be bounded. */
export class UnboundedPatternError extends TranslateError {
  readonly pattern: string;
  /** `backreference`, `lookahead`, `lookbehind`, `modifiers` or `limit`. */
  readonly construct: string;

  constructor(pattern: string, construct: string, why: string, options?: { cause?: unknown }) {
    super(
      'UNSAFE_SCHEMA',
      `pattern ${_preview(pattern)} cannot be evaluated in linear time (${why}); a tool with this pattern is refused`,
      options,
    );
    this.name = 'UnboundedPatternError';
    this.pattern = pattern;
    this.construct = construct;
  }
}

const _CACHE_LIMIT = 4096;
const _cache = new Map<string, LinearRegExp>();

/**
 * Compiles `pattern` (ECMAScript; `flags` is `"u"` or `""`, as ajv passes them) for linear-time
 * matching. Throws a `SyntaxError` ("Invalid regular expression: …") for a pattern that is not
 * valid with these flags, {@link UnboundedPatternError} for one that has no linear-time evaluation.
 * @example
 * linearRegExp('^(a+)+$', 'u').test(`${'a'.repeat(10_000)}!`); // false, at once
 */
export function linearRegExp(pattern: string, flags: string): LinearRegExp {
  const key = `${flags}/${pattern}`;
  const cached = _cache.get(key);
  if (cached) return cached;
  let syntax: string;
  try {
    syntax = regexToRe2(pattern, { lenient: !flags.includes('u') });
  } catch (error) {
    if (error instanceof GbnfRegexError && error.code === 'REGEX_UNSUPPORTED') {
      const construct = error.construct ?? 'syntax';
      throw new UnboundedPatternError(pattern, construct, _why(construct, error.offset), { cause: error });
    }
    // Invalid with these flags: the JavaScript engine's own SyntaxError says where.
    new RegExp(pattern, flags);
    throw error;
  }
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(syntax);
  } catch (error) {
    throw new UnboundedPatternError(pattern, 'limit', `RE2 refuses it: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const compiled: LinearRegExp = {
    test: (text) => re2.test(text),
    toString: () => `/${pattern}/${flags}`,
  };
  if (_cache.size >= _CACHE_LIMIT) _cache.clear();
  _cache.set(key, compiled);
  return compiled;
}

function _why(construct: string, offset: number | undefined): string {
  const at = offset === undefined ? '' : ` at offset ${offset}`;
  switch (construct) {
    case 'backreference':
      return `a backreference${at} needs backtracking`;
    case 'lookahead':
    case 'lookbehind':
      return `a ${construct}${at} needs backtracking`;
    case 'modifiers':
      return `pattern modifiers${at} are not supported`;
    default:
      return `an unsupported construct${at}`;
  }
}
