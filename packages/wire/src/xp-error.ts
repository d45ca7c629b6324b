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

/** The payload of an `xp.error` event. */
export interface XpErrorPayload {
  code: XpErrorCode;
  message: string;
  /** Seconds until a retry may succeed (`RATE_LIMITED`). */
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
 * Reads an `xp.error` payload from untrusted JSON. Returns the payload, or a reason saying what
 * was expected. An unknown `code` is refused (it cannot be mapped), not passed through.
 */
export function parseXpErrorPayload(
  value: unknown,
): { ok: true; payload: XpErrorPayload } | { ok: false; reason: string } {
  if (!_isObject(value)) return { ok: false, reason: 'expected an object {code, message}' };
  if (!isXpErrorCode(value.code)) {
    return {
      ok: false,
      reason: `code: expected one of ${XP_ERROR_CODES.join(', ')}, got ${JSON.stringify(value.code ?? null)}`,
    };
  }
  if (typeof value.message !== 'string') {
    return { ok: false, reason: `message: expected a string, got ${typeof value.message}` };
  }
  const extra: { retry_after?: number; details?: XpErrorDetails } = {};
  if (value.retry_after !== undefined) {
    if (typeof value.retry_after !== 'number' || !(value.retry_after >= 0)) {
      return { ok: false, reason: 'retry_after: expected a non-negative number' };
    }
    extra.retry_after = value.retry_after;
  }
  if (value.details !== undefined) {
    if (!_isObject(value.details)) return { ok: false, reason: 'details: expected an object' };
    extra.details = value.details as XpErrorDetails;
  }
  return { ok: true, payload: xpError(value.code, value.message, extra) };
}

function _isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
