#!/usr/bin/env node
/**
 * The `xprotocol-devserver` executable.
 * @module
 */
import { runDevserverCli } from './cli.js';

/**
 * Once the CLI has its exit code, the process should end on its own; if a handle outlives a failed
 * start (a relay connection still retrying, say), end the process anyway. The timer is unref'd, so
 * it never delays a clean exit.
 */
function _exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 1000).unref();
}

runDevserverCli(process.argv).then(_exitSoon, (error: unknown) => {
  process.stderr.write(`xprotocol-devserver: ${String((error as Error)?.stack ?? error)}\n`);
  _exitSoon(1);
});
