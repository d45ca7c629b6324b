// The repository's vendored test data (testdata/ at the root; the source, licence and sha256 of
// every file are in testdata/SOURCES.md). Tests, benches, evals and reports find it through here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** testdata/ at the repository root (this file is packages/semantic/scripts/_testdata.mjs). */
export const TESTDATA = fileURLToPath(new URL('../../../testdata/', import.meta.url));

/** The recorded tools/list answers of real MCP servers, one JSON file per server. */
export const SERVERS_DIR = join(TESTDATA, 'mcp-servers');

/** The MetaTool retrieval sets (`metatool-single.json`, `metatool-multi.json`), stored gzipped. */
export const RETRIEVAL_DIR = join(TESTDATA, 'retrieval');

/**
 * Parses a JSON file; a name ending in `.gz` is gunzipped first, and a plain name that is stored
 * only as `<name>.gz` (the large corpora are) is read from there.
 */
export function readJsonFile(file) {
  if (file.endsWith('.gz')) return JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
  if (!existsSync(file) && existsSync(`${file}.gz`)) return readJsonFile(`${file}.gz`);
  return JSON.parse(readFileSync(file, 'utf8'));
}
