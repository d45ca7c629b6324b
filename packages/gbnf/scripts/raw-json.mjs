// JSON kept as the corpus spells it, for the MaskBench eval and its CI sample: every number as
// its source text (a RawNumber: `12345.0` stays `12345.0`, which JSON.parse + JSON.stringify would
// write `12345`, a different instance for a draft-04 integer) and every object's members in source
// order (a RawObject: a plain object would move integer-like keys such as "404" first).

/** A number as written in the source. */
export class RawNumber {
  constructor(text) {
    this.text = text;
  }
}

/** An object's members, in source order. */
export class RawObject {
  constructor() {
    this.entries = [];
  }
  /** The value of the first member named `key`, or `undefined`. */
  get(key) {
    return this.entries.find(([k]) => k === key)?.[1];
  }
}

/** Parses JSON text (assumed valid), keeping number spellings and member order. */
export function parseRawJson(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o = new RawObject();
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        const k = value();
        ws();
        i++; // ':'
        o.entries.push([k, value()]);
        ws();
        if (text[i++] === '}') return o;
      }
    }
    if (c === '[') {
      i++;
      const a = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        if (text[i++] === ']') return a;
      }
    }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const s = JSON.parse(text.slice(i, j + 1));
      i = j + 1;
      return s;
    }
    const m = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|^true|^false|^null/.exec(text.slice(i, i + 400));
    if (m === null) throw new SyntaxError(`expected a JSON value at offset ${i}`);
    i += m[0].length;
    return m[0] === 'true' ? true : m[0] === 'false' ? false : m[0] === 'null' ? null : new RawNumber(m[0]);
  };
  return value();
}

/**
 * Writes a raw value compact (`step` '') or indented by `step` per level, as JSON.stringify lays it
 * out; numbers as spelled, or as JSON.stringify writes them when `canonical`.
 */
export function writeRawJson(v, indent = '', step = '', canonical = false) {
  if (v instanceof RawNumber) return canonical ? JSON.stringify(Number(v.text)) : v.text;
  const inner = indent + step;
  const nl = step ? `\n${inner}` : '';
  const close = step ? `\n${indent}` : '';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((x) => `${nl}${writeRawJson(x, inner, step, canonical)}`).join(',')}${close}]`;
  }
  if (v instanceof RawObject) {
    if (v.entries.length === 0) return '{}';
    const sep = step ? ': ' : ':';
    const members = v.entries.map(
      ([k, x]) => `${nl}${JSON.stringify(k)}${sep}${writeRawJson(x, inner, step, canonical)}`,
    );
    return `{${members.join(',')}${close}}`;
  }
  return JSON.stringify(v);
}
