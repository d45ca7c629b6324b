// The repository's own protocol vectors (testdata/vectors/xp-*.json, named in docs/protocol.md):
// tests read them only through this module, by the file's path in the repository.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root (this file is packages/mcp-bridge/test/support/vectors.ts). */
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

/** Parses `testdata/vectors/<name>`. */
export function loadVectorFile<T>(path: `testdata/vectors/${string}.json`): T {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
}
