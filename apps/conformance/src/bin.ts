#!/usr/bin/env node
/**
 * The `xprotocol-conformance` executable (see cli.ts).
 * @module
 */
import { main } from './cli.js';

main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  tty: process.stdout.isTTY === true,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`xprotocol-conformance: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
