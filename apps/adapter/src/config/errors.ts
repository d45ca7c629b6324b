/**
 * Configuration problems: {@link ConfigError} (the file cannot be used) and {@link ConfigWarning}
 * (it can, but something deserves attention). Both point at a file, line, column and key path, and
 * print in one form: `config.yml:14:7 mcp_sources[0].transport: expected "stdio" | "sse" |
 * "streamable_http", got "tcp"`.
 * @module
 */

/** Why a configuration could not be loaded. */
export type ConfigErrorCode =
  /** The file could not be read (missing, unreadable, a directory). */
  | 'CONFIG_READ'
  /** The text is not valid YAML (or not a single YAML document). */
  | 'CONFIG_SYNTAX'
  /** The YAML is well-formed but a key or value is wrong. */
  | 'CONFIG_INVALID';

/** What a warning is about; stable, so callers and tests can act on it. */
export type ConfigWarningCode =
  /** A listener bound to every interface (`0.0.0.0` / `::`). */
  | 'PUBLIC_BIND'
  /** `access.default: allow`: any key may call any tool. */
  | 'ACCESS_ALLOW_ALL'
  /** No `access` grants while `mcp_sources` are served: every call is refused. */
  | 'ACCESS_NO_GRANTS'
  /** A grant of `*`: that key may call everything. */
  | 'WILDCARD_GRANT'
  /** A granted capability that no tool of the `mcp_sources` can require (a typo, most often). */
  | 'GRANT_MATCHES_NOTHING'
  /** A trusted issuer without a grant of its own: its delegation chains give nothing. */
  | 'TRUSTED_ISSUER_WITHOUT_GRANT'
  /** A key that has no effect with the other settings (it is ignored). */
  | 'IGNORED_KEY'
  /** An MCP face whose exposed lists are all empty: it lists only `search_tools`. */
  | 'FACE_EXPOSES_NOTHING'
  /** The YAML parser's own warnings (an unknown tag, for example). */
  | 'YAML';

/** Where a problem is: the file as given, 1-based line and column, and the key path. */
export interface ConfigLocation {
  /** The file name as given to the loader (relative names stay relative). */
  readonly file: string;
  /** 1-based line; 0 when the problem concerns the whole file. */
  readonly line: number;
  /** 1-based column; 0 when the problem concerns the whole file. */
  readonly column: number;
  /** Key path such as `mcp_sources[0].transport`; `''` for the document itself. */
  readonly path: string;
}

/** One reason a configuration was refused. */
export interface ConfigIssue extends ConfigLocation {
  /** What is wrong, saying what was expected and what was found (secrets are never shown). */
  readonly message: string;
}

/** Something the loader accepted but wants the operator to know. */
export interface ConfigWarning extends ConfigLocation {
  readonly code: ConfigWarningCode;
  readonly message: string;
}

/**
 * Formats an issue or warning as one line: `file:line:column path: message`, or `file: message`
 * when the problem concerns the whole file.
 * @example
 * formatConfigIssue({ file: 'config.yml', line: 14, column: 7, path: 'mcp_sources[0].transport',
 *   message: 'expected "stdio" | "sse" | "streamable_http", got "tcp"' });
 * // 'config.yml:14:7 mcp_sources[0].transport: expected "stdio" | "sse" | "streamable_http", got "tcp"'
 */
export function formatConfigIssue(issue: ConfigIssue | ConfigWarning): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.column}` : `${issue.file}:`;
  return issue.path === '' ? `${where} ${issue.message}` : `${where} ${issue.path}: ${issue.message}`;
}

/**
 * A configuration that cannot be used. `issues` lists every problem found (not only the first),
 * sorted by position; `message` is those issues formatted one per line.
 */
export class ConfigError extends Error {
  readonly code: ConfigErrorCode;
  readonly issues: readonly ConfigIssue[];
  /** Warnings gathered before the configuration was refused (may be empty). */
  readonly warnings: readonly ConfigWarning[];

  constructor(
    code: ConfigErrorCode,
    issues: readonly ConfigIssue[],
    options?: { cause?: unknown; warnings?: readonly ConfigWarning[] },
  ) {
    super(
      issues.map(formatConfigIssue).join('\n'),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ConfigError';
    this.code = code;
    this.issues = issues;
    this.warnings = options?.warnings ?? [];
  }
}
