/**
 * Local errors of `@xprotocol/gbnf`. Every error this package throws extends {@link GbnfError}, so
 * `instanceof GbnfError` catches all of them; `code` is stable, `message` says what was expected
 * and what was received.
 * @module
 */

/**
 * Stable error codes. `GRAMMAR_SYNTAX`: GBNF text the llama.cpp parser would refuse;
 * `GRAMMAR_INVALID`: a grammar that parses but cannot be used (undefined rule, no root, left
 * recursion); `REGEX_SYNTAX`: a pattern that is not a valid ECMAScript `u`-mode regex;
 * `REGEX_UNSUPPORTED`: a valid pattern with a construct GBNF cannot express; `COMPILE`: a JSON
 * Schema that cannot be compiled (thrown by the compiler).
 */
export type GbnfErrorCode =
  | 'GRAMMAR_SYNTAX'
  | 'GRAMMAR_INVALID'
  | 'REGEX_SYNTAX'
  | 'REGEX_UNSUPPORTED'
  | 'COMPILE';

/** The one base class for errors thrown by this package. */
export class GbnfError extends Error {
  readonly code: GbnfErrorCode;

  constructor(code: GbnfErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GbnfError';
    this.code = code;
  }
}
