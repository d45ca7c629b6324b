/**
 * A copy of the configuration that is safe to log: the bearer tokens, the OAuth client secrets,
 * the values of each source's `env` and the password of the shared state database's URL are
 * replaced. Log this, never the configuration itself.
 * @module
 */
import type { AdapterConfig } from './types.js';

/** What replaces a secret in {@link redactConfig}. */
export const REDACTED = '[redacted]';

/**
 * Returns a deep copy of `config` with `mcpServer.bearerToken`, `mcpSources[].bearerToken`,
 * `mcpSources[].oauth.clientSecret` and every `mcpSources[].env` value replaced by
 * {@link REDACTED}, and the password in `sharedState.database` by `***`.
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
  }
  if (copy.sharedState)
    copy.sharedState.database = copy.sharedState.database.replace(
      /^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#]*@/i,
      '$1:***@',
    );
  return copy;
}
