/**
 * The one-time authorization of an upstream for `xprotocol-adapter login <source>` (docs/cli.md,
 * docs/security.md, "OAuth to upstream servers"): discovery as for any 401, then the
 * authorization code flow of oauth-code-flow.ts with its URL printed, and the grant stored. The
 * authorization URL is only printed: nothing here opens a browser or runs a shell.
 * @module
 */

import { _authorizeWithCode } from './oauth-code-flow.js';
import { discoverAuthorization, parseBearerChallenge } from './oauth-discovery.js';
import { _oauthRequest } from './oauth-fetch.js';
import type { StoredGrant, UpstreamTokenStore } from './oauth-grant.js';
import type { OAuthClient } from './oauth-token-request.js';
import type { MetadataUrlRules } from './oauth-url-check.js';

/** Options of {@link loginToUpstream}. */
export interface UpstreamLoginOptions {
  rules: MetadataUrlRules;
  /** The configured client; without it, a client is registered (RFC 7591). */
  client?: OAuthClient;
  /**
   * The Client ID Metadata Document URL (`auth.client_metadata_url`), the client id at a server
   * that accepts one when no client is configured.
   */
  clientMetadataUrl?: string;
  scope?: string;
  store: UpstreamTokenStore;
  /** Shows the authorization URL (and what to do) to the user. */
  print: (line: string) => void;
  /** How long to wait for the browser's redirect; default 300 000 ms. */
  timeoutMs?: number;
}

/**
 * Runs the authorization code flow for `rules.source` and stores the grant. Rejects with a
 * `BridgeError` (`UPSTREAM_UNAVAILABLE`) naming what failed: discovery, a server without PKCE
 * S256, no client and no registration, a redirect with the wrong `state` or an `error`, no
 * redirect in time, or the token endpoint's refusal.
 */
export async function loginToUpstream(options: UpstreamLoginOptions): Promise<StoredGrant> {
  const { rules } = options;
  const discovered = await discoverAuthorization(await _challenge(rules), rules);
  const grant = await _authorizeWithCode({
    rules,
    discovered,
    client: options.client,
    clientMetadataUrl: options.clientMetadataUrl,
    scope: options.scope ?? discovered.scope,
    present: (url) => {
      options.print(`Open this URL in a browser to authorize ${rules.source}:\n${url}\n`);
      return 'shown';
    },
    timeoutMs: options.timeoutMs ?? 300_000,
    what: 'login',
  });
  await options.store.save(rules.source, grant);
  return grant;
}

/** The server's 401 challenge to a request without a token (none when it does not answer 401). */
async function _challenge(rules: MetadataUrlRules): Promise<ReturnType<typeof parseBearerChallenge>> {
  const answer = await _oauthRequest(rules.serverUrl, 'the MCP server', rules, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
  });
  return answer.status === 401 ? parseBearerChallenge(answer.headers.get('www-authenticate')) : {};
}
