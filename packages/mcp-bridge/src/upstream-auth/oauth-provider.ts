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
import { _requestToken, _withAuthMethod, type OAuthClient, type OAuthTokens } from './oauth-token-request.js';
import type { MetadataUrlRules } from './oauth-url-check.js';

/** What is stored for one source after a grant: enough to refresh without asking anything again. */
export interface StoredGrant {
  /** The server URL the grant is for; a grant for another URL is never used. */
  serverUrl: string;
  issuer: string;
  resource: string;
  tokenEndpoint: string;
  /** The client the tokens were issued to (a registered one included). */
  client: OAuthClient;
  tokens: OAuthTokens;
}

/** Where grants are kept between runs (the state database, encrypted). */
export interface UpstreamTokenStore {
  load(source: string): Promise<StoredGrant | undefined>;
  save(source: string, grant: StoredGrant): Promise<void>;
}

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
    return async (url, init) => {
      const sent = /^Bearer (.+)$/i.exec(new Headers(init?.headers).get('authorization') ?? '')?.[1];
      const response = await fetch(url, init);
      if (sent !== undefined) this.#sentWith.set(response, sent);
      return response;
    };
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
    if (grant?.tokens.refreshToken) {
      try {
        await this.#refresh(grant, grant.tokens.refreshToken);
        return;
      } catch (error) {
        if (this.#o.grant !== 'client_credentials') throw this.#loginAgain(error);
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

  async #clientCredentials(discovered: DiscoveredAuthorization): Promise<void> {
    const client = _withAuthMethod(this.#o.client as OAuthClient, discovered.server);
    const scope = this.#o.scope ?? discovered.scope;
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
