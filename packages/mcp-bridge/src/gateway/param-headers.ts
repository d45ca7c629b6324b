/**
 * `Mcp-Param-*` headers (MCP 2026-07-28, Streamable HTTP): a tool may mark a primitive argument
 * with `"x-mcp-header": "<Name>"` in its input schema, and a client then repeats that argument's
 * value in the `Mcp-Param-<Name>` header of the HTTP request, so that gateways and load balancers
 * can route on it without reading the body. A server must refuse (HTTP 400, JSON-RPC -32020) a
 * request whose header is missing, disagrees with the body, or carries a malformed Base64 value
 * (`=?base64?<canonical Base64 of the UTF-8 bytes>?=`). The face checks them against the tool it
 * lists, so what passes it is what the upstream would accept.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';

/** JSON-RPC code of a header that disagrees with the body (MCP 2026-07-28). */
export const HEADER_MISMATCH = -32020;

/** One argument a tool mirrors in a header: where it sits in the arguments, and the header's name. */
interface _Declaration {
  path: readonly string[];
  header: string;
  type: string | undefined;
}

/**
 * Why `args` of a call to a tool with `inputSchema` disagree with the request's `headers`, or
 * `undefined` when they agree (or the tool mirrors nothing).
 */
export function _paramHeaderRefusal(
  inputSchema: unknown,
  args: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): string | undefined {
  for (const declaration of _declarations(inputSchema)) {
    const value = _at(args, declaration.path);
    const expected = _asHeaderText(value);
    if (expected === undefined) continue;
    const name = `Mcp-Param-${declaration.header}`;
    const raw = headers[name.toLowerCase()];
    const given = Array.isArray(raw) ? raw.join(', ') : raw;
    const argument = declaration.path.join('.');
    if (given === undefined)
      return `the arguments carry ${argument} but the ${name} header is missing; send it with the same value`;
    const decoded = _decode(given.trim());
    if (decoded === undefined)
      return `the ${name} header is not valid: expected the value as it is, or =?base64?<canonical Base64 of its UTF-8 bytes>?=`;
    const same =
      typeof value === 'number' && /^-?\d+(\.\d+)?$/.test(decoded)
        ? Number(decoded) === value
        : decoded === expected;
    if (!same)
      return `the ${name} header says ${JSON.stringify(decoded)} but the arguments carry ${argument}=${JSON.stringify(value)}`;
  }
  return undefined;
}

/**
 * The `Mcp-Param-*` headers a client sends with a call of a tool with `inputSchema` (the gateway's
 * links to 2026-07-28 servers send them as any client would): printable ASCII as it is, anything
 * else in the Base64 form.
 */
export function _paramHeaders(inputSchema: unknown, args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const declaration of _declarations(inputSchema)) {
    const text = _asHeaderText(_at(args, declaration.path));
    if (text === undefined) continue;
    const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !text.startsWith(_SENTINEL_START);
    headers[`Mcp-Param-${declaration.header}`] = plain
      ? text
      : `${_SENTINEL_START}${Buffer.from(text, 'utf8').toString('base64')}${_SENTINEL_END}`;
  }
  return headers;
}

/** The arguments a schema marks with `x-mcp-header`: only along chains of `properties`. */
function _declarations(schema: unknown, path: readonly string[] = []): _Declaration[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const own: _Declaration[] =
    path.length > 0 && typeof node['x-mcp-header'] === 'string' && node['x-mcp-header'] !== ''
      ? [{ path, header: node['x-mcp-header'], type: typeof node.type === 'string' ? node.type : undefined }]
      : [];
  const properties = node.properties;
  if (properties === null || typeof properties !== 'object') return own;
  return [
    ...own,
    ...Object.entries(properties as Record<string, unknown>).flatMap(([key, child]) =>
      _declarations(child, [...path, key]),
    ),
  ];
}

function _at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A primitive argument as header text; `undefined` for anything a header cannot carry. */
function _asHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!Number.isInteger(value) || Number.isSafeInteger(value))
  )
    return String(value);
  return undefined;
}

const _SENTINEL_START = '=?base64?';
const _SENTINEL_END = '?=';
/** Canonical Base64: whole quanta, padding only at the end and only as much as needed. */
const _CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The header's value: as written, or decoded from the Base64 form; `undefined` when malformed. */
function _decode(value: string): string | undefined {
  if (!value.startsWith(_SENTINEL_START) || !value.endsWith(_SENTINEL_END) || value.length < 11) return value;
  const encoded = value.slice(_SENTINEL_START.length, -_SENTINEL_END.length);
  if (!_CANONICAL_BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}
