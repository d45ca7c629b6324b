/**
 * Strings other than a finite set: the grammar of every string (spelled as `JSON.stringify`
 * spells it) that is not one of the given words. Used for additional-property names (which must
 * differ from the declared ones, or a duplicate member would override a checked value) and for
 * `not: {enum: [...]}` on strings.
 * @module
 */
import { _canonChar } from './formats.js';
import type { _GrammarBuilder } from './grammar-builder.js';
import { _lit } from './json-primitives.js';

interface Node {
  end: boolean;
  kids: Map<string, Node>;
}

const SPECIAL_ESCAPES = ['\\"', '\\\\', '\\b', '\\f', '\\n', '\\r', '\\t'];
const SPECIAL_CHARS = ['"', '\\', '\b', '\f', '\n', '\r', '\t'];

function classChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/** One canonical character other than those in `except`. */
function charExcept(g: _GrammarBuilder, except: string[]): string {
  if (except.length === 0) return _canonChar(g);
  const special = except.filter((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === '"' || c === '\\');
  const plain = except.filter((c) => !special.includes(c)).sort();
  const cls = `[^"\\\\\\x00-\\x1f${plain.map(classChar).join('')}]`;
  if (special.length === 0) {
    return `${cls} | "\\\\" ["\\\\bfnrt] | "\\\\u00" ( "0" [0-7bef] | "1" [0-9a-f] )`;
  }
  const alts = [cls];
  SPECIAL_ESCAPES.forEach((esc, i) => {
    if (!special.includes(SPECIAL_CHARS[i]!)) alts.push(_lit(esc));
  });
  for (let cp = 0; cp < 0x20; cp++) {
    const ch = String.fromCodePoint(cp);
    if (SPECIAL_CHARS.includes(ch) || special.includes(ch)) continue;
    alts.push(_lit(JSON.stringify(ch).slice(1, -1)));
  }
  return alts.join(' | ');
}

/**
 * @internal GBNF for a JSON string (with quotes) whose value is not in `words`; every character
 * spelled canonically. `label` names the rules.
 */
export function _stringNotIn(g: _GrammarBuilder, words: readonly string[], label: string): string {
  const root: Node = { end: false, kids: new Map() };
  for (const w of [...new Set(words)].sort()) {
    let n = root;
    for (const ch of w) {
      let k = n.kids.get(ch);
      if (!k) {
        k = { end: false, kids: new Map() };
        n.kids.set(ch, k);
      }
      n = k;
    }
    n.end = true;
  }
  const any = g.fixed('canon-string-tail', () => `( ${_canonChar(g)} )*`);
  const build = (n: Node, depth: number): string => {
    const alts: string[] = [];
    if (!n.end) alts.push('""');
    const kids = [...n.kids.keys()].sort();
    for (const ch of kids) {
      alts.push(`${_lit(JSON.stringify(ch).slice(1, -1))} ${build(n.kids.get(ch)!, depth + 1)}`);
    }
    alts.push(`( ${charExcept(g, kids)} ) ${any}`);
    return g.rule(`${label}-k${depth}`, alts.join(' | '));
  };
  return `"\\"" ${build(root, 0)} "\\""`;
}
