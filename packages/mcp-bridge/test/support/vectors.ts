// The repository's own vector files (testdata/vectors/xp-*.json), read by the tests that hold
// docs/protocol.md to the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Parses testdata/vectors/`name` (this file is packages/mcp-bridge/test/support/vectors.ts). */
export function loadRepoVectors<T>(name: string): T {
  return JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../../testdata/vectors', name), 'utf8'),
  ) as T;
}
