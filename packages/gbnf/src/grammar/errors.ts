/**
 * Errors of the GBNF toolkit: where in the grammar text, what was expected, what was found.
 * @module
 */
import { GbnfError } from '../errors.js';

/** Where a grammar error was found: 1-based line and column (in code points) and 0-based offset. */
export interface GrammarLocation {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/**
 * A grammar llama.cpp would refuse. `code` is `GRAMMAR_SYNTAX` for text its parser refuses and
 * `GRAMMAR_INVALID` for a grammar that parses but cannot be used (an undefined rule, no `root`,
 * left recursion, an out-of-range bound in a grammar built by hand). `location` is set when the
 * grammar came from text.
 */
export class GbnfGrammarError extends GbnfError {
  readonly location: GrammarLocation | undefined;
  /** What the parser expected at `location` (e.g. `"::="`), when that is the problem. */
  readonly expected: string | undefined;

  constructor(
    code: 'GRAMMAR_SYNTAX' | 'GRAMMAR_INVALID',
    message: string,
    details: { location?: GrammarLocation; expected?: string } = {},
  ) {
    const where = details.location ? `${details.location.line}:${details.location.column}: ` : '';
    super(code, `${where}${message}`);
    this.name = 'GbnfGrammarError';
    this.location = details.location;
    this.expected = details.expected;
  }
}

/** Line, column and offset of UTF-16 index `offset` in `text` (`\n`, `\r\n` and `\r` end lines). */
export function _locate(text: string, offset: number): GrammarLocation {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      column = 1;
    } else if (c === 0x0d) {
      // the \r of \r\n: the \n ends the line
    } else if (c < 0xdc00 || c > 0xdfff || i === 0 || !isHigh(text.charCodeAt(i - 1))) {
      column++;
    }
  }
  return { line, column, offset };
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
