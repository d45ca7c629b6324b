/**
 * The rules of one `openapi_sources[].auth` mapping (docs/config.md, "openapi_sources"): each
 * security scheme gets exactly one form of credentials — `api_key_env`, `bearer_env`,
 * `username_env` with `password_env`, or `client_id` with `client_secret_env` — and every variable
 * named must be set and not empty, so a
 * missing secret is found when the file is loaded, not at the first call; `scope` goes only with
 * the client-credentials form.
 * @module
 */
import type { _Collector } from './_collector.js';
import type { KeyPath } from './_path.js';

const _FORMS = [
  ['api_key_env'],
  ['bearer_env'],
  ['username_env', 'password_env'],
  ['client_id', 'client_secret_env'],
] as const;
const _HELD: Record<string, string> = {
  username_env: 'user name',
  password_env: 'password',
  client_id: 'client id',
  client_secret_env: 'client secret',
};

/** Checks `auth` (the raw mapping at `at()`); `env` is where the variables are read. */
export function _openApiAuthChecks(
  c: _Collector,
  auth: Record<string, unknown> | undefined,
  at: (...rest: string[]) => KeyPath,
  env: Readonly<Record<string, string | undefined>>,
): void {
  for (const [scheme, value] of Object.entries(auth ?? {})) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const keys = Object.keys(value).filter((k) =>
      _FORMS.some((form) => (form as readonly string[]).includes(k)),
    );
    const forms = _FORMS.filter((form) => form.some((k) => keys.includes(k)));
    if (forms.length !== 1) {
      c.error(
        at(scheme),
        forms.length === 0
          ? 'expected one of api_key_env, bearer_env, username_env with password_env, or client_id with client_secret_env'
          : `expected one form of credentials, got ${keys.join(' and ')}: api_key_env, bearer_env, username_env with password_env, or client_id with client_secret_env`,
      );
      continue;
    }
    // A scope is asked for only in the client-credentials exchange; beside any other form it
    // would change nothing, so it is an error rather than a setting silently ignored.
    if ('scope' in value && forms[0]?.[0] !== 'client_id')
      c.error(
        at(scheme, 'scope'),
        `scope applies only to client_id with client_secret_env (the OAuth client-credentials exchange), not to ${forms[0]?.join(' with ')}; remove it`,
        'key',
      );
    for (const key of forms[0] ?? []) {
      const name = (value as Record<string, unknown>)[key];
      if (name === undefined) {
        const what =
          key === 'client_id' ? 'the client id' : `the name of the variable holding the ${_HELD[key]}`;
        c.error(at(scheme, key), `missing, expected ${what}`, 'key');
        continue;
      }
      if (key === 'client_id') continue;
      if (typeof name === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !env[name])
        c.error(
          at(scheme, key),
          `environment variable ${name} is ${env[name] === undefined ? 'not set' : 'empty'}: it must hold the credential for the security scheme ${scheme}`,
        );
    }
  }
}
