/**
 * `status --config FILE [--json]` (docs/cli.md, "status"): what the adapter running with this
 * config reports about itself — its key, delegation chain, sources, relays, calls and last errors —
 * read from the status record it keeps in its state database (runtime/status-reporter.ts), never
 * guessed from the config. The database is found exactly as `start` finds it and opened read-only:
 * nothing is created (not the key file, not the database, not its folder) and no port is asked.
 * Exit 0 when the adapter runs, 3 when it does not (never ran, stopped, its pid is gone, or its
 * record is older than the bound), 1 when the config, key file or database cannot be read.
 * @module
 */
import { existsSync } from 'node:fs';
import { readStatusRecord } from '@xprotocol/mcp-bridge';
import { statePathOf } from '../runtime/state-path.js';
import { CliError, type CliIo, EXIT } from './cli-shape.js';
import { readConfig } from './config-commands.js';
import { stateStemOf } from './state-stem.js';
import { statusText } from './status-text.js';
import {
  type AdapterStatusRecord,
  judgeStatus,
  pidAlive,
  type StatusVerdict,
  statusJson,
} from './status-verdict.js';

/** Runs the command; returns the exit code. */
export async function status(options: { config: string; json?: boolean }, io: CliIo): Promise<number> {
  const { config } = readConfig(options.config, io);
  if (config.stateDatabase === ':memory:') {
    throw new CliError(
      `state_database is ":memory:": an adapter with an in-memory state database keeps no status another process can read; give state_database a file (or leave it out) to use status`,
    );
  }
  if (/^postgres(ql)?:\/\//i.test(config.stateDatabase ?? '')) {
    throw new CliError(
      'state_database is a postgres:// URL: replicas that share one keep no status record another process can read; ask each replica through its admin listener (docs/operating.md)',
    );
  }
  const { keyFile } = config.identity;
  // The default path comes from the key: without a key file no adapter has run (start makes one).
  if (config.stateDatabase === undefined && keyFile !== undefined && !existsSync(keyFile)) {
    return _print(
      { running: false, reason: 'never_ran', why: `no key file at ${keyFile}` },
      null,
      options,
      io,
    );
  }
  const path = statePathOf(config.stateDatabase, await _stem(config));
  if (!existsSync(path))
    return _print(
      { running: false, reason: 'never_ran', why: `no state database at ${path}` },
      path,
      options,
      io,
    );
  let record: ReturnType<typeof readStatusRecord>;
  try {
    record = readStatusRecord(path);
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.failure, { cause: error });
  }
  if (record === undefined)
    return _print({ running: false, reason: 'never_ran', why: `no status in ${path}` }, path, options, io);
  return _print(judgeStatus(_checked(record, path), Date.now(), pidAlive), path, options, io);
}

/** Prints the verdict as text or JSON on stdout; 0 when the adapter runs, else 3. */
function _print(verdict: StatusVerdict, path: string | null, options: { json?: boolean }, io: CliIo): number {
  io.out(
    options.json
      ? `${JSON.stringify(statusJson(verdict, path), null, 2)}\n`
      : statusText(verdict, path ?? '', Date.now()),
  );
  return verdict.running ? EXIT.ok : EXIT.notRunning;
}

/** The stem, with a key file that cannot be read said as a failure of this command. */
async function _stem(config: Parameters<typeof stateStemOf>[0]): Promise<string> {
  try {
    return await stateStemOf(config);
  } catch (error) {
    throw new CliError(`identity.key_file: ${(error as Error).message}`, EXIT.failure, { cause: error });
  }
}

/** A record whose snapshot has the shape this version writes; else a failure that says so. */
function _checked(
  record: NonNullable<ReturnType<typeof readStatusRecord>>,
  path: string,
): AdapterStatusRecord {
  const snapshot = record.snapshot as Partial<AdapterStatusRecord['snapshot']> | null;
  const fits =
    snapshot !== null &&
    typeof snapshot === 'object' &&
    Array.isArray(snapshot.sources) &&
    Array.isArray(snapshot.relays) &&
    Array.isArray(snapshot.errors) &&
    typeof snapshot.calls === 'object';
  if (!fits) {
    throw new CliError(
      `the status in ${path} is not in the form this version of xprotocol-adapter reads: was it written by another version? Run status with the adapter's own version`,
    );
  }
  return record as AdapterStatusRecord;
}
