/**
 * How the devserver tells the user about a configuration's problems on stderr: each warning (in
 * the short inline form for `--mcp-command` and the demo server, which have no file to point
 * into), and a failed load as the error the CLI exits with, after its warnings.
 * @module
 */
import {
  CliError,
  type ConfigError,
  type ConfigWarning,
  EXIT,
  formatConfigIssue,
} from '@xprotocol/mcp-adapter';
import type { DevserverCliContext } from './cli-context.js';
import { createStyle } from './style.js';

/** Prints `warnings`; `inline` for a configuration that has no file (`--mcp-command`, the demo). */
export function _printConfigWarnings(
  ctx: DevserverCliContext,
  warnings: readonly ConfigWarning[],
  inline: boolean,
): void {
  for (const warning of warnings) {
    const text = inline
      ? `${warning.path === '' ? '' : `${warning.path}: `}${warning.message}${warning.code === 'ACCESS_ALLOW_ALL' ? ' (dev only)' : ''}`
      : formatConfigIssue(warning);
    ctx.err(`${(ctx.style ?? createStyle()).bad('warning:')} ${text}\n`);
  }
}

/** Prints the warnings of a failed load; returns the error the CLI reports (exit 1). */
export function _configFailure(ctx: DevserverCliContext, error: ConfigError, origin: string): CliError {
  _printConfigWarnings(ctx, error.warnings, false);
  const count = error.issues.length;
  return new CliError(
    `${error.message}\n${count} problem${count === 1 ? '' : 's'} in ${origin}`,
    EXIT.failure,
    {
      cause: error,
    },
  );
}
