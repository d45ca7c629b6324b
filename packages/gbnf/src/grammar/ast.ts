/**
 * The GBNF abstract syntax tree. It mirrors what llama.cpp's parser (`src/llama-grammar.cpp`,
 * `llama_grammar_parser`) understands: rules of alternatives of sequences of literals, character
 * classes, rule references, groups, `.`, repetitions and `<[id]>` tokens.
 *
 * Everything is plain readonly data: two grammars are equal when they are deep-equal, and
 * `parseGrammar(printGrammar(g))` deep-equals `g`.
 * @module
 */

/** A parsed grammar: its rules in definition order. The start rule is the one named `root`. */
export interface Grammar {
  readonly rules: readonly GrammarRule[];
}

/** `name ::= alt1 | alt2 | …` */
export interface GrammarRule {
  /** One or more of `[a-zA-Z0-9-]` (llama.cpp `is_word_char`). */
  readonly name: string;
  /** At least one alternative; an empty sequence matches the empty string (printed `""`). */
  readonly alternatives: readonly GrammarSequence[];
}

/** Elements matched one after the other. */
export type GrammarSequence = readonly GrammarElement[];

/** One item of a sequence. */
export type GrammarElement =
  | LiteralElement
  | CharClassElement
  | RuleRefElement
  | AnyCharElement
  | GroupElement
  | RepeatElement
  | TokenElement;

/**
 * `"text"`: the code points of `value`, in order. `value` holds Unicode scalar values only (no lone
 * surrogates). The parser never produces an empty literal: llama.cpp compiles `""` (and `[]`,
 * `[^]`) to nothing, so they leave no element; an empty `value` is allowed in grammars built by
 * hand and matches the empty string.
 */
export interface LiteralElement {
  readonly type: 'literal';
  readonly value: string;
}

/** `[a-z_]` or `[^"\\]`: one code point inside (or, negated, outside) the ranges. */
export interface CharClassElement {
  readonly type: 'class';
  readonly negated: boolean;
  /** At least one range; a single character is a range with `from === to`. */
  readonly ranges: readonly CharRange[];
}

/** An inclusive code point range. `from > to` is allowed by llama.cpp and matches nothing. */
export interface CharRange {
  readonly from: number;
  readonly to: number;
}

/** A reference to another rule by name. */
export interface RuleRefElement {
  readonly type: 'ref';
  readonly name: string;
}

/** `.`: any one code point (line terminators included, unlike a regex). */
export interface AnyCharElement {
  readonly type: 'any';
}

/** `( alt1 | alt2 )` */
export interface GroupElement {
  readonly type: 'group';
  readonly alternatives: readonly GrammarSequence[];
}

/**
 * `item*` (`min` 0, `max` null), `item+` (1, null), `item?` (0, 1), `item{m}`, `item{m,}`,
 * `item{m,n}`. llama.cpp limits both bounds to {@link MAX_REPETITION}: a larger `min` is an error
 * and a larger `max` silently means "no upper bound", so the parser stores `max: null` for it.
 */
export interface RepeatElement {
  readonly type: 'repeat';
  readonly item: GrammarElement;
  readonly min: number;
  readonly max: number | null;
}

/**
 * `<[id]>` (or `!<[id]>`, any token but `id`): a model token. Text matching never matches a token
 * (llama.cpp's character matcher drops such stacks too); `<name>` tokens need a vocabulary and are
 * refused by the parser.
 */
export interface TokenElement {
  readonly type: 'token';
  readonly id: number;
  readonly negated: boolean;
}

/** llama.cpp's `MAX_REPETITION_THRESHOLD`: the largest repetition bound it honours. */
export const MAX_REPETITION = 2000;

const RULE_NAME = /^[a-zA-Z0-9-]+$/;

/** True when `name` is a valid GBNF rule name: one or more ASCII letters, digits or `-`. */
export function isRuleName(name: string): boolean {
  return RULE_NAME.test(name);
}
