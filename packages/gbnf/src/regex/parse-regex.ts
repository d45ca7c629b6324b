/**
 * Parses an ECMAScript regular expression in `u` mode (ECMA-262 §22.2.1, the `[UnicodeMode]`
 * grammar) into {@link _RegexNode}s. Syntax is first checked by the JavaScript engine itself
 * (`new RegExp(pattern, 'u')`), so this parser only has to read valid patterns; it refuses, with
 * the construct and its offset, what a grammar cannot express: backreferences, lookahead and
 * lookbehind, and pattern modifiers.
 * @module
 */
import {
  type _CharSet,
  _complement,
  _DIGIT,
  _LINE_TERMINATORS,
  _property,
  _SPACE,
  _union,
  _WORD,
} from './charset.js';
import { GbnfRegexError } from './errors.js';
import type { _RegexNode } from './regex-ast.js';

const DOT = _complement(_LINE_TERMINATORS);

/**
 * Parses `pattern` (u mode). With `lenient`, a pattern that is invalid with the u flag but valid
 * without it is read with Annex B's syntax (identity escapes such as `\_` or `\:`, literal `{`,
 * `}` and `]`), then interpreted over code points like the rest. Throws {@link GbnfRegexError}.
 */
export function _parseRegex(pattern: string, lenient = false): _RegexNode {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    let annexB = false;
    if (lenient) {
      try {
        new RegExp(pattern);
        annexB = true;
      } catch {
        // invalid either way
      }
    }
    if (!annexB) {
      throw new GbnfRegexError(
        'REGEX_SYNTAX',
        `pattern ${JSON.stringify(pattern)} is not a valid ECMAScript regex with the u flag: ${(error as Error).message}`,
        { pattern, cause: error },
      );
    }
    return new RegexParser(pattern, true).parse();
  }
  return new RegexParser(pattern, false).parse();
}

class RegexParser {
  private pos = 0;
  constructor(
    private readonly src: string,
    private readonly annexB: boolean,
  ) {}

  parse(): _RegexNode {
    const node = this.disjunction();
    if (this.pos < this.src.length) this.unsupported('unexpected character', this.pos);
    return node;
  }

  private disjunction(): _RegexNode {
    const offset = this.pos;
    const alternatives = [this.alternative()];
    while (this.peek() === '|') {
      this.pos++;
      alternatives.push(this.alternative());
    }
    return alternatives.length === 1
      ? (alternatives[0] as _RegexNode)
      : { type: 'alt', alternatives, offset };
  }

  private alternative(): _RegexNode {
    const offset = this.pos;
    const items: _RegexNode[] = [];
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.term());
    return items.length === 1 ? (items[0] as _RegexNode) : { type: 'seq', items, offset };
  }

  private term(): _RegexNode {
    const offset = this.pos;
    const c = this.peek();
    if (c === '^') {
      this.pos++;
      return { type: 'start', offset };
    }
    if (c === '$') {
      this.pos++;
      return { type: 'end', offset };
    }
    if (c === '\\' && (this.src[this.pos + 1] === 'b' || this.src[this.pos + 1] === 'B')) {
      this.pos += 2;
      return { type: 'boundary', negated: this.src[offset + 1] === 'B', offset };
    }
    let atom: _RegexNode;
    if (c === '(') atom = this.group();
    else if (c === '.') {
      this.pos++;
      atom = { type: 'set', set: DOT, offset };
    } else if (c === '[') atom = { type: 'set', set: this.characterClass(), offset };
    else if (c === '\\') atom = { type: 'set', set: this.atomEscape(), offset };
    else {
      const cp = this.src.codePointAt(this.pos) ?? 0;
      this.pos += cp > 0xffff ? 2 : 1;
      atom = { type: 'set', set: [[cp, cp]], offset };
    }
    return this.quantifier(atom, offset);
  }

  private quantifier(atom: _RegexNode, offset: number): _RegexNode {
    const c = this.peek();
    let min: number;
    let max: number | null;
    if (c === '*') [min, max] = [0, null];
    else if (c === '+') [min, max] = [1, null];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
      this.pos += m[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.peek() === '?') this.pos++; // lazy: same language
    return { type: 'repeat', item: atom, min, max, offset };
  }

  private group(): _RegexNode {
    const offset = this.pos;
    const rest = this.src.slice(this.pos, this.pos + 4);
    if (rest.startsWith('(?=') || rest.startsWith('(?!')) {
      this.unsupported(`lookahead "${rest.slice(0, 3)}" is not regular`, offset, 'lookahead');
    }
    if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) {
      this.unsupported(`lookbehind "${rest}" is not regular`, offset, 'lookbehind');
    }
    if (rest.startsWith('(?:')) this.pos += 3;
    else if (rest.startsWith('(?<')) this.pos = this.src.indexOf('>', this.pos) + 1;
    else if (rest.startsWith('(?'))
      this.unsupported('pattern modifiers "(?flags:" are not supported', offset, 'modifiers');
    else this.pos++;
    const inner = this.disjunction();
    this.pos++; // ')'
    return inner;
  }

  private characterClass(): _CharSet {
    this.pos++; // '['
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const parts: _CharSet[] = [];
    while (this.peek() !== ']') {
      const from = this.classAtom();
      if (this.peek() === '-' && this.src[this.pos + 1] !== ']' && typeof from === 'number') {
        this.pos++;
        const to = this.classAtom();
        // Annex B: `[a-\w]` is a, "-" and \w (invalid with the u flag)
        if (typeof to === 'number') parts.push([[from, to]]);
        else parts.push([[from, from]], [[0x2d, 0x2d]], to);
      } else parts.push(typeof from === 'number' ? [[from, from]] : from);
    }
    this.pos++; // ']'
    const set = _union(...parts);
    return negated ? _complement(set) : set;
  }

  /** One class atom: a code point, or a set for `\d`-style escapes. */
  private classAtom(): number | _CharSet {
    if (this.peek() === '\\') {
      const e = this.src[this.pos + 1];
      if (e === 'b') {
        this.pos += 2;
        return 0x08;
      }
      if (e === '-') {
        this.pos += 2;
        return 0x2d;
      }
      const set = this.escape(true);
      return set;
    }
    const cp = this.src.codePointAt(this.pos) ?? 0;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private atomEscape(): _CharSet {
    const r = this.escape(false);
    return typeof r === 'number' ? [[r, r]] : r;
  }

  /** `\` + escape, outside or inside a class. */
  private escape(inClass: boolean): number | _CharSet {
    const offset = this.pos;
    const e = this.src[this.pos + 1] ?? '';
    this.pos += 2;
    switch (e) {
      case 'd':
        return _DIGIT;
      case 'D':
        return _complement(_DIGIT);
      case 'w':
        return _WORD;
      case 'W':
        return _complement(_WORD);
      case 's':
        return _SPACE;
      case 'S':
        return _complement(_SPACE);
      case 'p':
      case 'P': {
        if (this.annexB) return e.codePointAt(0) ?? 0;
        const close = this.src.indexOf('}', this.pos);
        const body = this.src.slice(this.pos + 1, close);
        this.pos = close + 1;
        const set = _property(body);
        return e === 'P' ? _complement(set) : set;
      }
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case 'c': {
        if (this.annexB && !/[a-zA-Z]/.test(this.peek())) {
          this.pos--; // Annex B: "\c" not before a letter is a backslash and a "c"
          return 0x5c;
        }
        const letter = this.src.charCodeAt(this.pos);
        this.pos++;
        return letter % 32;
      }
      case '0':
        return 0;
      case 'x': {
        if (this.annexB && !/^[0-9a-fA-F]{2}/.test(this.src.slice(this.pos))) return 0x78; // "x"
        const v = Number.parseInt(this.src.slice(this.pos, this.pos + 2), 16);
        this.pos += 2;
        return v;
      }
      case 'u':
        return this.unicodeEscape();
      case 'k':
        return this.unsupported('named backreference "\\k<…>" is not context-free', offset, 'backreference');
      default:
        if (e >= '1' && e <= '9') {
          return this.unsupported(`backreference "\\${e}" is not context-free`, offset, 'backreference');
        }
        if (inClass && e === '-') return 0x2d;
        return e.codePointAt(0) ?? 0;
    }
  }

  /** After `\u`: `{hex}` or 4 hex digits, joining an escaped surrogate pair. */
  private unicodeEscape(): number {
    if (this.annexB && !/^[0-9a-fA-F]{4}/.test(this.src.slice(this.pos))) return 0x75; // "u"
    if (this.peek() === '{') {
      const close = this.src.indexOf('}', this.pos);
      const v = Number.parseInt(this.src.slice(this.pos + 1, close), 16);
      this.pos = close + 1;
      return v;
    }
    const v = Number.parseInt(this.src.slice(this.pos, this.pos + 4), 16);
    this.pos += 4;
    if (v >= 0xd800 && v <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.src.slice(this.pos))) {
      const lo = Number.parseInt(this.src.slice(this.pos + 2, this.pos + 6), 16);
      this.pos += 6;
      return 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
    }
    return v;
  }

  private peek(): string {
    return this.src[this.pos] ?? '';
  }

  private unsupported(message: string, offset: number, construct = 'syntax'): never {
    throw new GbnfRegexError(
      'REGEX_UNSUPPORTED',
      `pattern ${JSON.stringify(this.src)} at offset ${offset}: ${message}`,
      {
        pattern: this.src,
        offset,
        construct,
      },
    );
  }
}
