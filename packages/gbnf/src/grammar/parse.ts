/**
 * `parseGrammar`: GBNF text → {@link Grammar}, accepting exactly what llama.cpp's parser accepts
 * (`llama_grammar_parser::parse` and `llama_grammar_init_impl` in `src/llama-grammar.cpp`), with
 * errors that say where and what was expected.
 *
 * The llama.cpp rules this follows, beyond the obvious:
 * - rule names are `[a-zA-Z0-9-]+`; a rule ends at a newline, except inside `( … )` and after
 *   `::=` or `|`; `#` starts a comment up to the end of the line;
 * - escapes are `\x` + 2, `\u` + 4, `\U` + 8 hex digits and `\t \r \n \\ \" \[ \] \-`, nothing else;
 * - in a class, `a-b` is a range unless the `-` is followed by `]`; `[]` and `[^]` match the empty
 *   string, like `""`;
 * - `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` (spaces allowed inside the braces) apply to the item just
 *   before them (a whole literal string, a class, a rule, a group, or the previous repetition); an
 *   item that produces nothing (`""`, `x{0}`) cannot be repeated;
 * - a bound over 2000 is an error for `m` and means "unbounded" for `n`, and each item may repeat
 *   at most 2000 generated rules (`MAX_REPETITION_THRESHOLD`, counted as llama.cpp counts them);
 * - a rule defined twice keeps its last definition; every referenced rule must be defined;
 *   `root` must exist; left recursion through rules with an empty alternative is refused.
 *
 * Where llama.cpp would misbehave rather than refuse, this parser refuses with a clear error:
 * `{m,n}` with `n < m` (llama.cpp loops forever), left recursion its check misses that would make
 * its matcher loop forever (see `validate.ts`), `<name>` tokens (they need a model
 * vocabulary), token ids over 2^32−1, a NUL character (llama.cpp stops reading there), lone
 * surrogates, and literal code points that are not Unicode scalar values (they can never match).
 * @module
 */
import type { CharRange, Grammar, GrammarElement, GrammarRule, GrammarSequence } from './ast.js';
import { MAX_REPETITION } from './ast.js';
import { _locate, GbnfGrammarError } from './errors.js';
import { _checkGrammar, _collectRefs } from './validate.js';

const UINT64_MAX = (1n << 64n) - 1n;

/**
 * Parses GBNF text. Throws {@link GbnfGrammarError} (`GRAMMAR_SYNTAX` or `GRAMMAR_INVALID`, with
 * line and column) for anything llama.cpp would refuse.
 * @example
 * const g = parseGrammar('root ::= "yes" | "no"');
 * g.rules[0]?.alternatives.length; // 2
 */
export function parseGrammar(text: string): Grammar {
  if (typeof text !== 'string') {
    throw new GbnfGrammarError('GRAMMAR_SYNTAX', `expected GBNF text, got ${typeof text}`);
  }
  return new Parser(text).parse();
}

/** What llama.cpp's `parse_sequence` tracks while it reads one sequence. */
interface SequenceState {
  readonly seq: GrammarElement[];
  /** Whether the last item produced something to repeat (llama.cpp: `last_sym_start != rule.size()`). */
  produced: boolean;
  /** How many rules the last item generated, repeated together by an operator (`n_prev_rules`). */
  prevRules: number;
}

class Parser {
  private pos = 0;
  private readonly symbols = new Map<string, number>();
  private symbolCount = 0;
  private readonly rules = new Map<string, GrammarSequence[]>();
  private readonly definedAt = new Map<string, number>();
  private readonly firstRefAt = new Map<string, number>();
  /** Highest symbol id that got a rule (llama.cpp's `rules.size() - 1`). */
  private maxDefinedId = -1;

  constructor(private readonly text: string) {}

  parse(): Grammar {
    this.space(true);
    while (this.pos < this.text.length) this.parseRule();
    if (this.rules.size === 0) {
      this.fail('GRAMMAR_SYNTAX', 'expected at least one rule, got an empty grammar', 'a rule');
    }
    // llama.cpp checks the refs of the surviving rules, and that no symbol id below `rules.size()`
    // lacks a rule (which also catches refs inside a rule body later replaced by a redefinition)
    const live = new Set<string>();
    for (const alternatives of this.rules.values()) _collectRefs(alternatives, live);
    for (const [name, at] of this.firstRefAt) {
      const id = this.symbols.get(name) ?? 0;
      if (!this.rules.has(name) && (live.has(name) || id <= this.maxDefinedId)) {
        throw new GbnfGrammarError('GRAMMAR_INVALID', `undefined rule "${name}"`, {
          location: _locate(this.text, at),
          expected: `a definition of "${name}"`,
        });
      }
    }
    const rules: GrammarRule[] = [];
    for (const [name, alternatives] of this.rules) rules.push({ name, alternatives });
    const grammar: Grammar = { rules };
    _checkGrammar(grammar, (name) => {
      const at = this.definedAt.get(name);
      return at === undefined ? undefined : _locate(this.text, at);
    });
    return grammar;
  }

  // parse_rule
  private parseRule(): void {
    const start = this.pos;
    const name = this.parseName('a rule name');
    this.symbol(name);
    this.space(false);
    if (!this.text.startsWith('::=', this.pos)) {
      this.fail('GRAMMAR_SYNTAX', `expected "::=" after rule name "${name}", got ${this.found()}`, '::=');
    }
    this.pos += 3;
    this.space(true);
    const alternatives = this.parseAlternates(false);
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x0d) this.pos += this.text.charCodeAt(this.pos + 1) === 0x0a ? 2 : 1;
    else if (c === 0x0a) this.pos++;
    else if (this.pos < this.text.length) {
      this.fail(
        'GRAMMAR_SYNTAX',
        `expected the end of the line after rule "${name}", got ${this.found()}`,
        'a newline',
      );
    }
    this.space(true);
    if (!this.rules.has(name)) this.definedAt.set(name, start);
    this.maxDefinedId = Math.max(this.maxDefinedId, this.symbols.get(name) ?? 0);
    this.rules.set(name, alternatives);
  }

  // parse_alternates
  private parseAlternates(nested: boolean): GrammarSequence[] {
    const alternatives = [this.parseSequence(nested)];
    while (this.text.charCodeAt(this.pos) === 0x7c /* | */) {
      this.pos++;
      this.space(true);
      alternatives.push(this.parseSequence(nested));
    }
    return alternatives;
  }

  // parse_sequence
  private parseSequence(nested: boolean): GrammarSequence {
    const state: SequenceState = { seq: [], produced: false, prevRules: 1 };
    let more = true;
    while (more) more = this.parseItem(state, nested);
    return state.seq;
  }

  /** Reads one item or repetition operator into `state`; false at the end of the sequence. */
  private parseItem(state: SequenceState, nested: boolean): boolean {
    const at = this.pos;
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x22 /* " */) this.addItem(state, this.parseLiteral(at, nested));
    else if (c === 0x5b /* [ */) this.addItem(state, this.parseClass(at, nested));
    else if (c === 0x3c /* < */ || c === 0x21 /* ! */) this.addItem(state, this.parseToken(c, nested));
    else if (isWordChar(c)) this.addItem(state, this.parseRef(at, nested));
    else if (c === 0x28 /* ( */) this.parseGroup(state, at, nested);
    else if (c === 0x2e /* . */) {
      this.pos++;
      this.space(nested);
      this.addItem(state, { type: 'any' });
    } else if (c === 0x2a /* * */ || c === 0x2b /* + */ || c === 0x3f /* ? */) {
      this.pos++;
      this.space(nested);
      const op = String.fromCharCode(c);
      if (c === 0x2a) this.repeatLast(state, 0, null, at, op);
      else if (c === 0x2b) this.repeatLast(state, 1, null, at, op);
      else this.repeatLast(state, 0, 1, at, op);
    } else if (c === 0x7b /* { */) {
      const { min, max, op } = this.parseBraces(at, nested);
      this.repeatLast(state, min, max, at, op);
    } else return false;
    return true;
  }

  /**
   * Appends a single-rule item; `undefined` is an item that produces nothing (`""`, `[]`), which
   * llama.cpp emits nothing for and which cannot be repeated.
   */
  private addItem(state: SequenceState, el: GrammarElement | undefined): void {
    if (el !== undefined) state.seq.push(el);
    state.produced = el !== undefined;
    state.prevRules = 1;
  }

  /** `"…"` at `at`; `undefined` for `""`. */
  private parseLiteral(at: number, nested: boolean): GrammarElement | undefined {
    this.pos++;
    let value = '';
    while (this.text.charCodeAt(this.pos) !== 0x22) {
      if (this.pos >= this.text.length) {
        this.fail('GRAMMAR_SYNTAX', 'unterminated string literal', '"', at);
      }
      const charAt = this.pos;
      const cp = this.parseChar();
      if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
        this.fail(
          'GRAMMAR_SYNTAX',
          `U+${hex(cp)} in a string literal is not a Unicode scalar value and can never match; use a character class`,
          'a Unicode scalar value',
          charAt,
        );
      }
      value += String.fromCodePoint(cp);
    }
    this.pos++;
    this.space(nested);
    // llama.cpp emits nothing for "": the parsed sequence has no element for it either
    return value.length > 0 ? { type: 'literal', value } : undefined;
  }

  /** `[…]` or `[^…]` at `at`; `undefined` for `[]` and `[^]`. */
  private parseClass(at: number, nested: boolean): GrammarElement | undefined {
    this.pos++;
    let negated = false;
    if (this.text.charCodeAt(this.pos) === 0x5e /* ^ */) {
      negated = true;
      this.pos++;
    }
    const ranges: CharRange[] = [];
    while (this.text.charCodeAt(this.pos) !== 0x5d /* ] */) {
      if (this.pos >= this.text.length) {
        this.fail('GRAMMAR_SYNTAX', 'unterminated character class', ']', at);
      }
      const from = this.parseChar();
      let to = from;
      if (this.text.charCodeAt(this.pos) === 0x2d && this.text.charCodeAt(this.pos + 1) !== 0x5d) {
        if (this.pos + 1 >= this.text.length) {
          this.fail('GRAMMAR_SYNTAX', 'unterminated character class', ']', at);
        }
        this.pos++;
        to = this.parseChar();
      }
      ranges.push({ from, to });
    }
    this.pos++;
    this.space(nested);
    return ranges.length > 0 ? { type: 'class', negated, ranges } : undefined;
  }

  /** `<[id]>` or `!<[id]>` (`c` is its first character); token names are refused. */
  private parseToken(c: number, nested: boolean): GrammarElement {
    const negated = c === 0x21;
    if (negated) this.pos++;
    if (this.text.charCodeAt(this.pos) !== 0x3c) {
      this.fail('GRAMMAR_SYNTAX', `expected "<" after "!", got ${this.found()}`, '<');
    }
    this.pos++;
    if (this.text.charCodeAt(this.pos) !== 0x5b /* [ */) {
      this.fail(
        'GRAMMAR_SYNTAX',
        'token names such as <name> need a model vocabulary; only <[id]> tokens can be parsed',
        '[',
      );
    }
    this.pos++;
    const digits = this.parseDigits();
    const id = Number(digits);
    if (digits.length > 10 || id > 0xffffffff) {
      this.fail('GRAMMAR_SYNTAX', `token id ${digits} is over 2^32-1`, 'a 32-bit token id');
    }
    this.expectChar(0x5d, ']');
    this.expectChar(0x3e, '>');
    this.space(nested);
    return { type: 'token', id, negated };
  }

  /** A rule name used at `at`; its first use is kept for the "undefined rule" error. */
  private parseRef(at: number, nested: boolean): GrammarElement {
    const name = this.parseName('a rule name');
    this.symbol(name);
    if (!this.firstRefAt.has(name)) this.firstRefAt.set(name, at);
    this.space(nested);
    return { type: 'ref', name };
  }

  /** `( … )` at `at`: one generated rule, plus the rules generated inside it. */
  private parseGroup(state: SequenceState, at: number, nested: boolean): void {
    this.pos++;
    this.space(true);
    const before = this.symbolCount;
    this.maxDefinedId = Math.max(this.maxDefinedId, this.symbolCount);
    this.symbolCount++;
    const alternatives = this.parseAlternates(true);
    state.prevRules = Math.max(1, this.symbolCount - before);
    if (this.text.charCodeAt(this.pos) !== 0x29 /* ) */) {
      this.fail(
        'GRAMMAR_SYNTAX',
        `expected ")" to close the group at ${this.where(at)}, got ${this.found()}`,
        ')',
      );
    }
    this.pos++;
    this.space(nested);
    state.seq.push({ type: 'group', alternatives });
    state.produced = true;
  }

  /**
   * `{m}`, `{m,}` or `{m,n}` at `at`, with the bounds checked as llama.cpp checks them (a maximum
   * over its limit means unbounded); `op` is the operator as written, for messages.
   */
  private parseBraces(at: number, nested: boolean): { min: number; max: number | null; op: string } {
    this.pos++;
    this.space(nested);
    if (!isDigit(this.text.charCodeAt(this.pos))) {
      this.fail('GRAMMAR_SYNTAX', `expected an integer after "{", got ${this.found()}`, 'an integer');
    }
    const min = this.parseBound();
    this.space(nested);
    let max = this.parseBracesMax(nested, min);
    const op = this.text.slice(at, this.pos).trimEnd();
    if (min > MAX_REPETITION) {
      this.fail(
        'GRAMMAR_SYNTAX',
        `repetition minimum ${min} is over llama.cpp's limit of ${MAX_REPETITION}`,
        `at most ${MAX_REPETITION}`,
        at,
      );
    }
    if (max !== null && max > MAX_REPETITION) max = null;
    if (max !== null && max < min) {
      this.fail(
        'GRAMMAR_SYNTAX',
        `repetition ${op} has its maximum below its minimum (llama.cpp would loop forever)`,
        `a maximum of at least ${min}`,
        at,
      );
    }
    return { min, max, op };
  }

  /** The rest of `{m…}` after the minimum, up to and past the `}`: the maximum, null for none. */
  private parseBracesMax(nested: boolean, min: number): number | null {
    let max: number | null = null;
    if (this.text.charCodeAt(this.pos) === 0x7d /* } */) {
      max = min;
      this.pos++;
      this.space(nested);
    } else if (this.text.charCodeAt(this.pos) === 0x2c /* , */) {
      this.pos++;
      this.space(nested);
      if (isDigit(this.text.charCodeAt(this.pos))) {
        max = this.parseBound();
        this.space(nested);
      }
      if (this.text.charCodeAt(this.pos) !== 0x7d) {
        this.fail('GRAMMAR_SYNTAX', `expected "}" to close the repetition, got ${this.found()}`, '}');
      }
      this.pos++;
      this.space(nested);
    } else {
      this.fail('GRAMMAR_SYNTAX', `expected "," or "}" in the repetition, got ${this.found()}`, ', or }');
    }
    return max;
  }

  /**
   * Wraps the last item of the sequence in a repetition, counting the rules llama.cpp generates
   * for it (each item may repeat at most {@link MAX_REPETITION} of them).
   */
  private repeatLast(state: SequenceState, min: number, max: number | null, at: number, op: string): void {
    const { seq } = state;
    const last = seq[seq.length - 1];
    if (!state.produced || last === undefined) {
      this.fail('GRAMMAR_SYNTAX', `expected an item before "${op}"`, 'an item to repeat', at);
    }
    const total = max !== null && max > 0 ? max : min > 0 ? min : 1;
    if (state.prevRules * total > MAX_REPETITION) {
      this.fail(
        'GRAMMAR_SYNTAX',
        `"${op}" repeats ${state.prevRules} generated rule(s) ${total} times; llama.cpp allows at most ${MAX_REPETITION}`,
        `at most ${MAX_REPETITION} repeated rules`,
        at,
      );
    }
    const generated = max === null ? 1 : max - min;
    if (generated > 0) this.maxDefinedId = Math.max(this.maxDefinedId, this.symbolCount + generated - 1);
    this.symbolCount += generated;
    state.prevRules *= total;
    seq[seq.length - 1] = { type: 'repeat', item: last, min, max };
    state.produced = max !== 0;
  }

  // parse_char
  private parseChar(): number {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 0x5c /* \ */) {
      const e = t.charCodeAt(this.pos + 1);
      switch (e) {
        case 0x78 /* x */:
          return this.parseHex(2);
        case 0x75 /* u */:
          return this.parseHex(4);
        case 0x55 /* U */:
          return this.parseHex(8);
        case 0x74 /* t */:
          this.pos += 2;
          return 0x09;
        case 0x72 /* r */:
          this.pos += 2;
          return 0x0d;
        case 0x6e /* n */:
          this.pos += 2;
          return 0x0a;
        case 0x5c:
        case 0x22:
        case 0x5b:
        case 0x5d:
        case 0x2d:
          this.pos += 2;
          return e;
        default:
          this.fail(
            'GRAMMAR_SYNTAX',
            `unknown escape ${this.pos + 1 < t.length ? JSON.stringify(`\\${String.fromCodePoint(t.codePointAt(this.pos + 1) ?? 0)}`) : '"\\" at the end'}`,
            'one of \\x \\u \\U \\t \\r \\n \\\\ \\" \\[ \\] \\-',
          );
      }
    }
    if (this.pos >= t.length) this.fail('GRAMMAR_SYNTAX', 'unexpected end of input', 'a character');
    if (c === 0) {
      this.fail(
        'GRAMMAR_SYNTAX',
        'NUL character in grammar text (llama.cpp stops reading there); write \\x00',
        'not NUL',
      );
    }
    const cp = t.codePointAt(this.pos) ?? 0;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      this.fail('GRAMMAR_SYNTAX', `lone surrogate U+${hex(cp)} in grammar text`, 'well-formed Unicode text');
    }
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private parseHex(size: number): number {
    const start = this.pos;
    this.pos += 2;
    let value = 0;
    for (let i = 0; i < size; i++) {
      const d = hexDigit(this.text.charCodeAt(this.pos));
      if (d < 0) {
        this.fail(
          'GRAMMAR_SYNTAX',
          `expected ${size} hex digits after "${this.text.slice(start, start + 2)}", got ${this.found()}`,
          `${size} hex digits`,
        );
      }
      value = value * 16 + d;
      this.pos++;
    }
    return value;
  }

  private parseName(what: string): string {
    const start = this.pos;
    while (isWordChar(this.text.charCodeAt(this.pos))) this.pos++;
    if (this.pos === start) {
      this.fail('GRAMMAR_SYNTAX', `expected ${what} (letters, digits, "-"), got ${this.found()}`, what);
    }
    return this.text.slice(start, this.pos);
  }

  private parseDigits(): string {
    const start = this.pos;
    while (isDigit(this.text.charCodeAt(this.pos))) this.pos++;
    if (this.pos === start)
      this.fail('GRAMMAR_SYNTAX', `expected an integer, got ${this.found()}`, 'an integer');
    return this.text.slice(start, this.pos);
  }

  /** A repetition bound; llama.cpp's `std::stoull` fails above 2^64 − 1. */
  private parseBound(): number {
    const at = this.pos;
    const digits = this.parseDigits();
    if (digits.length > 20 && BigInt(digits) > UINT64_MAX) {
      this.fail('GRAMMAR_SYNTAX', `repetition bound ${digits} is out of range`, 'an integer below 2^64', at);
    }
    if (digits.length === 20 && BigInt(digits) > UINT64_MAX) {
      this.fail('GRAMMAR_SYNTAX', `repetition bound ${digits} is out of range`, 'an integer below 2^64', at);
    }
    return Number(digits);
  }

  private expectChar(code: number, what: string): void {
    if (this.text.charCodeAt(this.pos) !== code) {
      this.fail('GRAMMAR_SYNTAX', `expected "${what}", got ${this.found()}`, what);
    }
    this.pos++;
  }

  // parse_space
  private space(newlineOk: boolean): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09) this.pos++;
      else if (newlineOk && (c === 0x0a || c === 0x0d)) this.pos++;
      else if (c === 0x23 /* # */) {
        while (this.pos < t.length) {
          const d = t.charCodeAt(this.pos);
          if (d === 0x0a || d === 0x0d) break;
          this.pos++;
        }
      } else return;
    }
  }

  // get_symbol_id: names get symbol ids in order of first appearance
  private symbol(name: string): void {
    if (!this.symbols.has(name)) this.symbols.set(name, this.symbolCount++);
  }

  private found(): string {
    if (this.pos >= this.text.length) return 'the end of the grammar';
    const cp = this.text.codePointAt(this.pos) ?? 0;
    if (cp === 0x0a || cp === 0x0d) return 'a line break';
    return JSON.stringify(String.fromCodePoint(cp));
  }

  private where(offset: number): string {
    const l = _locate(this.text, offset);
    return `${l.line}:${l.column}`;
  }

  private fail(
    code: 'GRAMMAR_SYNTAX' | 'GRAMMAR_INVALID',
    message: string,
    expected: string,
    at: number = this.pos,
  ): never {
    throw new GbnfGrammarError(code, message, { location: _locate(this.text, at), expected });
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || isDigit(c);
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

function hex(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, '0');
}
