/**
 * `xp.error` payloads: the strict reader and what an MCP face gives its client, written from
 * docs/protocol.md §10.2 alone. It imports nothing from this repository: it is one part of an
 * independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { RuleError } from './canonical-json.mjs';

/**
 * The ten codes, their JSON-RPC code and fixed message (§10.2's table).
 *
 * @type {Record<string, [number, string]>}
 */
export const XP_ERROR_CODES = {
  AUTHORIZATION_INSUFFICIENT: [-32600, 'Insufficient capability for this operation'],
  SCHEMA_VIOLATION: [-32602, 'Request payload does not conform to schema'],
  EXPIRED: [-32600, 'Event has expired'],
  REVOKED: [-32600, 'Sender key has been revoked'],
  NOT_FOUND: [-32600, 'Resource or schema not found'],
  RATE_LIMITED: [-32600, 'Rate limit exceeded'],
  ENDPOINT_UNAVAILABLE: [-32603, 'XProtocol endpoint unavailable'],
  UPSTREAM_ERROR: [-32603, 'Upstream MCP server error'],
  TIMEOUT: [-32603, 'XProtocol call timed out'],
  TOO_LARGE: [-32603, 'Payload exceeds the size limit'],
};
const MEMBERS = ['code', 'message', 'retry_after', 'details'];

/** A payload the reader refuses; `field` is the member at fault, or null for the whole value. */
export class XpErrorRefused extends RuleError {
  /** @param {string | null} field @param {string} message */
  constructor(field, message) {
    super('§10.2', `malformed xp.error: ${field ?? 'payload'}: ${message}`);
    this.field = field;
  }
}

/** @param {unknown} v */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads an `xp.error` payload by the rules of §10.2.
 *
 * @param {unknown} payload
 * @returns {{ code: string, message: string, retry_after?: number, details?: Record<string, unknown> }}
 */
export function readXpError(payload) {
  if (!isObject(payload)) throw new XpErrorRefused(null, 'expected a JSON object');
  const p = /** @type {Record<string, unknown>} */ (payload);
  for (const name of Object.keys(p)) {
    if (!MEMBERS.includes(name))
      throw new XpErrorRefused(name, 'not a member of an xp.error (extensions go in details)');
  }
  if (typeof p.code !== 'string' || !(p.code in XP_ERROR_CODES)) {
    throw new XpErrorRefused(
      'code',
      `expected one of ${Object.keys(XP_ERROR_CODES).join(', ')}, got ${JSON.stringify(p.code)}`,
    );
  }
  if (typeof p.message !== 'string') throw new XpErrorRefused('message', 'expected a string');
  if ('retry_after' in p) {
    if (p.code !== 'RATE_LIMITED')
      throw new XpErrorRefused('retry_after', 'only RATE_LIMITED carries retry_after');
    const r = p.retry_after;
    if (typeof r !== 'number' || !Number.isInteger(r) || r < 0 || r > 86_400) {
      throw new XpErrorRefused('retry_after', 'expected a whole number of seconds from 0 to 86,400');
    }
  }
  if ('details' in p && !isObject(p.details))
    throw new XpErrorRefused('details', 'expected an object (not null)');
  return /** @type {any} */ (p);
}

/** @param {unknown} e */
function wellFormedMcpError(e) {
  if (!isObject(e)) return false;
  const o = /** @type {Record<string, unknown>} */ (e);
  // §10.2: any member beside code, message and data is ignored.
  return Number.isInteger(o.code) && typeof o.message === 'string';
}

/**
 * What an MCP face gives its client for an `xp.error` answering a tool call (`toolCall`) or any
 * other MCP request (§10.2): `{error}` (a JSON-RPC error) or `{result}` (a tool result).
 *
 * @param {unknown} payload @param {boolean} toolCall
 */
export function mcpFaceOf(payload, toolCall) {
  let error;
  try {
    error = readXpError(payload);
  } catch (err) {
    error = { code: 'UPSTREAM_ERROR', message: /** @type {Error} */ (err).message.replace(/^§10\.2: /, '') };
  }
  const mcpError = error.details?.mcp_error;
  if (wellFormedMcpError(mcpError)) {
    const { code, message, data } = /** @type {{code: number, message: string, data?: unknown}} */ (mcpError);
    return { error: { code, message, ...(data !== undefined && { data }) } };
  }
  if (error.code === 'SCHEMA_VIOLATION' && toolCall) {
    return {
      result: {
        content: [{ type: 'text', text: `Request payload does not conform to schema: ${error.message}` }],
        isError: true,
        structuredContent: {
          xp_code: 'SCHEMA_VIOLATION',
          message: error.message,
          ...(error.details && { details: error.details }),
        },
      },
    };
  }
  const [code, fixed] = XP_ERROR_CODES[/** @type {keyof typeof XP_ERROR_CODES} */ (error.code)];
  if (error.code === 'UPSTREAM_ERROR') {
    return {
      error: {
        code,
        message: error.message || fixed,
        data: { xp_code: error.code, ...(error.details && { details: error.details }) },
      },
    };
  }
  const data = {
    xp_code: error.code,
    xp_message: error.message,
    ...(error.retry_after !== undefined && { retry_after: error.retry_after }),
    ...(error.details && { details: error.details }),
  };
  return { error: { code, message: fixed, data } };
}
