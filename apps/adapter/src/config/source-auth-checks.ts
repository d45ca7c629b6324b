/**
 * The rules of one `mcp_sources[].auth` mapping that relate its keys (docs/config.md, "auth of an
 * MCP source"): `bearer` takes `token_env` and nothing of OAuth; `oauth` takes no `token_env`, and
 * with `client_credentials` needs `client_id` and `client_secret_env`, whose variable must hold
 * the secret; `client_metadata_url` is an https URL with a path and no fragment (a Client ID
 * Metadata Document), for `authorization_code` only. Checked on the raw values with the other
 * cross-checks.
 * @module
 */
import type { _Collector } from './_collector.js';
import type { KeyPath } from './_path.js';

const _OAUTH_KEYS = [
  'grant',
  'client_id',
  'client_secret_env',
  'scope',
  'client_metadata_url',
  'allow_insecure_loopback',
];

/** Checks `auth` (the raw mapping at `at()`); `env` is where the secrets' variables are read. */
export function _sourceAuthChecks(
  c: _Collector,
  auth: Record<string, unknown> | undefined,
  at: (...rest: string[]) => KeyPath,
  env: Readonly<Record<string, string | undefined>>,
): void {
  if (auth === undefined) return;
  const type = auth.type ?? 'bearer';
  if (type === 'bearer') {
    // A misspelt key (`token:`) is already named by the shape check, with the key it meant.
    const misspelt = Object.keys(auth).some(
      (key) => key !== 'type' && key !== 'token_env' && !_OAUTH_KEYS.includes(key),
    );
    if (!Object.hasOwn(auth, 'token_env') && !misspelt)
      c.error(
        at('token_env'),
        'missing, expected the name of the variable holding the bearer token (or type: oauth)',
        'key',
      );
    for (const key of _OAUTH_KEYS)
      if (Object.hasOwn(auth, key)) c.error(at(key), `${key} applies to type "oauth", not "bearer"`, 'key');
    return;
  }
  if (type !== 'oauth') return;
  if (Object.hasOwn(auth, 'token_env'))
    c.error(
      at('token_env'),
      'token_env applies to type "bearer"; with type "oauth" the adapter gets its own tokens',
      'key',
    );
  if ((auth.grant ?? 'authorization_code') === 'client_credentials') {
    for (const key of ['client_id', 'client_secret_env'])
      if (!Object.hasOwn(auth, key))
        c.error(
          at(key),
          `missing, expected ${key === 'client_id' ? 'the client id' : 'the name of the variable holding the client secret'}: grant "client_credentials" authenticates the adapter as a confidential client`,
          'key',
        );
  }
  if (typeof auth.client_metadata_url === 'string')
    _clientMetadataUrlCheck(c, auth.client_metadata_url, auth.grant ?? 'authorization_code', () =>
      at('client_metadata_url'),
    );
  const secretEnv = auth.client_secret_env;
  if (typeof secretEnv === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(secretEnv) && !env[secretEnv])
    c.error(
      at('client_secret_env'),
      `environment variable ${secretEnv} is ${env[secretEnv] === undefined ? 'not set' : 'empty'}: it must hold the client secret`,
    );
}

/**
 * A Client ID Metadata Document's URL is the client id itself: https (the server fetches it), a
 * path other than `/`, no fragment, no credentials, and only for the authorization code grant.
 */
function _clientMetadataUrlCheck(c: _Collector, text: string, grant: unknown, at: () => KeyPath): void {
  if (grant === 'client_credentials') {
    c.error(
      at(),
      'client_metadata_url applies to grant "authorization_code"; client credentials use client_id and client_secret_env',
      'key',
    );
    return;
  }
  const url = URL.canParse(text) ? new URL(text) : undefined;
  const wrong =
    url === undefined
      ? 'is not a URL'
      : url.protocol !== 'https:'
        ? `has scheme ${url.protocol.replace(/:$/, '')}`
        : url.pathname === '/' || url.pathname === ''
          ? 'has no path'
          : text.includes('#')
            ? 'has a fragment'
            : url.username || url.password
              ? 'has credentials in it'
              : undefined;
  if (wrong !== undefined)
    c.error(
      at(),
      `${JSON.stringify(text.slice(0, 200))} ${wrong}: expected an https URL with a path and no fragment (the Client ID Metadata Document you host, e.g. https://example.com/oauth/client.json)`,
    );
}
