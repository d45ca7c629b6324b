/**
 * Who may use the web console (docs/devserver.md, "The web console"): it listens on loopback
 * only, and every request must name the console's own host (no DNS rebinding), come from no
 * other origin (no cross-site page can drive it), and carry a credential — the per-run token
 * printed in the banner (`?token=` on the first visit, or the `X-XP-Console-Token` header), or
 * the cookie that first visit sets. Browsers send a cookie to every port of a host, so the cookie
 * is named for its port, carries its port, and is not the token; and a state-changing request
 * also needs the CSRF token, which never travels in a cookie (docs/security.md, "The devserver
 * console").
 * @module
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header that carries the token for scripts and tests. */
export const CONSOLE_TOKEN_HEADER = 'x-xp-console-token';

/** The header a state-changing request carries the CSRF token in. */
export const CONSOLE_CSRF_HEADER = 'x-xp-console-csrf';

/** A fresh per-run token: 32 random bytes, base64url. */
export function createConsoleToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What one console checks requests against: its token and what it derives for its port. */
export interface ConsoleKeys {
  readonly token: string;
  readonly port: number;
  /** `xp_console_<port>`: a cookie of another port's console never has this name. */
  readonly cookieName: string;
  /** `<port>.<HMAC of the token and the port>`: useless as the token, refused by another port. */
  readonly cookieValue: string;
  /** HMAC of the token and the port: handed to the page in the first visit's redirect only. */
  readonly csrf: string;
}

/**
 * The keys of the console on `port` whose banner token is `token`. The cookie and the CSRF token
 * are HMACs of the token, so neither reveals it, and each names the port it was made for.
 * @example
 * consoleKeys('abc', 4000).cookieName; // 'xp_console_4000'
 */
export function consoleKeys(token: string, port: number): ConsoleKeys {
  const mac = (purpose: string) =>
    createHmac('sha256', token).update(`xp-console ${purpose} 127.0.0.1:${port}`).digest('base64url');
  return {
    token,
    port,
    cookieName: `xp_console_${port}`,
    cookieValue: `${port}.${mac('cookie')}`,
    csrf: mac('csrf'),
  };
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
 * Checks Host, Origin, the credential and (for anything but GET and HEAD) the CSRF token, in that
 * order; the first failure is the verdict.
 * @example
 * checkConsoleRequest({ headers: { host: '127.0.0.1:4000' }, url: '/?token=abc' }, consoleKeys('abc', 4000));
 * // { ok: true, via: 'query' }
 */
export function checkConsoleRequest(
  request: Pick<IncomingMessage, 'headers' | 'url'> & { method?: string | undefined },
  keys: ConsoleKeys,
): ConsoleAccess {
  const hosts = consoleHosts(keys.port);
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
  const access = _credential(request, keys);
  if (!access.ok || request.method === 'GET' || request.method === 'HEAD') return access;
  return _csrfRefusal(request.headers[CONSOLE_CSRF_HEADER], keys, request.method ?? 'request') ?? access;
}

/** The `Set-Cookie` value that keeps this port's cookie: host-only, script-proof, same-site only. */
export function consoleCookie(keys: ConsoleKeys): string {
  // No `__Host-` prefix: it demands `Secure`, which Safari refuses over http:// and which would
  // not keep the cookie from other ports anyway (docs/security.md, "The devserver console").
  return `${keys.cookieName}=${keys.cookieValue}; Path=/; HttpOnly; SameSite=Strict`;
}

/** The token (header, then `?token=`), else this port's cookie. */
function _credential(request: Pick<IncomingMessage, 'headers' | 'url'>, keys: ConsoleKeys): ConsoleAccess {
  const header = request.headers[CONSOLE_TOKEN_HEADER];
  if (typeof header === 'string') {
    return _same(header, keys.token)
      ? { ok: true, via: 'header' }
      : { ok: false, status: 401, reason: `${CONSOLE_TOKEN_HEADER}: not this run's token` };
  }
  const query = new URL(request.url ?? '/', 'http://console').searchParams.get('token');
  if (query !== null) {
    return _same(query, keys.token)
      ? { ok: true, via: 'query' }
      : { ok: false, status: 401, reason: "?token=: not this run's token (copy the URL from the banner)" };
  }
  const cookie = _cookie(request.headers.cookie, keys.cookieName);
  if (cookie !== undefined && _same(cookie, keys.cookieValue)) return { ok: true, via: 'cookie' };
  return { ok: false, status: 401, reason: _cookieRefusal(cookie, keys) };
}

/** Why the cookie (or its absence) does not admit the request. */
function _cookieRefusal(cookie: string | undefined, keys: ConsoleKeys): string {
  if (cookie === undefined) {
    return `no console token: no ${keys.cookieName} cookie; open the URL printed in the banner (it carries ?token=)`;
  }
  const minted = /^(\d+)\./.exec(cookie)?.[1];
  if (minted !== undefined && Number(minted) !== keys.port) {
    return `the ${keys.cookieName} cookie was minted for the console on port ${minted}, not this one (${keys.port}): open the URL printed in the banner`;
  }
  return `the ${keys.cookieName} cookie is not this run's: open the URL printed in the banner`;
}

/** Why a state-changing request's CSRF header does not pass, or undefined when it does. */
function _csrfRefusal(
  value: string | string[] | undefined,
  keys: ConsoleKeys,
  method: string,
): ConsoleAccess | undefined {
  if (value === undefined) {
    return {
      ok: false,
      status: 403,
      reason: `X-XP-Console-CSRF: missing; a ${method} needs this run's CSRF token, which the console page gets from the banner URL`,
    };
  }
  if (typeof value === 'string' && _same(value, keys.csrf)) return undefined;
  return {
    ok: false,
    status: 403,
    reason:
      "X-XP-Console-CSRF: not this run's CSRF token; reload the console from the URL printed in the banner",
  };
}

/** Compares in time independent of where they differ: both sides are hashed to 32 bytes first. */
function _same(a: string, b: string): boolean {
  const digest = (text: string) => createHmac('sha256', 'xp-console compare').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function _cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
