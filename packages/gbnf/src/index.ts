/**
 * `@xprotocol/gbnf` — JSON Schema → GBNF compiler and a GBNF toolkit.
 * @module
 */

export { GbnfCompileError, type GbnfCompileReason } from './compile/compile-error.js';
export { type CompiledGrammar, compileSchema } from './compile/compile-schema.js';
export { AJV_FORMATS } from './compile/formats.js';
export {
  type CompileOptions,
  DEFAULT_COMPILE_OPTIONS,
  type ResolvedCompileOptions,
  type UnknownFormatPolicy,
} from './compile/options.js';
export { GbnfError, type GbnfErrorCode } from './errors.js';
export type {
  AnyCharElement,
  CharClassElement,
  CharRange,
  Grammar,
  GrammarElement,
  GrammarRule,
  GrammarSequence,
  GroupElement,
  LiteralElement,
  RepeatElement,
  RuleRefElement,
  TokenElement,
} from './grammar/ast.js';
export { isRuleName, MAX_REPETITION } from './grammar/ast.js';
export { GbnfGrammarError, type GrammarLocation } from './grammar/errors.js';
export { compileMatcher, type GrammarMatcher, matches } from './grammar/match.js';
export { parseGrammar } from './grammar/parse.js';
export { printGrammar } from './grammar/print.js';
export { GbnfRegexError } from './regex/errors.js';
export type { JsonEscapes } from './regex/json-chars.js';
export { type RegexGrammar, type RegexToGbnfOptions, regexToGbnf } from './regex/to-gbnf.js';
export { type RegexToRe2Options, regexToRe2 } from './regex/to-re2.js';
