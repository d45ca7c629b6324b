import { describe, expect, it } from 'vitest';
import {
  ANNOUNCE_KIND,
  isAnswerKind,
  isReservedKind,
  parseXpErrorPayload,
  RESERVED_KINDS,
  xpError,
} from '../src/index.js';

describe('reserved kinds', () => {
  it('are all in the xp namespace; answers are recognised', () => {
    for (const kind of RESERVED_KINDS) expect(isReservedKind(kind), kind).toBe(true);
    expect(isReservedKind('xp.mcp.resources.read')).toBe(true);
    expect(isReservedKind('xpx.tool')).toBe(false);
    expect(isAnswerKind(ANNOUNCE_KIND)).toBe(true);
    expect(isAnswerKind('com.test.echo.result')).toBe(true);
    expect(isAnswerKind('com.test.echo')).toBe(false);
  });
});

describe('xp.error payload', () => {
  it('builds and reads back', () => {
    const payload = xpError('RATE_LIMITED', 'slow down', { retry_after: 2, details: { source: 'fs' } });
    expect(parseXpErrorPayload(JSON.parse(JSON.stringify(payload)))).toEqual({ ok: true, payload });
    expect(xpError('TIMEOUT', 't')).toEqual({ code: 'TIMEOUT', message: 't' });
  });

  it.each([
    [null, 'expected an object {code, message}'],
    [
      { code: 'NOPE', message: 'm' },
      'code: expected one of AUTHORIZATION_INSUFFICIENT, SCHEMA_VIOLATION, EXPIRED, REVOKED, NOT_FOUND, RATE_LIMITED, ENDPOINT_UNAVAILABLE, UPSTREAM_ERROR, TIMEOUT, TOO_LARGE, got "NOPE"',
    ],
    [{ code: 'TIMEOUT' }, 'message: expected a string, got undefined'],
    [
      { code: 'TIMEOUT', message: 'm', retry_after: 1 },
      'retry_after: only RATE_LIMITED carries it, not TIMEOUT',
    ],
    [
      { code: 'RATE_LIMITED', message: 'm', retry_after: -1 },
      'retry_after: expected whole seconds from 0 to 86400, got -1',
    ],
    [{ code: 'TIMEOUT', message: 'm', details: [] }, 'details: expected an object, got an array'],
  ])('refuses %j', (value, reason) => {
    expect(parseXpErrorPayload(value)).toEqual({ ok: false, reason });
  });
});
