/**
 * The check every URL learned from OAuth metadata passes before it is used (docs/security.md,
 * "OAuth to upstream servers"): a protected-resource document, an authorization server's metadata
 * and a challenge name URLs the adapter then fetches or prints, so a hostile server could name a
 * `file:` or `javascript:` URL, a string made to be run by a shell, or an address on the private
 * network. Such a URL is refused here, before any fetch and before any print; the address policy
 * then checks every address actually dialled (oauth-fetch.ts).
 * @module
 */
import type { AddressPolicy } from '@xprotocol/relay-client';
import { BridgeError } from '../errors.js';

/** What a metadata URL is checked against. */
export interface MetadataUrlRules {
  /** The source the URL was learned for, the subject of the errors. */
  source: string;
  /**
   * The configured MCP server URL: a URL of its own origin is as trusted as the configuration
   * (its scheme and address are the operator's choice).
   */
  serverUrl: string;
  /** `http` to a loopback address is accepted (tests, development); default refused. */
  allowInsecureLoopback?: boolean;
  /** Addresses outside it are refused; without it, only the scheme and the text are checked. */
  addressPolicy?: AddressPolicy;
}

/** Characters a shell, a terminal or a header would read as something else. */
const _UNSAFE = /[\u0000-\u001f\u007f\s"'`$;|&<>(){}\\^]/;

/**
 * `text` as a URL when it is safe to fetch or show: absolute, `https` (or `http` on the server's
 * own origin, or to loopback with `allowInsecureLoopback`), no user or password, no control,
 * space or shell metacharacter, and its host allowed by the address policy when it is an IP
 * literal or `localhost` (a host name is checked when resolved). Throws a `BridgeError`
 * (`UPSTREAM_UNAVAILABLE`) naming `what`, the URL (quoted, cut to 200 characters) and the rule.
 */
export function _checkMetadataUrl(text: unknown, what: string, rules: MetadataUrlRules): URL {
  const refuse = (why: string): never => {
    const shown = typeof text === 'string' ? JSON.stringify(text.slice(0, 200)) : String(typeof text);
    throw new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      `MCP source "${rules.source}": OAuth refused: ${what} ${shown} ${why}`,
    );
  };
  if (typeof text !== 'string' || text === '') return refuse('is not a URL (expected an https:// URL)');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'https' && scheme !== 'http')
    return refuse(`uses the ${scheme}: scheme (expected https)`);
  if (_UNSAFE.test(text))
    return refuse(
      'holds a control character, a space or a shell metacharacter (expected a plain https:// URL)',
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('is not an absolute URL (expected an https:// URL)');
  }
  if (url.username || url.password) return refuse('carries a user name or password (expected none)');
  const sameOrigin = url.origin === new URL(rules.serverUrl).origin;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (sameOrigin || _insecureOk(url, rules))))
    return refuse(
      url.protocol === 'http:'
        ? 'uses http (expected https; http is accepted only to loopback with auth.allow_insecure_loopback)'
        : `uses the ${url.protocol} scheme (expected https)`,
    );
  if (!sameOrigin && rules.addressPolicy) {
    const decision = rules.addressPolicy.checkUrl(url.href);
    if (!decision.ok) return refuse(`is refused by the address policy: ${decision.reason}`);
  }
  return url;
}

function _insecureOk(url: URL, rules: MetadataUrlRules): boolean {
  if (!rules.allowInsecureLoopback) return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
