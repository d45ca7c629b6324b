/**
 * One request to an authorization server's token endpoint and the checks on its answer: the
 * client authenticates as configured (`client_secret_basic`, `client_secret_post`, or none for a
 * public client), the RFC 8707 `resource` is on every request, and the answer must be a Bearer
 * token. When the access token is a JWT whose `aud` is readable and names neither the resource nor
 * the client, it is refused: it was issued for another resource, and sending it there would hand
 * this server a token another server accepts (docs/security.md, "OAuth to upstream servers").
 * @module
 */
import { BridgeError } from '../errors.js';
import { _oauthRequest } from './oauth-fetch.js';
import type { MetadataUrlRules } from './oauth-url-check.js';

/** The client the adapter is at an authorization server. */
export interface OAuthClient {
  clientId: string;
  /** Absent for a public client (authorization code with PKCE only). */
  clientSecret?: string;
  /** How the secret is sent; default `client_secret_basic`. */
  authMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/**
 * `client` with the way it authenticates at the token endpoint settled: as configured or
 * registered, else none without a secret, else HTTP Basic unless the server lists only
 * `client_secret_post` among its `token_endpoint_auth_methods_supported` (RFC 8414 §2; Basic is
 * the default when the server lists none).
 */
export function _withAuthMethod(
  client: OAuthClient,
  server: { tokenAuthMethods: readonly string[] | undefined },
): OAuthClient {
  if (client.authMethod !== undefined) return client;
  if (client.clientSecret === undefined) return { ...client, authMethod: 'none' };
  const listed = server.tokenAuthMethods;
  const post =
    listed !== undefined && !listed.includes('client_secret_basic') && listed.includes('client_secret_post');
  return { ...client, authMethod: post ? 'client_secret_post' : 'client_secret_basic' };
}

/** Tokens as the adapter keeps them. */
export interface OAuthTokens {
  accessToken: string;
  /** Milliseconds since the epoch; `undefined` when the server gave no `expires_in`. */
  expiresAt: number | undefined;
  refreshToken: string | undefined;
  scope: string | undefined;
}

/**
 * Posts `params` (with `resource`) to `tokenEndpoint` as `client` and checks the answer. Rejects
 * with a `BridgeError` (`UPSTREAM_UNAVAILABLE`) carrying the server's `error` code and description
 * (the `invalid_grant` of a revoked refresh token among them: its message starts with
 * `invalid_grant`), or naming what the answer lacked. Never puts a token or secret in a message.
 */
export async function _requestToken(
  tokenEndpoint: string,
  params: Record<string, string>,
  context: { client: OAuthClient; resource: string; rules: MetadataUrlRules; now?: () => number },
): Promise<OAuthTokens> {
  const { client, resource, rules } = context;
  const body = new URLSearchParams({ ...params, resource });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const method = client.authMethod ?? (client.clientSecret === undefined ? 'none' : 'client_secret_basic');
  if (method === 'client_secret_basic' && client.clientSecret !== undefined) {
    const pair = `${_formEncode(client.clientId)}:${_formEncode(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    body.set('client_id', client.clientId);
    if (method === 'client_secret_post' && client.clientSecret !== undefined)
      body.set('client_secret', client.clientSecret);
  }
  const answer = await _oauthRequest(tokenEndpoint, 'the token endpoint', rules, {
    method: 'POST',
    headers,
    body: body.toString(),
  });
  const fail = (why: string): never => {
    throw new BridgeError('UPSTREAM_UNAVAILABLE', `MCP source "${rules.source}": OAuth: ${why}`);
  };
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(answer.text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      json = parsed as Record<string, unknown>;
  } catch {
    // Said below: an answer without the fields asked for.
  }
  if (answer.status !== 200) {
    const code = typeof json.error === 'string' ? json.error.slice(0, 100) : `HTTP ${answer.status}`;
    const description =
      typeof json.error_description === 'string' ? `: ${json.error_description.slice(0, 300)}` : '';
    return fail(`${code}${description} (the token endpoint refused the ${params.grant_type} request)`);
  }
  if (typeof json.access_token !== 'string' || json.access_token === '')
    return fail('the token endpoint answered without an access_token');
  if (typeof json.token_type !== 'string' || json.token_type.toLowerCase() !== 'bearer')
    return fail(
      `the token endpoint answered token_type ${JSON.stringify(json.token_type)} (expected Bearer)`,
    );
  const audience = _jwtAudience(json.access_token);
  if (audience && !audience.includes(resource) && !audience.includes(client.clientId))
    return fail(
      `the access token is for ${JSON.stringify(audience.join(' ').slice(0, 200))}, not for ${resource}; it was not used (RFC 8707: a token must be for the resource it is sent to)`,
    );
  const now = (context.now ?? Date.now)();
  const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : undefined;
  return {
    accessToken: json.access_token,
    expiresAt: expiresIn === undefined ? undefined : now + expiresIn * 1000,
    refreshToken:
      typeof json.refresh_token === 'string' && json.refresh_token ? json.refresh_token : undefined,
    scope: typeof json.scope === 'string' ? json.scope : undefined,
  };
}

/** The `aud` of a token that is a JWT (read, not verified: only the resource server can), else none. */
function _jwtAudience(token: string): string[] | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
    const aud = (payload as { aud?: unknown }).aud;
    if (typeof aud === 'string') return [aud];
    if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  } catch {
    // Not a JWT after all: an opaque token, whose audience only the server knows.
  }
  return undefined;
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic. */
function _formEncode(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}
