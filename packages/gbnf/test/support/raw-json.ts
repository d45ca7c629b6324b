/**
 * JSON with every number kept as its source text, so a corpus instance is written back exactly as
 * the corpus spells it (`12345.0` stays `12345.0`; `JSON.parse` + `JSON.stringify` would write
 * `12345`, a different instance for a draft-04 `integer`).
 */

/** A number as written in the source. */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** A parsed JSON value whose numbers are {@link RawNumber}s. */
export type RawJson = null | boolean | string | RawNumber | RawJson[] | { [key: string]: RawJson };

/** Parses JSON text (assumed valid), keeping number spellings. */
export function parseRawJson(text: string): RawJson {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const value = (): RawJson => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: { [key: string]: RawJson } = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        const k = value() as string;
        ws();
        i++; // ':'
        Object.defineProperty(o, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i++] === '}') return o;
      }
    }
    if (c === '[') {
      i++;
      const a: RawJson[] = [];
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
      const s = JSON.parse(text.slice(i, j + 1)) as string;
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

/** Writes a raw value as `JSON.stringify(v)` would (`indent` = `JSON.stringify(v, null, indent)`). */
export function writeRawJson(v: RawJson, indent = '', step = ''): string {
  if (v instanceof RawNumber) return v.text;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const inner = indent + step;
  const nl = step ? `\n${inner}` : '';
  const close = step ? `\n${indent}` : '';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((x) => `${nl}${writeRawJson(x, inner, step)}`).join(',')}${close}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  const sep = step ? ': ' : ':';
  return `{${keys.map((k) => `${nl}${JSON.stringify(k)}${sep}${writeRawJson(v[k]!, inner, step)}`).join(',')}${close}}`;
}
