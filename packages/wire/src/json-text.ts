/**
 * Reading JSON text the way the protocol reads it (docs/protocol.md §2.2, "The JSON text"): I-JSON
 * (RFC 7493) forbids duplicate member names, and nesting is bounded at 512 levels. `JSON.parse`
 * keeps the last of two equal names without a word and nests as deep as its stack allows, so two
 * receivers could read one signed text differently; every frame this project reads passes here.
 * @module
 */

/** The deepest nesting of arrays and objects accepted; the outermost array or object is level 1. */
export const MAX_JSON_TEXT_DEPTH = 512;

/** A parse verdict: the value, or why the text is refused. */
export type JsonTextParse = { ok: true; value: unknown } | { ok: false; reason: string };

/** One open array (`undefined`) or object (its names so far, and whether a name comes next). */
type _Open = { names: Set<string>; nameNext: boolean } | undefined;

/**
 * Parses `text` as JSON, refusing what I-JSON refuses and `JSON.parse` lets through: a member name
 * twice in one object (compared after unescaping, so `"a"` and `"\u0061"` are the same name), and
 * nesting deeper than {@link MAX_JSON_TEXT_DEPTH}. Never throws.
 * @example
 * parseJsonText('{"a":1,"a":2}'); // { ok: false, reason: 'duplicate member name "a" ...' }
 */
export function parseJsonText(text: string): JsonTextParse {
  const problem = _structureProblem(text);
  if (problem === 'malformed') return { ok: false, reason: 'not valid JSON' };
  if (problem !== undefined) return { ok: false, reason: problem };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
}

/**
 * A duplicate name or too deep a nesting in `text`, `'malformed'` when the scan finds the text
 * cannot be JSON, else `undefined` (whether it parses is `JSON.parse`'s to say). One pass over
 * the structure; strings are skipped with `indexOf`, so a long `content` costs little.
 */
function _structureProblem(text: string): string | undefined {
  const open: _Open[] = [];
  const length = text.length;
  let at = 0;
  while (at < length) {
    const c = text.charCodeAt(at);
    if (c === 0x22) {
      const end = _stringEnd(text, at);
      if (end < 0) return 'malformed';
      const top = open.at(-1);
      if (top?.nameNext) {
        const name = _name(text, at, end);
        if (name === undefined) return 'malformed';
        if (top.names.has(name))
          return `duplicate member name ${JSON.stringify(name)} (I-JSON: each name at most once per object)`;
        top.names.add(name);
        top.nameNext = false;
      }
      at = end + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (open.length >= MAX_JSON_TEXT_DEPTH) return `more than ${MAX_JSON_TEXT_DEPTH} levels of nesting`;
      open.push(c === 0x7b ? { names: new Set(), nameNext: true } : undefined);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    } else if (c === 0x2c) {
      const top = open.at(-1);
      if (top) top.nameNext = true;
    }
    at++;
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `start`, or -1. */
function _stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/** The member name written between `start` and `end` (the quotes), unescaped; undefined if malformed. */
function _name(text: string, start: number, end: number): string | undefined {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return undefined;
  }
}
