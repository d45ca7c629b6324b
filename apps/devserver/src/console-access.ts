/**
 * Who may use the web console (docs/devserver.md, "The web console"): it listens on loopback
 * only, and every request must name the console's own host (no DNS rebinding), come from no
 * other origin (no cross-site page can drive it), and carry the per-run token printed in the
 * banner — as the `xp_console` cookie set by the first `?token=` visit, or the
 * `X-XP-Console-Token` header.
 * @module
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie that carries the token after the first visit. */
export const CONSOLE_COOKIE = 'xp_console';

/** The header that carries the token for scripts and tests. */
export const CONSOLE_TOKEN_HEADER = 'x-xp-console-token';

/** A fresh per-run token: 32 random bytes, base64url. */
export function createConsoleToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The verdict on one request. */
export type ConsoleAccess =
  | { ok: true; via: 'cookie' | 'header' | 'query' }
  | { ok: false; status: 401 | 403 | 421; reason: string };

/** The host names the console answers to, on its port (`127.0.0.1`, `localhost`, `[::1]`). */
export function consoleHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/**
 * Checks Host, Origin and the token, in that order; the first failure is the verdict.
 * @example
 * checkConsoleRequest({ headers: { host: '127.0.0.1:4000' }, url: '/?token=abc' }, 'abc', 4000);
 * // { ok: true, via: 'query' }
 */
export function checkConsoleRequest(
  request: Pick<IncomingMessage, 'headers' | 'url'>,
  token: string,
  port: number,
): ConsoleAccess {
  const hosts = consoleHosts(port);
  const host = request.headers.host ?? '';
  if (!hosts.includes(host)) {
    return {
      ok: false,
      status: 421,
      reason: `Host: expected one of ${hosts.join(', ')}, got ${JSON.stringify(host)}`,
    };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) {
    return {
      ok: false,
      status: 403,
      reason: `Origin: expected http://${host} or none, got ${JSON.stringify(origin)}`,
    };
  }
  const header = request.headers[CONSOLE_TOKEN_HEADER];
  if (typeof header === 'string') {
    return _same(header, token)
      ? { ok: true, via: 'header' }
      : { ok: false, status: 401, reason: `${CONSOLE_TOKEN_HEADER}: not this run's token` };
  }
  const query = new URL(request.url ?? '/', 'http://console').searchParams.get('token');
  if (query !== null) {
    return _same(query, token)
      ? { ok: true, via: 'query' }
      : { ok: false, status: 401, reason: "?token=: not this run's token (copy the URL from the banner)" };
  }
  const cookie = _cookie(request.headers.cookie, CONSOLE_COOKIE);
  if (cookie !== undefined && _same(cookie, token)) return { ok: true, via: 'cookie' };
  return {
    ok: false,
    status: 401,
    reason:
      cookie === undefined
        ? 'no console token: open the URL printed in the banner (it carries ?token=)'
        : "the console cookie is not this run's token: open the URL printed in the banner",
  };
}

/** The `Set-Cookie` value that keeps the token for this origin only. */
export function consoleCookie(token: string): string {
  return `${CONSOLE_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

function _same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function _cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
