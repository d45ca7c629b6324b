// checkConsoleRequest: Host first (no DNS rebinding), then Origin (no other site), then the token
// (header, ?token= or this port's cookie), then the CSRF token on anything but GET and HEAD, each
// refusal naming what was expected and what came.
import { describe, expect, it } from 'vitest';
import {
  checkConsoleRequest,
  consoleCookie,
  consoleKeys,
  createConsoleToken,
} from '../src/console-access.js';

const TOKEN = createConsoleToken();
const PORT = 4321;
const KEYS = consoleKeys(TOKEN, PORT);
const check = (headers: Record<string, string>, url = '/', method = 'GET') =>
  checkConsoleRequest({ headers, url, method }, KEYS);

describe('checkConsoleRequest', () => {
  it('makes 43-character base64url tokens, a new one each time', () => {
    expect(TOKEN).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createConsoleToken()).not.toBe(TOKEN);
  });

  it('accepts the token by header, by ?token= and by cookie, on each loopback host name', () => {
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`]) {
      expect(check({ host, 'x-xp-console-token': TOKEN })).toEqual({ ok: true, via: 'header' });
      expect(check({ host }, `/?token=${TOKEN}`)).toEqual({ ok: true, via: 'query' });
      expect(check({ host, cookie: `a=b; ${consoleCookie(KEYS).split(';')[0]}` })).toEqual({
        ok: true,
        via: 'cookie',
      });
      const cookie = `xp_console_${PORT}=${KEYS.cookieValue}`;
      expect(check({ host, origin: `http://${host}`, cookie }).ok).toBe(true);
    }
  });

  it('derives a cookie and a CSRF token per port, neither of them the token', () => {
    const other = consoleKeys(TOKEN, PORT + 1);
    expect(KEYS.cookieName).toBe(`xp_console_${PORT}`);
    expect(KEYS.cookieValue).toMatch(new RegExp(`^${PORT}\\.[A-Za-z0-9_-]{43}$`));
    expect(KEYS.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(
      new Set([TOKEN, KEYS.cookieValue.slice(5), KEYS.csrf, other.csrf, other.cookieValue.slice(5)]).size,
    ).toBe(5);
    expect(consoleCookie(KEYS)).toBe(
      `xp_console_${PORT}=${KEYS.cookieValue}; Path=/; HttpOnly; SameSite=Strict`,
    );
  });

  it("refuses another port's cookie, even when the same token made it (401, naming the port)", () => {
    const other = consoleKeys(TOKEN, PORT + 1);
    const host = `127.0.0.1:${PORT}`;
    expect(check({ host, cookie: `xp_console_${PORT + 1}=${other.cookieValue}` })).toMatchObject({
      status: 401,
      reason: expect.stringContaining(`no xp_console_${PORT} cookie`),
    });
    expect(check({ host, cookie: `xp_console_${PORT}=${other.cookieValue}` })).toMatchObject({
      status: 401,
      reason: expect.stringContaining(`minted for the console on port ${PORT + 1}, not this one (${PORT})`),
    });
    // The cookie's value is not the token, and the token is not a cookie.
    expect(check({ host, 'x-xp-console-token': KEYS.cookieValue })).toMatchObject({ status: 401 });
    expect(check({ host, cookie: `xp_console_${PORT}=${TOKEN}` })).toMatchObject({ status: 401 });
  });

  it('needs the CSRF token on anything but GET and HEAD, whatever the credential (403)', () => {
    const host = `127.0.0.1:${PORT}`;
    const cookie = `xp_console_${PORT}=${KEYS.cookieValue}`;
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const credential of [{ cookie }, { 'x-xp-console-token': TOKEN }]) {
        expect(check({ host, ...credential }, '/api/call', method)).toMatchObject({
          status: 403,
          reason: `X-XP-Console-CSRF: missing; a ${method} needs this run's CSRF token, which the console page gets from the banner URL`,
        });
        for (const wrong of [
          '',
          KEYS.cookieValue,
          TOKEN,
          consoleKeys(TOKEN, PORT + 1).csrf,
          `${KEYS.csrf}=`,
        ]) {
          expect(
            check({ host, ...credential, 'x-xp-console-csrf': wrong }, '/api/call', method),
          ).toMatchObject({
            status: 403,
            reason: expect.stringContaining("not this run's CSRF token"),
          });
        }
        expect(check({ host, ...credential, 'x-xp-console-csrf': KEYS.csrf }, '/api/call', method).ok).toBe(
          true,
        );
      }
    }
    expect(check({ host, cookie }, '/', 'HEAD')).toEqual({ ok: true, via: 'cookie' });
    // A bad credential is reported as such, before the CSRF token is looked at.
    expect(check({ host, 'x-xp-console-csrf': KEYS.csrf }, '/api/call', 'POST')).toMatchObject({
      status: 401,
    });
  });

  it('refuses another Host with 421, before looking at the token', () => {
    for (const host of ['evil.example', `evil.example:${PORT}`, '127.0.0.1:1', '']) {
      expect(check({ host, 'x-xp-console-token': TOKEN })).toMatchObject({
        ok: false,
        status: 421,
        reason: expect.stringContaining(`got ${JSON.stringify(host)}`),
      });
    }
  });

  it('refuses another Origin with 403, even with the token', () => {
    for (const origin of [
      'http://evil.example',
      `https://127.0.0.1:${PORT}`,
      'null',
      `http://127.0.0.1:${PORT + 1}`,
    ]) {
      expect(check({ host: `127.0.0.1:${PORT}`, origin, 'x-xp-console-token': TOKEN })).toMatchObject({
        ok: false,
        status: 403,
        reason: expect.stringContaining(`got ${JSON.stringify(origin)}`),
      });
    }
  });

  it('refuses a missing or wrong token with 401 and says where the right one is', () => {
    const host = `127.0.0.1:${PORT}`;
    expect(check({ host })).toMatchObject({ status: 401, reason: expect.stringContaining('banner') });
    expect(check({ host, 'x-xp-console-token': `${TOKEN}x` })).toMatchObject({ status: 401 });
    expect(check({ host }, '/?token=short')).toMatchObject({ status: 401 });
    expect(check({ host, cookie: `xp_console_${PORT}=old` })).toMatchObject({
      status: 401,
      reason: expect.stringContaining("is not this run's"),
    });
  });
});
