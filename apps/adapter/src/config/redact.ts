/**
 * A copy of the configuration that is safe to log: the bearer tokens, the OAuth client secrets,
 * the values of each source's `env`, the credentials of each OpenAPI source and the password of the shared state database's URL are
 * replaced. Log this, never the configuration itself.
 * @module
 */
import type { AdapterConfig } from './types.js';

/** What replaces a secret in {@link redactConfig}. */
export const REDACTED = '[redacted]';

/**
 * Returns a deep copy of `config` with `mcpServer.bearerToken`, `mcpSources[].bearerToken`,
 * `mcpSources[].oauth.clientSecret`, every `mcpSources[].env` value and every key, token and
 * password of `mcpSources[].openapi.credentials` replaced by
 * {@link REDACTED}, and the password in `sharedState.database` and a Postgres `stateDatabase` by
 * `***`.
 * @example
 * logger.info({ config: redactConfig(config) }, 'configuration loaded');
 */
export function redactConfig(config: AdapterConfig): AdapterConfig {
  const copy = structuredClone(config);
  if (copy.mcpServer?.bearerToken !== undefined) copy.mcpServer.bearerToken = REDACTED;
  for (const source of copy.mcpSources) {
    if (source.bearerToken !== undefined) source.bearerToken = REDACTED;
    if (source.oauth?.clientSecret !== undefined) source.oauth.clientSecret = REDACTED;
    for (const name of Object.keys(source.env)) source.env[name] = REDACTED;
    for (const credential of Object.values(source.openapi?.credentials ?? {})) {
      if (credential.type === 'api_key') credential.value = REDACTED;
      else if (credential.type === 'bearer') credential.token = REDACTED;
      else if (credential.type === 'client_credentials') credential.clientSecret = REDACTED;
      else credential.password = REDACTED;
    }
  }
  const hidden = (url: string) => url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#]*@/i, '$1:***@');
  if (copy.sharedState) copy.sharedState.database = hidden(copy.sharedState.database);
  if (copy.stateDatabase !== undefined) copy.stateDatabase = hidden(copy.stateDatabase);
  return copy;
}
