// The repository's vendored test vectors (testdata/vectors/; sources, licences and sha256 of every
// file in testdata/SOURCES.md). Tests read them only through this module, so a clone is enough.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** testdata/vectors/ at the repository root (this file is packages/crypto/test/_testdata.ts). */
export const VECTORS = resolve(import.meta.dirname, '../../../testdata/vectors');

/** Parses one vector file of testdata/vectors/ (`name` may include a subfolder). */
export function loadVectors<T>(name: string): T {
  return JSON.parse(readFileSync(resolve(VECTORS, name), 'utf8')) as T;
}
