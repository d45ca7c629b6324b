// testdata/SOURCES.md lists every vendored file with its source, its licence and the sha256 of the
// file as stored, and lists nothing that is not there. `node scripts/testdata-manifest.mjs`
// rewrites the hashes after a change; the source and licence of a new file are written by hand.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  listTestdataFiles,
  parseManifest,
  SOURCES_FILE,
  sha256File,
  TESTDATA_DIR,
} from '../../../scripts/testdata-manifest.mjs';
import { REPO_ROOT } from './_workspace.js';

const dir = join(REPO_ROOT, TESTDATA_DIR);
const rows = parseManifest(readFileSync(join(dir, SOURCES_FILE), 'utf8'));
const files = listTestdataFiles(dir);

describe(`${TESTDATA_DIR}/${SOURCES_FILE}`, () => {
  it('lists every file under testdata/, and only those', () => {
    const listed = rows.map((r) => r.file);
    expect(
      files.filter((f) => !listed.includes(f)),
      'files with no row in SOURCES.md',
    ).toEqual([]);
    expect(
      listed.filter((f) => !files.includes(f)),
      'rows whose file is missing',
    ).toEqual([]);
    expect(new Set(listed).size, 'one row per file').toBe(listed.length);
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(rows.map((r) => [r.file, r] as const))(
    '%s: source and licence given, sha256 as stored',
    (file, row) => {
      expect(row.source, `${file}: source`).not.toMatch(/^\??$/);
      expect(row.licence, `${file}: licence`).not.toMatch(/^\??$/);
      expect(sha256File(join(dir, file)), `${file}: sha256 (run node scripts/testdata-manifest.mjs)`).toBe(
        row.sha256,
      );
    },
  );

  it('keeps files over 1 MiB gzipped', () => {
    const big = files.filter((f) => !f.endsWith('.gz') && statSync(join(dir, f)).size > 1024 * 1024);
    expect(big, 'store these as .gz').toEqual([]);
  });
});
