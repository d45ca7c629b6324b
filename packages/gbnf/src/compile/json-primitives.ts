/**
 * The JSON lexical rules (RFC 8259) the compiled grammars share: whitespace, free strings,
 * numbers, any value, and literals for enum/const values.
 *
 * Escape convention: a free string (no length, pattern or format) accepts every escape JSON
 * allows (`\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\uXXXX`). A length-constrained string accepts
 * the same escapes except lone surrogates (a `\uD800`–`\uDBFF` escape must be followed by a
 * `\uDC00`–`\uDFFF` escape and the pair counts as one code point). Member names, enum and const
 * strings are spelled exactly as `JSON.stringify` spells them.
 * @module
 */
import type { _GrammarBuilder } from './grammar-builder.js';

/** @internal GBNF string literal for raw text. */
export function _lit(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** @internal `ws`: up to `max` JSON whitespace characters. */
export function _ws(g: _GrammarBuilder, max: number): string {
  return g.fixed('ws', () => (max === 0 ? '""' : `[ \\t\\n\\r]{0,${max}}`));
}

/** @internal `hex`: one hexadecimal digit. */
export function _hex(g: _GrammarBuilder): string {
  return g.fixed('hex', () => '[0-9a-fA-F]');
}

/** @internal `char`: one character of a free JSON string, in any spelling. */
export function _char(g: _GrammarBuilder): string {
  const hex = _hex(g);
  return g.fixed(
    'char',
    () => `[^"\\\\\\x00-\\x1f] | "\\\\" ( ["\\\\/bfnrt] | "u" ${hex} ${hex} ${hex} ${hex} )`,
  );
}

/**
 * @internal `char-cp`: one code point of a JSON string, in any spelling except lone surrogates —
 * the unit `minLength`/`maxLength` count (ajv counts code points).
 */
export function _charCp(g: _GrammarBuilder): string {
  const hex = _hex(g);
  const hexNs = g.fixed('hex-ns', () => `[0-9a-cA-Ce-fE-F] ${hex} ${hex} ${hex} | [dD] [0-7] ${hex} ${hex}`);
  return g.fixed(
    'char-cp',
    () =>
      `[^"\\\\\\x00-\\x1f] | "\\\\" ["\\\\/bfnrt] | "\\\\u" ${hexNs} | "\\\\u" [dD] [89abAB] ${hex} ${hex} "\\\\u" [dD] [c-fC-F] ${hex} ${hex}`,
  );
}

/** @internal `string`: any JSON string. */
export function _string(g: _GrammarBuilder): string {
  const ch = _char(g);
  return g.fixed('string', () => `"\\"" ${ch}* "\\""`);
}

/** @internal `number`: any JSON number. */
export function _number(g: _GrammarBuilder): string {
  return g.fixed('number', () => '"-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [-+]? [0-9]+)?');
}

/**
 * @internal `integer`: a JSON number whose value is an integer, written without a fraction other
 * than zeros, and with a non-negative exponent (`12`, `-0`, `1e05`, `1.0`, `2E+3`).
 */
export function _integer(g: _GrammarBuilder): string {
  return g.fixed('integer', () => '"-"? ("0" | [1-9] [0-9]*) ("." "0"+)? ([eE] "+"? [0-9]+)?');
}

/**
 * @internal `integer-d4`: a draft-04 integer — "a JSON number without a fraction or exponent
 * part" (draft-04 core §3.5), so `1.0` and `1e05` are not integers there.
 */
export function _integerDraft04(g: _GrammarBuilder): string {
  return g.fixed('integer-d4', () => '"-"? ("0" | [1-9] [0-9]*)');
}

/** @internal `boolean`. */
export function _boolean(g: _GrammarBuilder): string {
  return g.fixed('boolean', () => '"true" | "false"');
}

/** @internal `value`: any JSON value, with whitespace as configured. */
export function _value(g: _GrammarBuilder, maxWs: number): string {
  if (g.has('value')) return 'value';
  const ws = _ws(g, maxWs);
  const str = _string(g);
  const num = _number(g);
  g.fixed('value', () => `object | array | ${str} | ${num} | "true" | "false" | "null"`);
  g.fixed(
    'object',
    () =>
      `"{" ${ws} ( ${str} ${ws} ":" ${ws} value ${ws} ( "," ${ws} ${str} ${ws} ":" ${ws} value ${ws} )* )? "}"`,
  );
  g.fixed('array', () => `"[" ${ws} ( value ${ws} ( "," ${ws} value ${ws} )* )? "]"`);
  return 'value';
}

/** @internal The canonical spelling of a JSON value's string (as `JSON.stringify`) as a GBNF literal. */
export function _stringLiteral(value: string): string {
  return _lit(JSON.stringify(value));
}

/**
 * @internal Grammar for exactly one JSON value (enum/const member). Objects accept their members
 * in any order when they have at most `permuteLimit` members; otherwise in the written order and
 * in sorted order (reported by the caller as narrowing through the returned flag).
 */
export function _valueLiteral(
  value: unknown,
  ws: string,
  permuteLimit = 4,
): { expr: string; narrowed: boolean } {
  let narrowed = false;
  const go = (v: unknown): string => {
    if (v === null) return '"null"';
    if (typeof v === 'boolean') return v ? '"true"' : '"false"';
    if (typeof v === 'number') return _lit(JSON.stringify(v));
    if (typeof v === 'string') return _stringLiteral(v);
    if (Array.isArray(v)) {
      if (v.length === 0) return `"[" ${ws} "]"`;
      return `"[" ${ws} ${v.map((x) => `${go(x)} ${ws}`).join(` "," ${ws} `)} "]"`;
    }
    if (typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.length === 0) return `"{" ${ws} "}"`;
      const member = ([k, x]: [string, unknown]) => `${_stringLiteral(k)} ${ws} ":" ${ws} ${go(x)} ${ws}`;
      const members = entries.map(member);
      const orders: number[][] = [];
      if (entries.length <= permuteLimit) orders.push(...permutations(entries.length));
      else {
        narrowed = true;
        const written = entries.map((_, i) => i);
        const sorted = [...written].sort((a, b) => (entries[a]![0] < entries[b]![0] ? -1 : 1));
        orders.push(sorted);
        if (sorted.join() !== written.join()) orders.push(written);
      }
      const seqs = orders.map((o) => o.map((i) => members[i]).join(` "," ${ws} `));
      return `"{" ${ws} ( ${seqs.join(' | ')} ) "}"`;
    }
    throw new TypeError(`not a JSON value: ${String(v)}`);
  };
  return { expr: go(value), narrowed };
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(n - 1)) {
    for (let i = 0; i <= rest.length; i++) out.push([...rest.slice(0, i), n - 1, ...rest.slice(i)]);
  }
  return out.sort((a, b) => a.join().localeCompare(b.join()));
}
