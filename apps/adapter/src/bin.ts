#!/usr/bin/env node
/**
 * The `xprotocol-adapter` executable.
 * @module
 */
import { runCli } from './cli/program.js';

runCli(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`xprotocol-adapter: ${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
