/**
 * `loadConfig` / `parseConfig`: YAML text → interpolation → shape check (zod) → cross-field
 * checks → normalized {@link AdapterConfig}. Every problem is gathered and thrown at once as a
 * {@link ConfigError}; what is accepted but noteworthy comes back as warnings.
 * @module
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { _byPosition, _Collector } from './_collector.js';
import { _YamlSource } from './_yaml-source.js';
import { _crossChecks } from './cross-checks.js';
import { ConfigError } from './errors.js';
import { _normalize } from './normalize.js';
import type { LoadConfigOptions, LoadedConfig } from './types.js';
import { _validateShape } from './validate-shape.js';

/**
 * Parses and validates configuration text. `fileName` names the file in messages (as given) and
 * anchors relative paths (resolved against the current directory).
 * Throws {@link ConfigError} (`CONFIG_SYNTAX` or `CONFIG_INVALID`) listing every problem.
 * @example
 * const { config, warnings } = parseConfig(
 *   'identity:\n  key_file: ~/.xprotocol/adapter.key\n',
 *   'adapter.yml',
 *   { env: {}, homeDir: '/home/ada' },
 * );
 * config.identity.keyFile; // '/home/ada/.xprotocol/adapter.key'
 * warnings; // []
 */
export function parseConfig(text: string, fileName: string, options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const source = new _YamlSource(fileName, text, env);
  if (source.syntaxIssues.length > 0) {
    throw new ConfigError('CONFIG_SYNTAX', [...source.syntaxIssues].sort(_byPosition));
  }
  _supplySections(source, options.sections);
  const collector = new _Collector(source);
  collector.issues.push(...source.issues);
  collector.warnings.push(...source.warnings);
  const file = _validateShape(collector);
  _crossChecks(collector, env);
  const warnings = collector.warnings.sort(_byPosition);
  if (collector.issues.length > 0 || file === undefined) {
    throw new ConfigError('CONFIG_INVALID', collector.issues.sort(_byPosition), { warnings });
  }
  const config = _normalize(file, { file: resolve(fileName), homeDir: options.homeDir ?? homedir(), env });
  return { config, warnings };
}

/**
 * Reads, parses and validates a configuration file (see {@link parseConfig}). Throws
 * {@link ConfigError} `CONFIG_READ` when the file cannot be read.
 * @example
 * const { config, warnings } = loadConfig('./xprotocol-mcp-adapter.yml');
 * for (const w of warnings) logger.warn(formatConfigIssue(w));
 */
export function loadConfig(path: string, options: LoadConfigOptions = {}): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = _readFailure(error);
    throw new ConfigError('CONFIG_READ', [{ file: path, line: 0, column: 0, path: '', message: reason }], {
      cause: error,
    });
  }
  return parseConfig(text.startsWith('\uFEFF') ? text.slice(1) : text, path, options);
}

function _readFailure(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'ENOENT':
      return 'cannot read the configuration: no such file';
    case 'EISDIR':
      return 'cannot read the configuration: it is a directory, expected a YAML file';
    case 'EACCES':
    case 'EPERM':
      return 'cannot read the configuration: permission denied';
    default:
      return `cannot read the configuration: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Adds the caller's sections the file does not have (see `LoadConfigOptions.sections`). */
function _supplySections(source: _YamlSource, sections: LoadConfigOptions['sections']): void {
  const root = source.value;
  if (sections === undefined || root === null || typeof root !== 'object' || Array.isArray(root)) return;
  for (const [key, value] of Object.entries(sections)) {
    if (!Object.hasOwn(root, key)) source.set([key], structuredClone(value));
  }
}
