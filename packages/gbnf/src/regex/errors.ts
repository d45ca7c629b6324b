/**
 * Errors of the regex → GBNF translator.
 * @module
 */
import { GbnfError } from '../errors.js';

/**
 * A pattern that cannot be translated. `code` is `REGEX_SYNTAX` when it is not a valid ECMAScript
 * regex with the `u` flag, `REGEX_UNSUPPORTED` when it is valid but uses a construct a
 * context-free grammar cannot express here (`construct` names it; `offset` is its UTF-16 index in
 * the pattern).
 */
export class GbnfRegexError extends GbnfError {
  readonly pattern: string;
  readonly offset: number | undefined;
  readonly construct: string | undefined;

  constructor(
    code: 'REGEX_SYNTAX' | 'REGEX_UNSUPPORTED',
    message: string,
    details: { pattern: string; offset?: number; construct?: string; cause?: unknown },
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'GbnfRegexError';
    this.pattern = details.pattern;
    this.offset = details.offset;
    this.construct = details.construct;
  }
}
