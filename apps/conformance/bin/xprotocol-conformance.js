#!/usr/bin/env node
// The `xprotocol-conformance` command: runs the built command line, dist/bin.js. This file is
// committed (dist/ is not), so the bin exists before the first build and `pnpm install` links it
// without a warning. No top-level await: no module of the package uses it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  import(built.href).catch((error) => {
    process.stderr.write(`xprotocol-conformance: ${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
} else {
  process.stderr.write(
    `xprotocol-conformance: ${fileURLToPath(built)} does not exist: expected a built package (run \`pnpm build\` in the repository first)\n`,
  );
  process.exitCode = 1;
}
