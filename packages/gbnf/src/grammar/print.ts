/**
 * `printGrammar`: {@link Grammar} → GBNF text that llama.cpp parses back to the same grammar.
 * Deterministic: one rule per line in the grammar's order, alternatives separated by ` | `,
 * elements by one space, an empty alternative written `""`.
 *
 * Characters are written raw when printable; `\\` `"` (in literals), `\\` `]` `[` and `-` (in
 * classes, `-` as `\x2D`, a leading `^` as `\x5E`) and control, line-separator and surrogate code
 * points are escaped (`\t \n \r`, then `\xHH`, `\uHHHH`, `\UHHHHHHHH`). Only escapes every
 * llama.cpp version understands are used.
 * @module
 */
import type { CharRange, Grammar, GrammarElement, GrammarSequence } from './ast.js';
import { _checkGrammar } from './validate.js';

/**
 * Prints a grammar as GBNF text. Throws {@link GbnfGrammarError} (`GRAMMAR_INVALID`) for a grammar
 * llama.cpp would refuse or read differently (undefined rules, no root, left recursion, bounds over
 * 2000, repeating an item that produces nothing). It does not count llama.cpp's per-item budget of
 * 2000 generated rules; `parseGrammar(printGrammar(g))` does.
 * @example
 * printGrammar({ rules: [{ name: 'root', alternatives: [[{ type: 'literal', value: 'hi' }]] }] });
 * // 'root ::= "hi"\n'
 */
export function printGrammar(grammar: Grammar): string {
  _checkGrammar(grammar);
  let out = '';
  for (const rule of grammar.rules) out += `${rule.name} ::= ${printAlternatives(rule.alternatives)}\n`;
  return out;
}

function printAlternatives(alternatives: readonly GrammarSequence[]): string {
  return alternatives.map(printSequence).join(' | ');
}

function printSequence(seq: GrammarSequence): string {
  // an empty alternative is written "": written as nothing, a trailing one would let llama.cpp's
  // parser skip the newline after `|` (or `::=`) and read the next rule's name into this rule
  return seq.length === 0 ? '""' : seq.map(printElement).join(' ');
}

function printElement(el: GrammarElement): string {
  switch (el.type) {
    case 'literal': {
      let s = '"';
      for (const ch of el.value) s += escapeChar(ch.codePointAt(0) ?? 0, false);
      return `${s}"`;
    }
    case 'class':
      return printClass(el.negated, el.ranges);
    case 'ref':
      return el.name;
    case 'any':
      return '.';
    case 'token':
      return `${el.negated ? '!' : ''}<[${el.id}]>`;
    case 'group':
      return `(${printAlternatives(el.alternatives)})`;
    case 'repeat': {
      const item = printElement(el.item);
      const { min, max } = el;
      if (min === 0 && max === null) return `${item}*`;
      if (min === 1 && max === null) return `${item}+`;
      if (min === 0 && max === 1) return `${item}?`;
      if (max === null) return `${item}{${min},}`;
      if (max === min) return `${item}{${min}}`;
      return `${item}{${min},${max}}`;
    }
  }
}

function printClass(negated: boolean, ranges: readonly CharRange[]): string {
  let s = negated ? '[^' : '[';
  ranges.forEach(({ from, to }, i) => {
    s += i === 0 && !negated && from === 0x5e ? '\\x5E' : escapeChar(from, true);
    if (to !== from) s += `-${escapeChar(to, true)}`;
  });
  return `${s}]`;
}

function escapeChar(cp: number, inClass: boolean): string {
  switch (cp) {
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x5c:
      return '\\\\';
  }
  if (inClass) {
    if (cp === 0x5d) return '\\]';
    if (cp === 0x5b) return '\\[';
    if (cp === 0x2d) return '\\x2D';
  } else if (cp === 0x22) return '\\"';
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`;
  if (cp === 0x2028 || cp === 0x2029 || cp === 0xfeff || (cp >= 0xd800 && cp <= 0xdfff)) {
    return `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  if (cp > 0x10ffff) return `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`;
  return String.fromCodePoint(cp);
}
