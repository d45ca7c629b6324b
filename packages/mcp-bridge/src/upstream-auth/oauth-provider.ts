/**
 * The adapter as an OAuth 2.1 client of one HTTP upstream (docs/security.md, "OAuth to upstream
 * servers"): the SDK's transport asks {@link UpstreamOAuth.token} before every request and calls
 * {@link UpstreamOAuth.onUnauthorized} on a 401. The first 401 starts discovery from its challenge
 * (oauth-discovery.ts); with client credentials a token is then asked for, with a stored grant
 * (from `xprotocol-adapter login`) the refresh token is used. A token is refreshed a minute before
 * it expires and on a 401, one refresh at a time per source (callers meanwhile wait for the same
 * one), and a rotated refresh token replaces the old one in the store at once. Tokens are kept
 * per source and per server URL and issuer: a token is only ever sent to the server it was issued
 * for, and a face client's own token never reaches this code.
 * @module
 */
import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import type { AddressPolicy } from '@xprotocol/relay-client';
import { BridgeError } from '../errors.js';
import {
  type DiscoveredAuthorization,
  discoverAuthorization,
  parseBearerChallenge,
} from './oauth-discovery.js';
import type { StoredGrant, UpstreamTokenStore } from './oauth-grant.js';
import { _addsScope, _reauthorizeThroughFace, _scopeUnion } from './oauth-step-up.js';
import { _requestToken, _withAuthMethod, type OAuthClient } from './oauth-token-request.js';
import type { MetadataUrlRules } from './oauth-url-check.js';

/** Options of {@link UpstreamOAuth}. */
export interface UpstreamOAuthOptions {
  source: string;
  /** The MCP server URL (the configured one). */
  serverUrl: string;
  /**
   * `client_credentials`: machine to machine, `client` required; `authorization_code`: the grant
   * stored by `xprotocol-adapter login`, refreshed here.
   */
  grant: 'client_credentials' | 'authorization_code';
  client?: OAuthClient;
  /** Asked for instead of the challenge's or the metadata's scope. */
  scope?: string;
  /**
   * A Client ID Metadata Document URL: the client id at an authorization server that accepts
   * one, when no client is configured (a re-authorization in a call registers otherwise).
   */
  clientMetadataUrl?: string;
  /** How long a re-authorization in a call waits for the browser's redirect; default 120 000 ms. */
  reauthorizeTimeoutMs?: number;
  allowInsecureLoopback?: boolean;
  addressPolicy?: AddressPolicy;
  store?: UpstreamTokenStore;
  /** Refresh this long before expiry; default 60 000 ms. */
  refreshSkewMs?: number;
  now?: () => number;
}

/** The OAuth client of one upstream: an SDK `AuthProvider`. */
export class UpstreamOAuth implements AuthProvider {
  readonly #o: UpstreamOAuthOptions;
  #grant: StoredGrant | undefined;
  #loaded = false;
  /** The refresh or grant in flight: every caller waits for this one. */
  #pending: Promise<void> | undefined;
  /** The access token each answer of the transport's fetch was asked with. */
  readonly #sentWith = new WeakMap<Response, string>();

  constructor(options: UpstreamOAuthOptions) {
    if (options.grant === 'client_credentials' && !options.client)
      throw new BridgeError(
        'INVALID_OPTIONS',
        `MCP source "${options.source}": client credentials need a client`,
      );
    this.#o = options;
  }

  /** The rules every metadata URL of this source is checked with. */
  get rules(): MetadataUrlRules {
    return {
      source: this.#o.source,
      serverUrl: this.#o.serverUrl,
      ...(this.#o.allowInsecureLoopback && { allowInsecureLoopback: true }),
      ...(this.#o.addressPolicy && { addressPolicy: this.#o.addressPolicy }),
    };
  }

  /** The access token for the next request, refreshed first when it is about to expire. */
  async token(): Promise<string | undefined> {
    await this.#load();
    // A refresh in flight: its token, not the one it replaces (its failure is the 401's to say).
    await this.#pending?.catch(() => {});
    const grant = this.#grant;
    if (!grant) return undefined;
    const expiresAt = grant.tokens.expiresAt;
    const skew = this.#o.refreshSkewMs ?? 60_000;
    if (expiresAt !== undefined && this.#now() >= expiresAt - skew)
      await this.#once(() => this.#renew(undefined));
    return this.#grant?.tokens.accessToken;
  }

  /**
   * `fetch` noting the bearer token of each request by its answer, so that {@link onUnauthorized}
   * can tell a 401 for the current token from one for a token already replaced.
   */
  watchFetch(fetch: FetchLike): FetchLike {
    const send: FetchLike = async (url, init) => {
      const sent = /^Bearer (.+)$/i.exec(new Headers(init?.headers).get('authorization') ?? '')?.[1];
      const response = await fetch(url, init);
      if (sent !== undefined) this.#sentWith.set(response, sent);
      return response;
    };
    return async (url, init) => {
      const response = await send(url, init);
      if (response.status !== 403) return response;
      const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
      if (challenge.error !== 'insufficient_scope') return response;
      // A body that cannot be sent twice (a stream) leaves the 403 to the caller.
      if (init?.body !== undefined && init.body !== null && typeof init.body !== 'string') return response;
      await response.body?.cancel().catch(() => {});
      await this.#once(() => this.#stepUp(challenge));
      // Once: a second 403 goes back to the caller as it is (no loop).
      const headers = new Headers(init?.headers);
      const token = this.#grant?.tokens.accessToken;
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      return send(url, { ...init, headers });
    };
  }

  /**
   * A `403 insufficient_scope`: a new grant for the union of the scope held and the one the
   * challenge names (client credentials ask for it; the authorization code grant asks the person
   * through the face client). A challenge that adds no scope is refused here: asking again for
   * what was granted would loop.
   */
  async #stepUp(challenge: ReturnType<typeof parseBearerChallenge>): Promise<void> {
    const grant = this.#grant;
    const have = _scopeUnion(grant?.scope, grant?.tokens.scope);
    const wanted = _scopeUnion(have ?? this.#o.scope, challenge.scope);
    if (!_addsScope(have, challenge.scope))
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `MCP source "${this.#o.source}": the server refused the call for insufficient scope${challenge.scope ? ` (it asks for "${challenge.scope.slice(0, 200)}")` : ''}, which the grant already has or asked for; not authorizing again (check the scopes the authorization server grants)`,
      );
    const discovered = await discoverAuthorization(challenge, this.rules);
    if (this.#o.grant === 'client_credentials') {
      await this.#clientCredentials(discovered, wanted);
      return;
    }
    const sameServer = grant !== undefined && grant.issuer === discovered.server.issuer;
    await this.#keep(
      await _reauthorizeThroughFace({
        rules: this.rules,
        discovered,
        // A client registered at another server is never shown to this one.
        client: sameServer ? grant.client : this.#o.client,
        clientMetadataUrl: this.#o.clientMetadataUrl,
        scope: wanted,
        why: `the call needs the scope "${wanted ?? ''}"`,
        timeoutMs: this.#o.reauthorizeTimeoutMs ?? 120_000,
      }),
    );
  }

  /**
   * A 401: discover (from its challenge) when needed, then refresh or ask for a new token. A 401
   * for a token that a refresh has replaced since (calls sent while it ran) needs no other one:
   * the transport's retry takes the new token.
   */
  async onUnauthorized(context: { response: Response }): Promise<void> {
    const sent = this.#sentWith.get(context.response);
    if (sent !== undefined && this.#grant && sent !== this.#grant.tokens.accessToken) return;
    const challenge = parseBearerChallenge(context.response.headers.get('www-authenticate'));
    await this.#once(() => this.#renew(challenge));
  }

  async #once(work: () => Promise<void>): Promise<void> {
    if (!this.#pending)
      this.#pending = work().finally(() => {
        this.#pending = undefined;
      });
    await this.#pending;
  }

  async #load(again = false): Promise<void> {
    if (this.#loaded && !again) return;
    this.#loaded = true;
    const stored = await this.#o.store?.load(this.#o.source);
    // A grant for another server URL stays where it is: its tokens are not for this server.
    if (stored && stored.serverUrl === this.#o.serverUrl) this.#grant = stored;
  }

  /** Refreshes, or (client credentials) asks again; `challenge` set: the server refused the token. */
  async #renew(challenge: ReturnType<typeof parseBearerChallenge> | undefined): Promise<void> {
    // A `login` run since (by another process) wrote a newer grant: read the store again.
    await this.#load(this.#o.grant === 'authorization_code');
    const grant = this.#grant;
    // The server's 401 may mean its authorization server changed: its metadata says which it is.
    const moved = grant && challenge ? await this.#movedFrom(grant, challenge) : undefined;
    if (grant && moved) {
      await this.#migrate(grant, moved);
      return;
    }
    if (grant?.tokens.refreshToken) {
      try {
        await this.#refresh(grant, grant.tokens.refreshToken);
        return;
      } catch (error) {
        if (this.#o.grant !== 'client_credentials') {
          const movedNow = challenge ? undefined : await this.#movedFrom(grant, {});
          if (movedNow) {
            await this.#migrate(grant, movedNow);
            return;
          }
          throw this.#loginAgain(error);
        }
      }
    }
    if (this.#o.grant !== 'client_credentials') {
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        grant
          ? `MCP source "${this.#o.source}": the access token was refused and there is no refresh token; run \`xprotocol-adapter login ${this.#o.source}\` to authorize again`
          : `MCP source "${this.#o.source}": not authorized yet; run \`xprotocol-adapter login ${this.#o.source}\` once`,
      );
    }
    const discovered = await discoverAuthorization(challenge ?? {}, this.rules);
    await this.#clientCredentials(discovered);
  }

  /**
   * The authorization server the resource's metadata names now, when it is not the one `grant`
   * came from; `undefined` when it is the same. Metadata that cannot be read or is refused (a
   * hostile new server) fails the request with that reason: the old grant is not for this
   * resource's server any longer, or the resource cannot say which one is.
   */
  async #movedFrom(
    grant: StoredGrant,
    challenge: ReturnType<typeof parseBearerChallenge>,
  ): Promise<DiscoveredAuthorization | undefined> {
    const discovered = await discoverAuthorization(challenge, this.rules);
    return discovered.server.issuer !== grant.issuer ? discovered : undefined;
  }

  /**
   * The resource moved to another authorization server: register there and authorize again
   * through the face (authorization code). The old server's tokens, client id and secret are
   * never sent to the new one; a configured client of client credentials cannot follow.
   */
  async #migrate(grant: StoredGrant, discovered: DiscoveredAuthorization): Promise<void> {
    const why = `its authorization server changed from ${grant.issuer} to ${discovered.server.issuer}`;
    if (this.#o.grant === 'client_credentials')
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `MCP source "${this.#o.source}": ${why}; the configured client is ${grant.issuer}'s and is not sent to another server: configure auth.client_id and its secret for ${discovered.server.issuer}`,
      );
    await this.#keep(
      await _reauthorizeThroughFace({
        rules: this.rules,
        discovered,
        client: undefined,
        clientMetadataUrl: this.#o.clientMetadataUrl,
        scope: this.#o.scope ?? discovered.scope,
        why,
        timeoutMs: this.#o.reauthorizeTimeoutMs ?? 120_000,
      }),
    );
  }

  async #clientCredentials(discovered: DiscoveredAuthorization, wanted?: string): Promise<void> {
    const client = _withAuthMethod(this.#o.client as OAuthClient, discovered.server);
    const scope = wanted ?? this.#o.scope ?? discovered.scope;
    const tokens = await _requestToken(
      discovered.server.tokenEndpoint,
      { grant_type: 'client_credentials', ...(scope && { scope }) },
      { client, resource: discovered.resource, rules: this.rules, ...(this.#o.now && { now: this.#o.now }) },
    );
    await this.#keep({
      serverUrl: this.#o.serverUrl,
      issuer: discovered.server.issuer,
      resource: discovered.resource,
      tokenEndpoint: discovered.server.tokenEndpoint,
      client,
      tokens,
      ...(scope && { scope }),
    });
  }

  async #refresh(grant: StoredGrant, refreshToken: string): Promise<void> {
    const tokens = await _requestToken(
      grant.tokenEndpoint,
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      {
        client: grant.client,
        resource: grant.resource,
        rules: this.rules,
        ...(this.#o.now && { now: this.#o.now }),
      },
    );
    // Without a new refresh token the old one stays valid (RFC 6749 §6); with one, it replaced it.
    await this.#keep({ ...grant, tokens: { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken } });
  }

  async #keep(grant: StoredGrant): Promise<void> {
    this.#grant = grant;
    await this.#o.store?.save(this.#o.source, grant);
  }

  #loginAgain(error: unknown): BridgeError {
    const why =
      error instanceof Error ? error.message.replace(/^MCP source "[^"]*": OAuth: /, '') : String(error);
    return new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      `MCP source "${this.#o.source}": the refresh token was refused (${why}); run \`xprotocol-adapter login ${this.#o.source}\` to authorize again`,
    );
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }
}
