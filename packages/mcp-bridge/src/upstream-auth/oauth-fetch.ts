/**
 * The one way the OAuth client talks to the network: each URL is checked first
 * (oauth-url-check.ts), a host name is resolved through the address policy and the socket
 * connects to a checked address (the upstream's pinned fetch), redirects are not followed (a 3xx
 * is an error naming where it pointed), and a body is read with a cap while it streams
 * (`outbound/`): a hostile authorization server can neither send the adapter elsewhere nor
 * exhaust its memory.
 * @module
 */

import { BridgeError } from '../errors.js';
import { readCappedBody } from '../outbound/capped-body.js';
import { _pinnedFetch } from '../upstream/pinned-fetch.js';
import { _checkMetadataUrl, type MetadataUrlRules } from './oauth-url-check.js';

/** The most bytes of one metadata document or token response read (64 KiB). */
export const OAUTH_MAX_BODY_BYTES = 64 * 1024;

/** How long one OAuth request may take before it is abandoned (15 s). */
const _REQUEST_TIMEOUT_MS = 15_000;

/** One answer of {@link _oauthRequest}: the status, the headers and the whole (capped) body. */
export interface OAuthAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Sends one request to `url` (checked by the rules first; `what` names it in errors) and reads
 * the whole answer. Rejects with a `BridgeError` (`UPSTREAM_UNAVAILABLE`) when the URL is refused,
 * the connection fails (an address the policy refuses included), the server redirects, or the
 * body passes {@link OAUTH_MAX_BODY_BYTES}.
 */
export async function _oauthRequest(
  url: string,
  what: string,
  rules: MetadataUrlRules,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<OAuthAnswer> {
  const checked = _checkMetadataUrl(url, what, rules);
  const fail = (why: string): never => {
    throw new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      `MCP source "${rules.source}": OAuth: ${what} ${checked.href} ${why}`,
    );
  };
  const fetch = rules.addressPolicy ? _pinnedFetch(rules.addressPolicy.lookup) : globalThis.fetch;
  let response: Response;
  try {
    response = await fetch(checked.href, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    return fail(`could not be reached: ${_reason(error)}`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => {});
    return fail(
      `answered a redirect (HTTP ${response.status}) to ${JSON.stringify((response.headers.get('location') ?? '').slice(0, 200))}; redirects are not followed`,
    );
  }
  if (!response.body) return { status: response.status, headers: response.headers, text: '' };
  const bytes = await readCappedBody(response.body, {
    maxBytes: OAUTH_MAX_BODY_BYTES,
    what: `${what} ${checked.href}`,
    declaredLength: response.headers.get('content-length'),
  });
  return { status: response.status, headers: response.headers, text: new TextDecoder().decode(bytes) };
}

/** The innermost useful message of a fetch failure (`EADDRNOTALLOWED …`, `ECONNREFUSED`). */
function _reason(error: unknown): string {
  let current: unknown = error;
  let message = 'unknown error';
  while (current instanceof Error) {
    const code = (current as { code?: unknown }).code;
    message =
      typeof code === 'string' && !current.message.includes(code)
        ? `${current.message} (${code})`
        : current.message;
    current = current.cause;
  }
  return message;
}
