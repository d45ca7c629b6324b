/**
 * RFC 6570 URI templates, as far as resource-template contracts need them (docs/protocol.md §10.11):
 * the variables a template names (each with whether it is required) and the expansion of a
 * template with string values, for every operator of level 4 (`+ # . / ; ? &`, prefix `:n` and
 * explode `*`, which for a string value changes nothing).
 * @module
 */

/** One variable of a template: its name, and whether a value is needed (query forms are optional). */
export interface UriTemplateVariable {
  readonly name: string;
  readonly required: boolean;
}

/** Per operator: what starts the expansion, what separates values, and how values are written. */
interface _Operator {
  first: string;
  separator: string;
  named: boolean;
  ifEmpty: string;
  reserved: boolean;
}

const _OPERATORS: Record<string, _Operator> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

const _VARSPEC =
  /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::([1-9][0-9]{0,3})|\*)?$/;

/** A parsed expression: its operator and its variables with their prefix lengths. */
interface _Expression {
  operator: string;
  variables: { name: string; prefix: number | undefined }[];
}

/** The template as literal text and expressions, or why it is not a template. */
function _parse(template: string): (string | _Expression)[] | string {
  const parts: (string | _Expression)[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = template.indexOf('}', at);
    if (close !== -1 && (open === -1 || close < open)) return `a "}" at ${close} closes no expression`;
    if (open === -1) {
      parts.push(template.slice(at));
      break;
    }
    if (open > at) parts.push(template.slice(at, open));
    const end = template.indexOf('}', open);
    if (end === -1) return `the expression at ${open} is not closed with "}"`;
    const body = template.slice(open + 1, end);
    const operator = body !== '' && '+#./;?&'.includes(body[0] as string) ? (body[0] as string) : '';
    const variables: _Expression['variables'] = [];
    for (const spec of body.slice(operator.length).split(',')) {
      const match = _VARSPEC.exec(spec);
      if (!match)
        return `expression {${body}}: ${JSON.stringify(spec)} is not a variable name (RFC 6570 varspec)`;
      variables.push({
        name: match[1] as string,
        prefix: match[2] === undefined ? undefined : Number(match[2]),
      });
    }
    parts.push({ operator, variables });
    at = end + 1;
  }
  return parts;
}

/**
 * The variables of `template` in the order they first appear, or a reason the text is not an
 * RFC 6570 template. A variable is required unless every appearance is in a query form (`?`, `&`).
 * @example
 * uriTemplateVariables('notes://{title}{?lang}');
 * // { ok: true, variables: [{ name: 'title', required: true }, { name: 'lang', required: false }] }
 */
export function uriTemplateVariables(
  template: string,
): { ok: true; variables: UriTemplateVariable[] } | { ok: false; reason: string } {
  const parts = _parse(template);
  if (typeof parts === 'string') return { ok: false, reason: parts };
  const required = new Map<string, boolean>();
  for (const part of parts) {
    if (typeof part === 'string') continue;
    const optional = part.operator === '?' || part.operator === '&';
    for (const v of part.variables) required.set(v.name, (required.get(v.name) ?? false) || !optional);
  }
  return { ok: true, variables: [...required].map(([name, isRequired]) => ({ name, required: isRequired })) };
}

/**
 * Expands `template` with string `values` (RFC 6570 §3.2); a variable without a value is left out.
 * Throws when `template` is not a template (check it with {@link uriTemplateVariables} first).
 * @example
 * expandUriTemplate('notes://{title}{?lang}', { title: 'a b' }); // 'notes://a%20b'
 */
export function expandUriTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const parts = _parse(template);
  if (typeof parts === 'string') throw new Error(`not a URI template: ${parts}`);
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const op = _OPERATORS[part.operator] as _Operator;
    const written: string[] = [];
    for (const v of part.variables) {
      const raw = Object.hasOwn(values, v.name) ? values[v.name] : undefined;
      if (raw === undefined) continue;
      const cut = v.prefix === undefined ? raw : [...raw].slice(0, v.prefix).join('');
      const value = _encode(cut, op.reserved);
      written.push(op.named ? (value === '' ? `${v.name}${op.ifEmpty}` : `${v.name}=${value}`) : value);
    }
    if (written.length > 0) out += op.first + written.join(op.separator);
  }
  return out;
}

/** Percent-encodes UTF-8 bytes outside the unreserved set (and the reserved set, for `+` and `#`). */
function _encode(value: string, reserved: boolean): string {
  let out = '';
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (/[A-Za-z0-9\-._~]/.test(ch)) out += ch;
    else if (reserved && /[:/?#[\]@!$&'()*+,;=]/.test(ch)) out += ch;
    else if (reserved && ch === '%' && /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? '') + (chars[i + 2] ?? '')))
      out += ch;
    else
      for (const byte of new TextEncoder().encode(ch))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
