/**
 * The `xp.error` payload (docs/protocol.md §10, "Errors"): `{code, message, retry_after?,
 * details?}` in a signed, encrypted `xp.error` event with an `e` tag naming the request.
 * @module
 */

/**
 * Every XProtocol error code: the seven of the XProtocol specification plus `UPSTREAM_ERROR`,
 * `TIMEOUT`, `TOO_LARGE`. `REVOKED` and `ENDPOINT_UNAVAILABLE` serve delegation and Direction 2.
 */
export const XP_ERROR_CODES = Object.freeze([
  'AUTHORIZATION_INSUFFICIENT',
  'SCHEMA_VIOLATION',
  'EXPIRED',
  'REVOKED',
  'NOT_FOUND',
  'RATE_LIMITED',
  'ENDPOINT_UNAVAILABLE',
  'UPSTREAM_ERROR',
  'TIMEOUT',
  'TOO_LARGE',
] as const);

/** One XProtocol error code. */
export type XpErrorCode = (typeof XP_ERROR_CODES)[number];

/** A JSON object, as `details` carries it. */
export interface XpErrorDetails {
  [key: string]: XpJsonValue;
}

/** A JSON value. */
export type XpJsonValue = null | boolean | number | string | XpJsonValue[] | XpErrorDetails;

/** Largest `retry_after`, in seconds (one day): a longer wait is not a rate limit but a refusal. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** The payload of an `xp.error` event. */
export interface XpErrorPayload {
  code: XpErrorCode;
  message: string;
  /** Whole seconds until a retry may succeed, 0 to 86,400; `RATE_LIMITED` only. */
  retry_after?: number;
  details?: XpErrorDetails;
}

/** True for a known XP error code. */
export function isXpErrorCode(value: unknown): value is XpErrorCode {
  return typeof value === 'string' && (XP_ERROR_CODES as readonly string[]).includes(value);
}

/**
 * Builds an `xp.error` payload; an optional `retry_after` / `details` is left out when undefined.
 * @example
 * xpError('RATE_LIMITED', 'rate limit exceeded for this key', { retry_after: 2 });
 */
export function xpError(
  code: XpErrorCode,
  message: string,
  extra: { retry_after?: number | undefined; details?: XpErrorDetails | undefined } = {},
): XpErrorPayload {
  const payload: XpErrorPayload = { code, message };
  if (extra.retry_after !== undefined) payload.retry_after = extra.retry_after;
  if (extra.details !== undefined) payload.details = extra.details;
  return payload;
}

/**
 * Reads an `xp.error` payload from untrusted JSON (docs/protocol.md §10.2). Returns the payload, or
 * a reason saying what was expected. Refused: an unknown `code` (it cannot be mapped), a field
 * other than `code`, `message`, `retry_after`, `details` (extensions go in `details`), and a
 * `retry_after` that is not a whole number of seconds from 0 to a day or comes with another code
 * than `RATE_LIMITED`.
 */
export function parseXpErrorPayload(
  value: unknown,
): { ok: true; payload: XpErrorPayload } | { ok: false; reason: string } {
  if (!_isObject(value)) return { ok: false, reason: 'expected an object {code, message}' };
  const unknown = Object.keys(value).find((key) => !_FIELDS.includes(key));
  if (unknown !== undefined) {
    return {
      ok: false,
      reason: `unknown field ${JSON.stringify(unknown)} (expected code, message, retry_after, details; anything else goes in details)`,
    };
  }
  if (!isXpErrorCode(value.code)) {
    return {
      ok: false,
      reason: `code: expected one of ${XP_ERROR_CODES.join(', ')}, got ${JSON.stringify(value.code ?? null)}`,
    };
  }
  if (typeof value.message !== 'string') {
    return { ok: false, reason: `message: expected a string, got ${_typeOf(value.message)}` };
  }
  const extra: { retry_after?: number; details?: XpErrorDetails } = {};
  if (value.retry_after !== undefined) {
    const refused = _retryAfterRefusal(value.code, value.retry_after);
    if (refused !== undefined) return { ok: false, reason: refused };
    extra.retry_after = value.retry_after as number;
  }
  if (value.details !== undefined) {
    if (!_isObject(value.details))
      return { ok: false, reason: `details: expected an object, got ${_typeOf(value.details)}` };
    extra.details = value.details as XpErrorDetails;
  }
  return { ok: true, payload: xpError(value.code, value.message, extra) };
}

const _FIELDS = ['code', 'message', 'retry_after', 'details'];

/** Why `retry_after` is refused with `code`, or nothing when it is sound. */
function _retryAfterRefusal(code: XpErrorCode, retryAfter: unknown): string | undefined {
  if (code !== 'RATE_LIMITED') return `retry_after: only RATE_LIMITED carries it, not ${code}`;
  if (
    typeof retryAfter !== 'number' ||
    !Number.isInteger(retryAfter) ||
    retryAfter < 0 ||
    retryAfter > MAX_RETRY_AFTER_SECONDS
  ) {
    return `retry_after: expected whole seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}, got ${JSON.stringify(retryAfter)}`;
  }
  return undefined;
}

function _typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function _isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
