#!/usr/bin/env node
/**
 * Runs the whole conformance matrix (docs/conformance.md, "The conformance matrix"): three servers
 * × `--requirements 2025-11-25` and `2026-07-28` × the source's `mcp_revision` (default, `auto`,
 * the server's own), each directly, through the gateway and across XProtocol, with the official
 * runner. Prints the markdown table on stdout and the failed checks behind every difference on
 * stderr; exits 1 when a gateway or XProtocol cell passes other scenarios than the server directly.
 * The matrix lives in the tests' TypeScript helpers (test/support/conformance-matrix.ts), which
 * vitest's module runner loads, so the script and test/conformance-matrix.test.ts share one copy.
 *
 *   node scripts/conformance-matrix.mjs [--servers a,b] [--requirements r,…] [--settings s,…]
 *        [--concurrency N (1-3, default 3)] [--run-timeout-seconds N (default 600)] [--help]
 * @module
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createVitest } from 'vitest/node';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    servers: { type: 'string' },
    requirements: { type: 'string' },
    settings: { type: 'string' },
    concurrency: { type: 'string', default: '3' },
    'run-timeout-seconds': { type: 'string', default: '600' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  process.stdout.write(`Usage: node scripts/conformance-matrix.mjs [options]
  --servers a,b            fixture, strict-2026 dual, strict-sse-polling (default: all)
  --requirements r,...     2025-11-25, 2026-07-28 (default: both)
  --settings s,...         the source's mcp_revision: default, auto, own (default: all three)
  --concurrency N          runner processes at once, 1 to 3 (default 3)
  --run-timeout-seconds N  the bound of each run, 30 to 3600 (default 600)
Prints the table on stdout, each run and the differences on stderr; exits 1 when a G or X cell
differs from direct, 2 when it cannot run (docs/conformance.md, "The conformance matrix").
`);
  process.exit(0);
}

/** The listed values of an option, each checked against what is known. */
function pick(option, known) {
  if (values[option] === undefined) return known;
  const chosen = values[option].split(',').map((value) => value.trim());
  const unknown = chosen.filter((value) => !known.includes(value));
  if (unknown.length > 0) {
    throw new Error(`--${option}: unknown ${unknown.join(', ')}; expected some of ${known.join(', ')}`);
  }
  return chosen;
}

/** A whole number in [min, max], or a clear error. */
function whole(option, min, max) {
  const value = Number(values[option]);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${option}: expected a whole number from ${min} to ${max}, got ${values[option]}`);
  }
  return value;
}

const vitest = await createVitest('test', { root, watch: false, config: join(root, 'vitest.config.ts') });
let code = 1;
try {
  const matrix = await vitest.import(join(root, 'test', 'support', 'conformance-matrix.ts'));
  const table = await vitest.import(join(root, 'test', 'support', 'conformance-table.ts'));
  const selection = {
    servers: pick('servers', Object.keys(matrix.MATRIX_SERVERS)),
    requirements: pick('requirements', [...matrix.REQUIREMENTS]),
    settings: pick('settings', [...matrix.SETTINGS]),
  };
  const started = Date.now();
  const rows = await matrix.runMatrix(selection, {
    concurrency: whole('concurrency', 1, 3),
    runTimeoutMs: whole('run-timeout-seconds', 30, 3600) * 1000,
    onRun: (label, outcome) =>
      process.stderr.write(
        `${label}: ${'error' in outcome ? `error ${outcome.error.split('\n')[0]}` : `${matrix.passed(outcome).length}/${outcome.results.size}`} (${Math.round((Date.now() - started) / 1000)} s)\n`,
      ),
  });
  process.stderr.write(`\n${table.matrixDetails(rows)}\n\n`);
  process.stdout.write(
    `conformance@${matrix.RUNNER_VERSION}, ${new Date().toISOString().slice(0, 10)}, ${Math.round((Date.now() - started) / 1000)} s\n\n${table.matrixTable(rows)}\n`,
  );
  code = table.anyDifference(rows) ? 1 : 0;
} catch (error) {
  process.stderr.write(`conformance matrix: ${error.message}\n`);
  code = 2;
} finally {
  await vitest.close();
}
process.exit(code);
