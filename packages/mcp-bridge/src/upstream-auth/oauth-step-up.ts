/**
 * Authorizing again in the middle of a call (docs/security.md, "OAuth to upstream servers"): when
 * the upstream answers `403` with `error="insufficient_scope"` (a scope step-up) or names a new
 * authorization server in its protected-resource metadata (a migration), the adapter asks for a
 * new grant. With the authorization code grant a person must approve it: the URL goes to the MCP
 * client of the face through URL-mode elicitation (the call's {@link AuthorizationAsker}), the
 * browser's redirect comes back to a loopback listener as for `login`, and the call is sent once
 * more. A client that cannot show a URL, or a request no client waits on, gets an error naming
 * the source and the `login` command instead. A scope is asked for again only when the challenge
 * adds one the grant did not ask for, so a server that refuses every scope cannot loop.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { _currentAsker, AuthorizationNeededError } from '../upstream/authorization-asker.js';
import { _authorizeWithCode } from './oauth-code-flow.js';
import type { DiscoveredAuthorization } from './oauth-discovery.js';
import type { StoredGrant } from './oauth-grant.js';
import type { OAuthClient } from './oauth-token-request.js';
import type { MetadataUrlRules } from './oauth-url-check.js';

/** The space-separated union of `scopes` in first-seen order; `undefined` when empty. */
export function _scopeUnion(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set<string>();
  for (const scope of scopes) for (const one of (scope ?? '').split(/\s+/)) if (one) all.add(one);
  return all.size === 0 ? undefined : [...all].join(' ');
}

/** True when `wanted` names a scope `have` does not. */
export function _addsScope(have: string | undefined, wanted: string | undefined): boolean {
  const held = new Set((have ?? '').split(/\s+/).filter(Boolean));
  return (wanted ?? '').split(/\s+/).some((one) => one !== '' && !held.has(one));
}

/** Options of {@link _reauthorizeThroughFace}. */
export interface _ReauthorizeOptions {
  rules: MetadataUrlRules;
  discovered: DiscoveredAuthorization;
  /** The client to use; `undefined` registers a new one (always, at a new authorization server). */
  client: OAuthClient | undefined;
  clientMetadataUrl: string | undefined;
  scope: string | undefined;
  /** Why a new authorization is needed, for the person and for errors. */
  why: string;
  timeoutMs: number;
}

/**
 * A new grant by the authorization code flow, its URL shown to the person behind the current call
 * through the face client's URL-mode elicitation. Rejects with a `BridgeError`
 * (`UPSTREAM_UNAVAILABLE`) naming the source, why, and the `login` command to run when there is
 * no one to ask, or with the flow's own error.
 */
export async function _reauthorizeThroughFace(options: _ReauthorizeOptions): Promise<StoredGrant> {
  const { rules } = options;
  const asker = _currentAsker();
  if (!asker?.canShowUrl) {
    const who = asker
      ? `${asker.who} cannot open a URL (it did not declare the elicitation.url capability)`
      : 'no MCP client is waiting on this request to open the authorization URL';
    const scope = options.scope ? ` with auth.scope "${options.scope}"` : '';
    throw new AuthorizationNeededError(
      `MCP source "${rules.source}": ${options.why}, and ${who}; run \`xprotocol-adapter login ${rules.source}\`${scope} to authorize again`,
    );
  }
  return _authorizeWithCode({
    rules,
    discovered: options.discovered,
    client: options.client,
    clientMetadataUrl: options.clientMetadataUrl,
    scope: options.scope,
    present: async (url) => {
      const said = await asker.ask({
        url,
        id: randomUUID(),
        message: `The MCP server behind "${rules.source}" needs a new authorization (${options.why}). Open this URL to approve it at ${options.discovered.server.issuer}; the call goes on once you have.`,
      });
      return said === 'accept' ? 'shown' : 'abandon';
    },
    timeoutMs: options.timeoutMs,
    what: 'authorization',
  });
}
