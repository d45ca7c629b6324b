/**
 * OAuth 2 client credentials for an OpenAPI source (docs/security.md, "OpenAPI sources"): the
 * token is asked of the `tokenUrl` the document's `oauth2` scheme names for the `clientCredentials`
 * flow, by the token request of `upstream-auth/` (the secret sent with HTTP Basic, RFC 8707
 * `resource` set to the base URL, a Bearer token required, a JWT for another audience refused, the
 * URL checked: `https`, or `http` on the base URL's own origin, through the address policy). A
 * token is kept until 60 s before it expires, or until the service answers 401; one request per
 * scheme at a time.
 * @module
 */
import type { AddressPolicy } from '@xprotocol/relay-client';
import { _requestToken } from '../upstream-auth/oauth-token-request.js';

/** How long before its expiry a token is replaced. */
const EARLY_MS = 60_000;

/** One scheme's client credentials (the secret: never logged). */
export interface ClientCredentials {
  type: 'client_credentials';
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for; absent: none asked. */
  scope?: string;
}

/** Options of {@link OpenApiTokens}. */
export interface OpenApiTokensOptions {
  source: string;
  addressPolicy?: AddressPolicy;
}

/** The tokens of one OpenAPI source, by security scheme. */
export class OpenApiTokens {
  readonly #o: OpenApiTokensOptions;
  readonly #tokens = new Map<string, Promise<{ token: string; expiresAt: number | undefined }>>();

  constructor(options: OpenApiTokensOptions) {
    this.#o = options;
  }

  /**
   * A token for `scheme`, from the cache or asked of `tokenUrl` now. Rejects with a `BridgeError`
   * (`UPSTREAM_UNAVAILABLE`) naming what the token endpoint refused; never with a secret.
   */
  async token(
    scheme: string,
    tokenUrl: string,
    baseUrl: string,
    credentials: ClientCredentials,
  ): Promise<string> {
    const cached = this.#tokens.get(scheme);
    if (cached) {
      const held = await cached.catch(() => undefined);
      if (held && (held.expiresAt === undefined || held.expiresAt - EARLY_MS > Date.now())) return held.token;
      if (this.#tokens.get(scheme) !== cached) return this.token(scheme, tokenUrl, baseUrl, credentials);
    }
    const asking = _requestToken(
      new URL(tokenUrl, baseUrl).href,
      { grant_type: 'client_credentials', ...(credentials.scope && { scope: credentials.scope }) },
      {
        client: { clientId: credentials.clientId, clientSecret: credentials.clientSecret },
        resource: baseUrl,
        rules: {
          source: this.#o.source,
          serverUrl: baseUrl,
          ...(this.#o.addressPolicy && { addressPolicy: this.#o.addressPolicy }),
        },
      },
    ).then((tokens) => ({ token: tokens.accessToken, expiresAt: tokens.expiresAt }));
    this.#tokens.set(scheme, asking);
    asking.catch(() => {
      if (this.#tokens.get(scheme) === asking) this.#tokens.delete(scheme);
    });
    return (await asking).token;
  }

  /** Forgets the token of each of `schemes` (the service answered 401: the next call asks again). */
  forget(schemes: readonly string[]): void {
    for (const scheme of schemes) this.#tokens.delete(scheme);
  }
}
