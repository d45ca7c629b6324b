/**
 * stdout carries only data (JSON, grammars, URLs); everything for people goes to stderr. Commands
 * receive these two writers so tests can capture them and nothing writes to stdout by accident.
 * @module
 */

/** Where a command writes. */
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
