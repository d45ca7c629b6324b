/**
 * The command-line shape both apps share (`xprotocol-adapter` and `xprotocol-devserver`): exit
 * codes, the one error type, stdout for data and stderr for people, `--help` conventions, stop
 * signals and the bin entry. Each CLI builds its commander program and hands it to
 * {@link runProgram}, the one place that turns a failure into an exit code (see docs/cli.md).
 * @module
 */
import { realpathSync } from 'node:fs';
import type { Command } from 'commander';

/**
 * Exit codes: 0 success (or a clean stop on SIGINT/SIGTERM), 1 failure (a call that failed, a
 * config that is wrong, a server that cannot start), 2 usage errors, 3 a tool result with
 * `isError: true` (`call`) or no adapter running for the config (`status`).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, toolError: 3, notRunning: 3 } as const;

/** The `code` of every {@link CliError}: how {@link runProgram} knows one from any copy of this package. */
const CLI_ERROR_CODE = 'XPROTOCOL_CLI_ERROR';

/**
 * A failure the CLI reports on stderr (prefixed with the program name) and turns into an exit code.
 * Recognised by its `code` ({@link runProgram} never uses `instanceof`: a global install gives the
 * devserver and the adapter a copy each of this package, and of commander).
 */
export class CliError extends Error {
  readonly exitCode: number;
  /** Always `XPROTOCOL_CLI_ERROR`. */
  readonly code = CLI_ERROR_CODE;

  constructor(message: string, exitCode: number = EXIT.failure, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A {@link CliError} of any copy of this package: its code and a numeric exit code. */
function _isCliError(error: unknown): error is CliError {
  const { code, exitCode } = (error ?? {}) as { code?: unknown; exitCode?: unknown };
  return code === CLI_ERROR_CODE && typeof exitCode === 'number';
}

/**
 * The exit code of a commander error of any copy of commander (a `code` starting with
 * `commander.` and a numeric `exitCode`: 0 after `--help` or `--version`), else undefined.
 */
function _commanderExitCode(error: unknown): number | undefined {
  const { code, exitCode } = (error ?? {}) as { code?: unknown; exitCode?: unknown };
  return typeof code === 'string' && code.startsWith('commander.') && typeof exitCode === 'number'
    ? exitCode
    : undefined;
}

/** A usage error: wrong, missing or conflicting flags. Exit code 2, with a hint to `--help`. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/**
 * Where a command writes: stdout carries only data (JSON, grammars, the MCP protocol), everything
 * for people goes to stderr. Commands receive these writers so tests can capture them and nothing
 * writes to stdout by accident.
 */
export interface CliIo {
  /** Data: the command's result. */
  out(text: string): void;
  /** Messages for people: progress, warnings, errors. */
  err(text: string): void;
}

/** The process's own streams. */
export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** The hint printed after a usage error. */
export const HELP_HINT = '(add --help for usage)';

/**
 * Applies the shared conventions to a commander program: `--help`/`--version` on stdout (asked
 * for: data), usage errors on stderr followed by {@link HELP_HINT}, and no `process.exit`
 * (commander throws, {@link runProgram} maps).
 */
export function cliProgram(program: Command, io: CliIo): Command {
  return program
    .showHelpAfterError(HELP_HINT)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) });
}

/**
 * Runs `work` (which parses and runs a program built with {@link cliProgram}) and resolves with the
 * exit code: its own result, 0 for `--help`/`--version`, 2 for a commander usage error (commander
 * already printed it), a {@link CliError}'s code with its message on stderr, 1 for anything else.
 * Both are known by their shape, not `instanceof`, so a program built with another copy of
 * commander (the devserver's, in a global install) maps the same.
 */
export async function runProgram(name: string, io: CliIo, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    const commanderExit = _commanderExitCode(error);
    if (commanderExit !== undefined) return commanderExit === 0 ? EXIT.ok : EXIT.usage;
    if (_isCliError(error)) {
      io.err(`${name}: ${error.message}\n${error.exitCode === EXIT.usage ? `${HELP_HINT}\n` : ''}`);
      return error.exitCode;
    }
    io.err(`${name}: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT.failure;
  }
}

/** A pending stop request: the first SIGINT or SIGTERM. */
export interface StopSignal {
  /** Resolves with the signal's name. */
  readonly stopped: Promise<string>;
  /**
   * Removes the handlers: a later signal gets Node's default (the process ends). Call it on every
   * path out of a serving command, so a failed start never leaves a process that ignores Ctrl-C.
   */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM. Install it before starting a server, so a signal during startup
 * still ends in a clean stop, and {@link StopSignal.dispose} it in a `finally`.
 */
export function listenForStop(): StopSignal {
  let resolve!: (signal: string) => void;
  const stopped = new Promise<string>((r) => {
    resolve = r;
  });
  const onInt = () => resolve('SIGINT');
  const onTerm = () => resolve('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    stopped,
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

/**
 * The bin entry: runs `main(process.argv)` and sets `process.exitCode` (never `process.exit`, so
 * stdout flushes). An unexpected rejection prints its stack on stderr and exits 1.
 */
export function runBin(name: string, main: (argv: readonly string[]) => Promise<number>): void {
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${name}: ${String((error as Error)?.stack ?? error)}\n`);
      process.exitCode = EXIT.failure;
    },
  );
}

/**
 * The command that runs this bin again from anywhere on this machine, e.g. in an MCP client's
 * config: the absolute path of this Node and of the bin's script (symlinks resolved), never a bare
 * name only a global install provides.
 */
export function selfCommand(argv: readonly string[] = process.argv): { command: string; args: string[] } {
  const script = argv[1];
  if (script === undefined) return { command: process.execPath, args: [] };
  let path = script;
  try {
    path = realpathSync(script);
  } catch {
    // Not a file (e.g. `node -e`): keep it as given.
  }
  return { command: process.execPath, args: [path] };
}
