/**
 * The adapter's configuration: load and validate the YAML file (docs/config.md; `access` by
 * docs/design.md §4) into a normalized {@link AdapterConfig}. docs/config.md lists every key.
 * @module
 */

export { type SplitResult, splitCommandLine } from './command-line.js';
export {
  ConfigError,
  type ConfigErrorCode,
  type ConfigIssue,
  type ConfigLocation,
  type ConfigWarning,
  type ConfigWarningCode,
  formatConfigIssue,
} from './errors.js';
export { type InterpolationResult, interpolateEnv } from './interpolate.js';
export { CONFIG_SCHEMA_ID, configJsonSchema, configJsonSchemaText } from './json-schema.js';
export { loadConfig, parseConfig } from './load.js';
export { expandConfigPath } from './paths.js';
export { REDACTED, redactConfig } from './redact.js';
export { type ConfigFile, type ConfigFileInput, configFileSchema } from './schema.js';
export type {
  AdapterConfig,
  LoadConfigOptions,
  LoadedConfig,
  McpSourceConfig,
  McpSourceOAuth,
  XprotocolSourceConfig,
} from './types.js';
