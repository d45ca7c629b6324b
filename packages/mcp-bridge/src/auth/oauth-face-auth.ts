/**
 * The MCP face as an OAuth 2.1 resource server (the MCP authorization spec; docs/security.md,
 * "OAuth on the MCP face"). Each request carries a JWT access token, checked through the
 * authorization server's JWKS (`jose`): signature, issuer, audience (this resource, RFC 8707),
 * expiry. The principal is `<issuer> <subject>`; what it may call is the union of its token's
 * capability-shaped scopes (`com.acme.docs.read`, `com.acme.*`) and the grants configured for its
 * subject, which must be a non-empty string. Without a token the answer is 401 with
 * `resource_metadata` (RFC 9728), a bad token 401 `invalid_token`, a missing scope 403
 * `insufficient_scope`.
 *
 * What the authorization server sends is input too: its metadata and its JWKS are read through
 * the package's capped reader (outbound/), at most {@link MAX_METADATA_BYTES} and
 * {@link MAX_JWKS_BYTES}. A token naming a key the face has not seen makes it fetch the JWKS; a
 * JWKS over the cap refuses that token (401 `invalid_token`, "the token could not be checked")
 * and the face keeps the keys it read before.
 * @module
 */
import { anyCapabilityMatches } from '@xprotocol/translate';
import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from 'jose';
import { cappedFetch } from '../outbound/capped-fetch.js';
import {
  bearerToken,
  type FaceAuth,
  type FaceAuthRefusal,
  type FaceAuthVerdict,
  type FacePrincipal,
} from './face-auth.js';

/** Options of {@link OAuthFaceAuth}. */
export interface OAuthFaceAuthOptions {
  /** The authorization server's issuer identifier: a token's `iss` must be exactly this. */
  issuer: string;
  /** This resource's identifier (the face's public URL): a token's `aud` must include it. */
  resource: string;
  /** The JWKS URL; default: `jwks_uri` from the issuer's metadata (RFC 8414, then OpenID discovery). */
  jwksUrl?: string;
  /** Scopes every request needs. Default none. */
  requiredScopes?: readonly string[];
  /** Capabilities by token subject (`sub`), beyond what its scopes give. */
  grants?: readonly { subject: string; capabilities: readonly string[] }[];
  /** Scopes listed in the resource metadata. Default: the required scopes. */
  scopesSupported?: readonly string[];
  /** Clock skew allowed on `exp` and `nbf`, in s. Default 30. */
  clockToleranceSeconds?: number;
  /** Signature algorithms accepted. Default RS256, PS256, ES256, EdDSA (never `none`, never HMAC). */
  algorithms?: readonly string[];
}

/** The longest token read, in characters: a bigger one is refused before any work. */
const MAX_TOKEN_LENGTH = 16_384;
/** The largest JWKS read, in bytes (a few dozen keys take a few KiB); the read stops there. */
const MAX_JWKS_BYTES = 256 * 1024;
/** The largest authorization server metadata document read, in bytes; the read stops there. */
const MAX_METADATA_BYTES = 64 * 1024;

/** The JWKS fetch: bodies read through the capped reader, never more than {@link MAX_JWKS_BYTES}. */
const _jwksFetch = cappedFetch({ maxBytes: MAX_JWKS_BYTES, what: (url) => `the JWKS at ${url}` });
/** The metadata fetch (RFC 8414, OpenID discovery), at most {@link MAX_METADATA_BYTES}. */
const _metadataFetch = cappedFetch({
  maxBytes: MAX_METADATA_BYTES,
  what: () => 'the authorization server metadata',
});

/** An OAuth 2.1 resource server for the face. */
export class OAuthFaceAuth implements FaceAuth {
  readonly metadata: { path: string; document: Record<string, unknown> };
  readonly #o: OAuthFaceAuthOptions;
  readonly #metadataUrl: string;
  readonly #grants = new Map<string, string[]>();
  #jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  #discovering: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;

  constructor(options: OAuthFaceAuthOptions) {
    this.#o = options;
    const resource = new URL(options.resource);
    // RFC 9728 §3.1: the well-known segment goes between the host and the resource's path.
    const path = `/.well-known/oauth-protected-resource${resource.pathname === '/' ? '' : resource.pathname}`;
    this.#metadataUrl = `${resource.origin}${path}`;
    this.metadata = {
      path,
      document: {
        resource: options.resource,
        authorization_servers: [options.issuer],
        scopes_supported: [...(options.scopesSupported ?? options.requiredScopes ?? [])],
        bearer_methods_supported: ['header'],
      },
    };
    for (const grant of options.grants ?? []) {
      this.#grants.set(grant.subject, [...(this.#grants.get(grant.subject) ?? []), ...grant.capabilities]);
    }
    if (options.jwksUrl) this.#jwks = _remoteJwks(options.jwksUrl);
  }

  async authenticate(header: string | undefined): Promise<FaceAuthVerdict> {
    const given = bearerToken(header);
    // No token: where to get one (resource_metadata) and which scopes to ask for.
    if (!given.ok) {
      return { ok: false, refusal: this.#refusal(401, undefined, given.message, this.#o.requiredScopes) };
    }
    if (given.token.length > MAX_TOKEN_LENGTH) {
      return {
        ok: false,
        refusal: this.#refusal(401, 'invalid_token', `the token is over ${MAX_TOKEN_LENGTH} characters`),
      };
    }
    let claims: JWTPayload;
    try {
      const { payload } = await jwtVerify(given.token, await this.#keys(), {
        issuer: this.#o.issuer,
        audience: this.#o.resource,
        algorithms: [...(this.#o.algorithms ?? ['RS256', 'PS256', 'ES256', 'EdDSA'])],
        clockTolerance: this.#o.clockToleranceSeconds ?? 30,
        requiredClaims: ['exp', 'sub'],
      });
      claims = payload;
    } catch (error) {
      return { ok: false, refusal: this.#refusal(401, 'invalid_token', _why(error)) };
    }
    // A subject is the principal: `["bob"]` or `123` would read as a configured subject's name.
    if (typeof claims.sub !== 'string' || claims.sub === '') {
      return {
        ok: false,
        refusal: this.#refusal(
          401,
          'invalid_token',
          `the token's subject (sub) must be a non-empty string; got ${_kind(claims.sub)}`,
        ),
      };
    }
    const subject = claims.sub;
    const scopes = _scopes(claims);
    const missing = (this.#o.requiredScopes ?? []).filter((scope) => !scopes.includes(scope));
    if (missing.length > 0) {
      return {
        ok: false,
        refusal: this.#refusal(
          403,
          'insufficient_scope',
          `the token lacks the scope ${missing.join(' ')}`,
          missing,
        ),
      };
    }
    const principal: FacePrincipal = {
      id: `${this.#o.issuer} ${subject}`,
      // Scopes shaped like capabilities grant them; others (`mcp`, `openid`) only pass required-scope checks.
      capabilities: [
        ...scopes.filter((s) => s === '*' || s.includes('.')),
        ...(this.#grants.get(subject) ?? []),
      ],
    };
    return { ok: true, principal };
  }

  authorize(principal: FacePrincipal, capability: string, what = 'this tool'): FaceAuthRefusal | undefined {
    if (anyCapabilityMatches(principal.capabilities, capability)) return undefined;
    return this.#refusal(
      403,
      'insufficient_scope',
      `${what} needs the scope ${capability}; the token's scopes and grants give ${principal.capabilities.join(', ') || 'nothing'}`,
      [capability],
    );
  }

  /** The JWKS: configured, or found once from the issuer's metadata. */
  async #keys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.#jwks) return this.#jwks;
    this.#discovering ??= _discoverJwks(this.#o.issuer).then(
      (url) => {
        this.#jwks = _remoteJwks(url);
        return this.#jwks;
      },
      (error: unknown) => {
        this.#discovering = undefined;
        throw error;
      },
    );
    return this.#discovering;
  }

  #refusal(
    status: 401 | 403,
    error: string | undefined,
    message: string,
    scopes?: readonly string[],
  ): FaceAuthRefusal {
    const parts = [
      ...(error ? [`error="${error}"`, `error_description="${_quoted(message)}"`] : []),
      ...(scopes?.length ? [`scope="${_quoted(scopes.join(' '))}"`] : []),
      `resource_metadata="${this.#metadataUrl}"`,
    ];
    return { status, wwwAuthenticate: `Bearer ${parts.join(', ')}`, message };
  }
}

/** The issuer's `jwks_uri`: RFC 8414 metadata first, OpenID Connect discovery second. */
async function _discoverJwks(issuer: string): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname;
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
  ];
  const problems: string[] = [];
  for (const candidate of candidates) {
    try {
      const response = await _metadataFetch(candidate, {
        signal: AbortSignal.timeout(10_000),
        redirect: 'error',
      });
      if (!response.ok) {
        problems.push(`${candidate}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer) {
        problems.push(`${candidate}: names the issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
        continue;
      }
      if (typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
      problems.push(`${candidate}: no jwks_uri`);
    } catch (error) {
      problems.push(`${candidate}: ${(error as Error).message}`);
    }
  }
  throw new Error(`cannot find the JWKS of ${issuer}: ${problems.join('; ')}`);
}

/** A remote JWKS whose responses are read through the capped fetch. */
function _remoteJwks(url: string): ReturnType<typeof createRemoteJWKSet> {
  return createRemoteJWKSet(new URL(url), { [customFetch]: _jwksFetch });
}

/** What a claim's value is, for a refusal (its kind, never its content). */
function _kind(value: unknown): string {
  if (value === '') return 'an empty string';
  if (Array.isArray(value)) return 'an array';
  if (value === null || value === undefined) return 'none';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function _scopes(claims: JWTPayload): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  const scp = (claims as { scp?: unknown }).scp;
  return Array.isArray(scp) ? scp.filter((s): s is string => typeof s === 'string') : [];
}

/** A short reason a token was refused (no token content in it). */
function _why(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message ?? String(error);
  if (code === 'ERR_JWT_EXPIRED') return 'the token has expired';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return `the token's claims are not accepted: ${message}`;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'the token signature does not verify';
  if (code === 'ERR_JWKS_NO_MATCHING_KEY') return 'no key of the authorization server matches the token';
  if (typeof code === 'string' && code.startsWith('ERR_J')) return `the token is not valid: ${message}`;
  return `the token could not be checked: ${message}`;
}

/** `text` as a quoted-string of a header: no quote or backslash, and nothing but printable ASCII. */
function _quoted(text: string): string {
  return text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?');
}
