#!/usr/bin/env node
/**
 * The `xprotocol-conformance` executable (see cli.ts).
 * @module
 */
import { main } from './cli.js';

// The adapters under test run in process groups of their own (adapter-process.ts), which a
// terminal's Ctrl-C does not reach: exiting on the signal runs the hook that stops them.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => process.exit(code));
}

main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  tty: process.stdout.isTTY === true,
}).then(
  (code) => {
    // Exit now: a target that failed to start may leave sockets open.
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`xprotocol-conformance: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
