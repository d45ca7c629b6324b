/**
 * The CLI's one error type and its exit codes (docs/cli.md): 0 success, 1 failure (a call that
 * failed, a config that is wrong, a server that cannot start), 2 usage errors, 3 a tool result with
 * `isError: true`. The entry point is the only place that turns these into `process.exitCode`.
 * @module
 */

/** Exit codes of `xprotocol-adapter`. */
export const EXIT = { ok: 0, failure: 1, usage: 2, toolError: 3 } as const;

/** A failure the CLI reports on stderr and turns into an exit code. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT.failure, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A usage error: wrong or missing flags. Exit code 2. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
