/**
 * `regexToGbnf`: an ECMAScript regex (JSON Schema `pattern`, ECMA-262 with the `u` flag, per JSON
 * Schema 2020-12 §6.3.3 and §4.3) → GBNF rules for the **contents of a JSON string literal** (the
 * characters between the quotes, escaped as JSON escapes them) whose decoded value the regex
 * matches **anywhere** (`RegExp.prototype.test` semantics: unanchored).
 *
 * - Unanchored sides become "any characters": `a` → `any* "a" any*`; `^a` → `"a" any*`; `^a$` → `"a"`.
 *   `^` and `$` are honoured at the start and end of top-level alternatives (also inside a group
 *   that is the whole alternative), and refused elsewhere.
 * - `\b` / `\B` next to `^`/`$` or at the ends are lowered exactly when the characters next to them
 *   are all word characters or all non-word characters; anywhere else they are refused.
 * - Backreferences, lookahead and lookbehind are refused (`REGEX_UNSUPPORTED`, with the construct
 *   and offset). Lazy quantifiers and group kinds do not change the language.
 * - Repetitions of items that can match the empty string are rewritten so that no repeated item is
 *   nullable (llama.cpp refuses `("a"|"")*` as left recursion); bounds over 2000 (llama.cpp's limit)
 *   are factored into nested rules, exactly.
 * - Each character is accepted in the JSON forms chosen by `escapes` (see json-chars.ts).
 * @module
 */
import type { GrammarElement, GrammarRule, GrammarSequence } from '../grammar/ast.js';
import { isRuleName, MAX_REPETITION } from '../grammar/ast.js';
import { printGrammar } from '../grammar/print.js';
import { _ALL, type _CharSet, _complement, _isEmpty, _isSubset, _union, _WORD } from './charset.js';
import { GbnfRegexError } from './errors.js';
import { _jsonCharForms, type JsonEscapes } from './json-chars.js';
import { _parseRegex } from './parse-regex.js';
import type { _RegexNode } from './regex-ast.js';

/** Options of {@link regexToGbnf}. */
export interface RegexToGbnfOptions {
  /**
   * Name of the entry rule; every other rule is named `<prefix>-…`. A valid GBNF rule name
   * (letters, digits, `-`). Default `pattern`.
   */
  readonly prefix?: string;
  /** Which JSON escape forms each character may take (default `all`: every form JSON allows). */
  readonly escapes?: JsonEscapes;
  /**
   * Accept patterns that are invalid with the u flag but valid without it (real schemas write
   * `\_`, `\:` or a literal `{`): they are read with Annex B's syntax and matched over code points.
   * Default false: such a pattern throws `REGEX_SYNTAX`.
   */
  readonly lenient?: boolean;
}

/** Rules matching the JSON-escaped contents of the strings a pattern accepts. */
export interface RegexGrammar {
  /** The entry rule's name (the prefix). Use it between quotes: `"\"" pattern "\""`. */
  readonly root: string;
  /** All rules, entry first; names are the prefix or start with `<prefix>-`. */
  readonly rules: readonly GrammarRule[];
  /** The rules as GBNF text, one per line (no `root` rule; append it to a grammar that has one). */
  readonly gbnf: string;
}

const WORD = _WORD;
const NON_WORD = _complement(_WORD);
const K = 1000;

/**
 * Translates a JSON Schema `pattern` into GBNF rules for the inside of a JSON string literal.
 * Throws {@link GbnfRegexError}: `REGEX_SYNTAX` for an invalid pattern, `REGEX_UNSUPPORTED` for a
 * construct that cannot be expressed (naming it and its offset).
 * @example
 * const { root, gbnf } = regexToGbnf('^[a-z]+$', { prefix: 'name' });
 * // root === 'name'; gbnf starts with 'name ::= name-c1+'
 */
export function regexToGbnf(pattern: string, options: RegexToGbnfOptions = {}): RegexGrammar {
  const prefix = options.prefix ?? 'pattern';
  if (!isRuleName(prefix)) {
    throw new GbnfRegexError(
      'REGEX_UNSUPPORTED',
      `expected a rule-name prefix of letters, digits and "-", got ${JSON.stringify(prefix)}`,
      {
        pattern,
        construct: 'prefix',
      },
    );
  }
  return _translateRegex(pattern, prefix, options.escapes ?? 'all', options.lenient ?? false);
}

/**
 * @internal {@link regexToGbnf} with the `decoded` form too: rules over the decoded characters
 * (unescaped), for intersecting automata before spelling them.
 */
export function _translateRegex(
  pattern: string,
  prefix: string,
  escapes: JsonEscapes | 'decoded',
  lenient: boolean,
): RegexGrammar {
  const b = new Builder(pattern, prefix, escapes);
  const ast = _parseRegex(pattern, lenient);
  const alternatives: GrammarSequence[] = [];
  for (const piece of splitAnchors(ast, { start: false, end: false }, pattern)) {
    const seq = b.piece(piece);
    if (seq) alternatives.push(seq);
  }
  const rules: GrammarRule[] = [
    { name: prefix, alternatives: alternatives.length > 0 ? alternatives : [[b.never()]] },
    ...b.rules,
  ];
  // printGrammar checks the rules; a root rule makes them a grammar of their own
  const text = printGrammar({
    rules: [...rules, { name: 'root', alternatives: [[{ type: 'ref', name: prefix }]] }],
  });
  return { root: prefix, rules, gbnf: text.slice(0, text.lastIndexOf('root ::= ')) };
}

interface Piece {
  readonly start: boolean;
  readonly end: boolean;
  readonly startBoundary: { negated: boolean; offset: number } | undefined;
  readonly endBoundary: { negated: boolean; offset: number } | undefined;
  readonly core: readonly _RegexNode[];
}

/** Top-level alternatives with their anchors peeled off. */
function splitAnchors(node: _RegexNode, outer: { start: boolean; end: boolean }, pattern: string): Piece[] {
  const alternatives = node.type === 'alt' ? node.alternatives : [node];
  const out: Piece[] = [];
  for (const alt of alternatives) {
    const items = [...(alt.type === 'seq' ? alt.items : [alt])];
    let start = outer.start;
    let end = outer.end;
    let startBoundary: Piece['startBoundary'];
    let endBoundary: Piece['endBoundary'];
    for (;;) {
      const first = items[0];
      if (first?.type === 'start') start = true;
      else if (first?.type === 'boundary' && !startBoundary) startBoundary = first;
      else break;
      items.shift();
    }
    for (;;) {
      const last = items[items.length - 1];
      if (last?.type === 'end') end = true;
      else if (last?.type === 'boundary' && !endBoundary) endBoundary = last;
      else break;
      items.pop();
    }
    const only = items[0];
    if (items.length === 1 && only?.type === 'alt' && !startBoundary && !endBoundary && hasAssertion(only)) {
      out.push(...splitAnchors(only, { start, end }, pattern));
      continue;
    }
    for (const item of items) {
      const a = firstAssertion(item);
      if (a) {
        const what = a.type === 'start' ? '"^"' : a.type === 'end' ? '"$"' : a.negated ? '"\\B"' : '"\\b"';
        throw new GbnfRegexError(
          'REGEX_UNSUPPORTED',
          `pattern ${JSON.stringify(pattern)} at offset ${a.offset}: ${what} is only supported at the start or end of the pattern (or of a top-level alternative)`,
          { pattern, offset: a.offset, construct: a.type === 'boundary' ? 'word boundary' : 'anchor' },
        );
      }
    }
    out.push({ start, end, startBoundary, endBoundary, core: items });
  }
  return out;
}

type Assertion = Extract<_RegexNode, { type: 'start' | 'end' | 'boundary' }>;

function firstAssertion(n: _RegexNode): Assertion | undefined {
  switch (n.type) {
    case 'start':
    case 'end':
    case 'boundary':
      return n;
    case 'set':
      return undefined;
    case 'seq':
      for (const i of n.items) {
        const a = firstAssertion(i);
        if (a) return a;
      }
      return undefined;
    case 'alt':
      for (const i of n.alternatives) {
        const a = firstAssertion(i);
        if (a) return a;
      }
      return undefined;
    case 'repeat':
      return firstAssertion(n.item);
  }
}

const hasAssertion = (n: _RegexNode) => firstAssertion(n) !== undefined;

function nullable(n: _RegexNode): boolean {
  switch (n.type) {
    case 'set':
      return false;
    case 'seq':
      return n.items.every(nullable);
    case 'alt':
      return n.alternatives.some(nullable);
    case 'repeat':
      return n.min === 0 || n.max === 0 || nullable(n.item);
    default:
      return true;
  }
}

/** Characters that can start (`last` false) or end (`last` true) a non-empty match. */
function edgeChars(n: _RegexNode, last: boolean): _CharSet {
  switch (n.type) {
    case 'set':
      return n.set;
    case 'seq': {
      const items = last ? [...n.items].reverse() : n.items;
      const parts: _CharSet[] = [];
      for (const i of items) {
        parts.push(edgeChars(i, last));
        if (!nullable(i)) break;
      }
      return _union(...parts);
    }
    case 'alt':
      return _union(...n.alternatives.map((a) => edgeChars(a, last)));
    case 'repeat':
      return n.max === 0 ? [] : edgeChars(n.item, last);
    default:
      return [];
  }
}

/** A node for L(n) minus the empty string, or undefined when that is empty. */
function nonEmpty(n: _RegexNode): _RegexNode | undefined {
  switch (n.type) {
    case 'set':
      return n;
    case 'alt': {
      const alternatives = n.alternatives.map(nonEmpty).filter((a): a is _RegexNode => a !== undefined);
      if (alternatives.length === 0) return undefined;
      return alternatives.length === 1 ? alternatives[0] : { type: 'alt', alternatives, offset: n.offset };
    }
    case 'seq': {
      const [head, ...rest] = n.items;
      if (!head) return undefined;
      if (rest.length === 0) return nonEmpty(head);
      const tail: _RegexNode =
        rest.length === 1 ? (rest[0] as _RegexNode) : { type: 'seq', items: rest, offset: n.offset };
      const options: _RegexNode[] = [];
      const h = nonEmpty(head);
      if (h) options.push({ type: 'seq', items: [h, tail], offset: n.offset });
      if (nullable(head)) {
        const t = nonEmpty(tail);
        if (t) options.push(t);
      }
      if (options.length === 0) return undefined;
      return options.length === 1 ? options[0] : { type: 'alt', alternatives: options, offset: n.offset };
    }
    case 'repeat': {
      if (n.max === 0) return undefined;
      if (nullable(n.item)) {
        const item = nonEmpty(n.item);
        return item ? { type: 'repeat', item, min: 1, max: n.max, offset: n.offset } : undefined;
      }
      return n.min === 0 ? { ...n, min: 1 } : n;
    }
    default:
      return undefined;
  }
}

class Builder {
  readonly rules: GrammarRule[] = [];
  private readonly charRules = new Map<string, string>();
  private count = 0;
  private anyRule: string | undefined;
  private neverRule: string | undefined;

  constructor(
    private readonly pattern: string,
    private readonly prefix: string,
    private readonly escapes: JsonEscapes | 'decoded',
  ) {}

  /** The sequence for one top-level alternative, or undefined when it can match nothing. */
  piece(p: Piece): GrammarSequence | undefined {
    const core: _RegexNode = { type: 'seq', items: p.core, offset: 0 };
    const body = this.node(core);
    if (!body) return undefined;
    const before = this.side(p.start, p.startBoundary, core, false);
    const after = this.side(p.end, p.endBoundary, core, true);
    if (!before || !after) return undefined;
    return [...before, ...body, ...after];
  }

  /** What may come before (or after) the core: nothing, any characters, or a boundary condition. */
  private side(
    anchored: boolean,
    boundary: { negated: boolean; offset: number } | undefined,
    core: _RegexNode,
    last: boolean,
  ): GrammarSequence | undefined {
    if (!boundary) return anchored ? [] : [this.anyStar()];
    const edge = edgeChars(core, last);
    const name = boundary.negated ? '"\\B"' : '"\\b"';
    if (nullable(core) || _isEmpty(edge) || (!_isSubset(edge, WORD) && !_isSubset(edge, NON_WORD))) {
      throw new GbnfRegexError(
        'REGEX_UNSUPPORTED',
        `pattern ${JSON.stringify(this.pattern)} at offset ${boundary.offset}: ${name} is supported only next to characters that are all word characters or all non-word characters`,
        { pattern: this.pattern, offset: boundary.offset, construct: 'word boundary' },
      );
    }
    // the boundary holds when the neighbour outside is of the other kind (or the string ends there)
    const insideIsWord = _isSubset(edge, WORD);
    const needOther = insideIsWord !== boundary.negated; // \b next to word: outside is non-word or edge
    const outside = needOther ? NON_WORD : WORD;
    const neighbour = this.charRef(outside);
    const seq = last ? [neighbour, this.anyStar()] : [this.anyStar(), neighbour];
    // "the string ends here" satisfies the condition when the outside must be non-word
    if (anchored) return needOther ? [] : undefined;
    return needOther ? [{ type: 'group', alternatives: [[], seq] }] : seq;
  }

  /** Elements for a regex node, or undefined when it matches nothing. */
  private node(n: _RegexNode): GrammarElement[] | undefined {
    switch (n.type) {
      case 'set':
        return _isEmpty(n.set) ? undefined : [this.charRef(n.set)];
      case 'seq': {
        const out: GrammarElement[] = [];
        for (const i of n.items) {
          const e = this.node(i);
          if (!e) return undefined;
          out.push(...e);
        }
        return mergeLiterals(out);
      }
      case 'alt': {
        const alternatives: GrammarSequence[] = [];
        for (const a of n.alternatives) {
          const e = this.node(a);
          if (e) alternatives.push(e);
        }
        if (alternatives.length === 0) return undefined;
        if (alternatives.length === 1) return [...(alternatives[0] ?? [])];
        return [{ type: 'group', alternatives }];
      }
      case 'repeat': {
        if (n.max === 0) return [];
        let item: _RegexNode | undefined = n.item;
        let min = n.min;
        if (nullable(item)) {
          item = nonEmpty(item);
          min = 0;
          if (!item) return [];
        }
        const els = this.node(item);
        if (!els) return min === 0 ? [] : undefined;
        return this.repeat(this.single(els), min, n.max);
      }
      default:
        return [];
    }
  }

  /** One repeatable element for a sequence: itself when it is one ref/class/literal, else a rule. */
  private single(els: GrammarElement[]): GrammarElement {
    const only = els[0];
    if (
      els.length === 1 &&
      only &&
      (only.type === 'ref' || only.type === 'class' || only.type === 'literal')
    ) {
      return only;
    }
    return this.rule([els]);
  }

  /** `item{min,max}` within llama.cpp's bound of 2000, factoring larger bounds exactly. */
  private repeat(item: GrammarElement, min: number, max: number | null): GrammarElement[] {
    if (max === null) {
      if (min <= MAX_REPETITION) return [rep(item, min, null)];
      return [...this.exactly(item, min), rep(item, 0, null)];
    }
    if (max <= MAX_REPETITION) return min === 1 && max === 1 ? [item] : [rep(item, min, max)];
    return [...this.exactly(item, min), ...this.upTo(item, max - min)];
  }

  private exactly(item: GrammarElement, count: number): GrammarElement[] {
    if (count === 0) return [];
    if (count === 1) return [item];
    if (count <= MAX_REPETITION) return [rep(item, count, count)];
    const block = this.rule([[rep(item, K, K)]]);
    return [...this.exactly(block, Math.floor(count / K)), ...this.exactly(item, count % K)];
  }

  private upTo(item: GrammarElement, count: number): GrammarElement[] {
    if (count === 0) return [];
    if (count <= MAX_REPETITION) return [rep(item, 0, count)];
    // 0..count = (0..q-1 blocks of K, then 0..K-1) | (q blocks, then 0..r): every count once
    const q = Math.floor(count / K);
    const r = count % K;
    const block = this.rule([[rep(item, K, K)]]);
    const partial = this.rule([[rep(item, 0, K - 1)]]);
    return [
      {
        type: 'group',
        alternatives: [
          [...this.upTo(block, q - 1), partial],
          [...this.exactly(block, q), ...this.upTo(item, r)],
        ],
      },
    ];
  }

  /** A reference to (or, for a lone raw character, the literal of) one character of `set`. */
  private charRef(set: _CharSet): GrammarElement {
    const forms = _jsonCharForms(set, this.escapes);
    const only = forms[0];
    if (forms.length === 1 && only?.length === 1 && only[0]) return only[0];
    if (forms.length === 0) return this.never();
    const key = JSON.stringify(set);
    let name = this.charRules.get(key);
    if (!name) {
      name = `${this.prefix}-c${this.charRules.size + 1}`;
      this.charRules.set(key, name);
      this.rules.push({ name, alternatives: forms });
    }
    return { type: 'ref', name };
  }

  /** `<prefix>-any*`: any characters. */
  private anyStar(): GrammarElement {
    if (!this.anyRule) {
      this.anyRule = `${this.prefix}-any`;
      this.rules.push({ name: this.anyRule, alternatives: _jsonCharForms(_ALL, this.escapes) });
    }
    return rep({ type: 'ref', name: this.anyRule }, 0, null);
  }

  /** A rule that matches nothing: a code point above U+10FFFF never occurs in text. */
  never(): GrammarElement {
    if (!this.neverRule) {
      this.neverRule = `${this.prefix}-never`;
      this.rules.push({
        name: this.neverRule,
        alternatives: [[{ type: 'class', negated: false, ranges: [{ from: 0x110000, to: 0x110000 }] }]],
      });
    }
    return { type: 'ref', name: this.neverRule };
  }

  private rule(alternatives: GrammarSequence[]): GrammarElement {
    const name = `${this.prefix}-r${++this.count}`;
    this.rules.push({ name, alternatives });
    return { type: 'ref', name };
  }
}

function rep(item: GrammarElement, min: number, max: number | null): GrammarElement {
  return { type: 'repeat', item, min, max };
}

/** Joins adjacent literals ("a" "b" → "ab"). */
function mergeLiterals(els: GrammarElement[]): GrammarElement[] {
  const out: GrammarElement[] = [];
  for (const e of els) {
    const prev = out[out.length - 1];
    if (e.type === 'literal' && prev?.type === 'literal')
      out[out.length - 1] = { type: 'literal', value: prev.value + e.value };
    else out.push(e);
  }
  return out;
}
