// checkConsoleRequest: Host first (no DNS rebinding), then Origin (no other site), then the token
// (header, ?token= or the cookie), each refusal naming what was expected and what came.
import { describe, expect, it } from 'vitest';
import { checkConsoleRequest, consoleCookie, createConsoleToken } from '../src/console-access.js';

const TOKEN = createConsoleToken();
const PORT = 4321;
const check = (headers: Record<string, string>, url = '/') =>
  checkConsoleRequest({ headers, url }, TOKEN, PORT);

describe('checkConsoleRequest', () => {
  it('makes 43-character base64url tokens, a new one each time', () => {
    expect(TOKEN).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createConsoleToken()).not.toBe(TOKEN);
  });

  it('accepts the token by header, by ?token= and by cookie, on each loopback host name', () => {
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`]) {
      expect(check({ host, 'x-xp-console-token': TOKEN })).toEqual({ ok: true, via: 'header' });
      expect(check({ host }, `/?token=${TOKEN}`)).toEqual({ ok: true, via: 'query' });
      expect(check({ host, cookie: `a=b; ${consoleCookie(TOKEN).split(';')[0]}` })).toEqual({
        ok: true,
        via: 'cookie',
      });
      expect(check({ host, origin: `http://${host}`, cookie: `xp_console=${TOKEN}` }).ok).toBe(true);
    }
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
    expect(check({ host, cookie: 'xp_console=old' })).toMatchObject({
      status: 401,
      reason: expect.stringContaining("not this run's token"),
    });
  });
});
