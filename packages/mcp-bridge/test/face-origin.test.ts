// The Origin rule of the HTTP MCP face: origins compared exactly (scheme, host, port), values that
// are not origins refused. The face's own test (serve-http.test.ts) proves it over HTTP.
import { describe, expect, it } from 'vitest';
import { _allowedOrigins, _checkOrigin } from '../src/serving/origin.js';

const allowed = _allowedOrigins(['localhost', '127.0.0.1', '[::1]'], 8767, [
  'https://inspector.example:8443',
]);

describe('the Origin rule', () => {
  it('lists the face’s own origins and the configured ones', () => {
    expect([...allowed]).toEqual([
      'http://localhost:8767',
      'http://127.0.0.1:8767',
      'http://[::1]:8767',
      'https://inspector.example:8443',
    ]);
  });
  it.each(['http://127.0.0.1:8767', 'http://[::1]:8767', 'https://inspector.example:8443'])(
    'accepts %s',
    (origin) => {
      expect(_checkOrigin(origin, allowed)).toEqual({ ok: true });
    },
  );
  it('accepts a request without Origin (not a browser)', () => {
    expect(_checkOrigin(undefined, allowed)).toEqual({ ok: true });
  });
  it.each([
    ['http://127.0.0.1:8768', 'is not one of the allowed origins'],
    ['https://127.0.0.1:8767', 'is not one of the allowed origins'],
    ['ftp://127.0.0.1', 'Invalid Origin: ftp://127.0.0.1 is not one of the allowed origins'],
    ['ftp://127.0.0.1/', 'nothing after it'],
    [
      'http://127.0.0.1:8767/x',
      'expected an origin (scheme://host[:port], nothing after it), got "http://127.0.0.1:8767/x"',
    ],
    ['http://127.0.0.1:8767/', 'nothing after it'],
    ['null', 'nothing after it'],
    ['http://LOCALHOST:8767', 'nothing after it'],
    ['http://evil.example', 'is not one of the allowed origins'],
  ])('refuses %s', (origin, reason) => {
    const result = _checkOrigin(origin, allowed);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(reason);
  });
});
