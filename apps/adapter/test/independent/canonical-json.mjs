/**
 * Strict JSON reading and RFC 8785 canonical JSON, written from docs/protocol.md §2.1 and §2.2
 * ("The JSON text") alone. It imports nothing from this repository: it is one part of an
 * independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */

/** The deepest nesting a JSON text may have (§2.1, §2.2): the outermost value is level 1. */
export const MAX_DEPTH = 512;

/** An error that names the rule of docs/protocol.md it enforces. */
export class RuleError extends Error {
  /**
   * @param {string} rule the section, e.g. "§2.1"
   * @param {string} message what was wrong and what was expected
   */
  constructor(rule, message) {
    super(`${rule}: ${message}`);
    this.rule = rule;
  }
}

/**
 * Reads a JSON text as §2.2 says every receiver does: no member name twice in one object
 * (compared after unescaping), at most 512 levels of nesting; numbers are kept as JavaScript
 * numbers (their value, not their spelling).
 *
 * @param {string} text
 * @returns {unknown}
 */
export function parseStrictJson(text) {
  const reader = new StrictReader(text);
  reader.skipSpace();
  const value = reader.value(1);
  reader.skipSpace();
  if (reader.pos !== text.length) reader.fail('unexpected text after the JSON value');
  return value;
}

class StrictReader {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
    this.pos = 0;
  }

  /** @param {string} why */
  fail(why) {
    throw new RuleError('§2.2', `message is not I-JSON: ${why} at character ${this.pos}`);
  }

  skipSpace() {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos])) this.pos++;
  }

  /** @param {number} depth */
  value(depth) {
    const c = this.text[this.pos];
    if (c === '{' || c === '[') {
      if (depth > MAX_DEPTH) this.fail(`more than ${MAX_DEPTH} levels of nesting`);
      return c === '{' ? this.object(depth) : this.array(depth);
    }
    if (c === '"') return this.string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ]) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.number();
  }

  /** @param {number} depth */
  object(depth) {
    this.pos++;
    /** @type {Record<string, unknown>} */
    const out = {};
    const seen = new Set();
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail('expected a member name');
      const name = this.string();
      if (seen.has(name)) this.fail(`duplicate member name ${JSON.stringify(name)}`);
      seen.add(name);
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail('expected ":"');
      this.pos++;
      this.skipSpace();
      const v = this.value(depth + 1);
      Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const sep = this.text[this.pos++];
      if (sep === '}') return out;
      if (sep !== ',') this.fail('expected "," or "}"');
    }
  }

  /** @param {number} depth */
  array(depth) {
    this.pos++;
    const out = [];
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      out.push(this.value(depth + 1));
      this.skipSpace();
      const sep = this.text[this.pos++];
      if (sep === ']') return out;
      if (sep !== ',') this.fail('expected "," or "]"');
    }
  }

  string() {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) this.fail('unterminated string');
      if (c === '\\') this.pos += 2;
      else if (c === '"') break;
      else if (c < ' ') this.fail('control character in a string');
      else this.pos++;
    }
    this.pos++;
    // The token is now known to be a well-formed JSON string; JSON.parse unescapes it.
    try {
      return JSON.parse(this.text.slice(start, this.pos));
    } catch {
      this.fail('invalid string escape');
    }
  }

  number() {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(
      this.text.slice(this.pos, this.pos + 400),
    );
    if (!match) this.fail('expected a JSON value');
    this.pos += match[0].length;
    return Number(match[0]);
  }
}

/** @param {string} s */
function assertWellFormed(s) {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (u >= 0xd800 && u <= 0xdfff) {
      throw new RuleError('§2.1', `a lone UTF-16 surrogate (\\u${u.toString(16)}) has no UTF-8 encoding`);
    }
  }
}

/** @param {number} n */
function numberText(n) {
  if (!Number.isFinite(n)) throw new RuleError('§2.1', `${n} is not an I-JSON number`);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) {
    throw new RuleError('§2.1', `the integer ${n} is outside ±(2^53 − 1); send large integers as strings`);
  }
  return Object.is(n, -0) ? '0' : String(n);
}

/** @param {string} s */
function stringText(s) {
  assertWellFormed(s);
  // JSON.stringify writes exactly §2.1's minimal escapes (lowercase \u00xx for other controls)
  // once lone surrogates are excluded.
  return JSON.stringify(s);
}

/**
 * RFC 8785 under the protocol's profile (§2.1). `keepOrder(path)` may say that the members of
 * the object at `path` keep their own order (the `properties` of a contract's schemas, §10.8).
 *
 * @param {unknown} value
 * @param {(path: string[]) => boolean} [keepOrder]
 * @returns {string}
 */
export function canonicalJson(value, keepOrder = () => false) {
  const seen = new Set();
  /** @param {unknown} v @param {number} depth @param {string[]} path @returns {string} */
  const write = (v, depth, path) => {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number') return numberText(v);
    if (typeof v === 'string') return stringText(v);
    if (typeof v !== 'object') throw new RuleError('§2.1', `a ${typeof v} is not JSON`);
    if (depth > MAX_DEPTH) throw new RuleError('§2.1', `more than ${MAX_DEPTH} levels of nesting`);
    if (seen.has(v)) throw new RuleError('§2.1', 'a cycle is not JSON');
    seen.add(v);
    let text;
    if (Array.isArray(v)) {
      const parts = [];
      for (let i = 0; i < v.length; i++) {
        if (!(i in v)) throw new RuleError('§2.1', `a hole in an array at index ${i}`);
        parts.push(write(v[i], depth + 1, [...path, String(i)]));
      }
      text = `[${parts.join(',')}]`;
    } else {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new RuleError('§2.1', 'only plain objects are JSON objects');
      }
      const names = Object.keys(v);
      if (!keepOrder(path)) names.sort();
      text = `{${names
        .map(
          (name) => `${stringText(name)}:${write(/** @type {any} */ (v)[name], depth + 1, [...path, name])}`,
        )
        .join(',')}}`;
    }
    seen.delete(v);
    return text;
  };
  return write(value, 1, []);
}
