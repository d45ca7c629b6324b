#!/usr/bin/env node
// The file table of testdata/SOURCES.md: one row per file under testdata/ with its source, its
// licence and the sha256 of the file as stored (gzipped files hashed as .gz).
//
//   node scripts/testdata-manifest.mjs          rewrite the table: keep each row's source and
//                                               licence, recompute every sha256, add a row for a
//                                               new file, drop the row of a removed one
//   node scripts/testdata-manifest.mjs --check  change nothing; exit 1 when the table is stale
//
// A new file gets `?` as source and licence, and the script exits 1 until a person fills them in:
// the provenance of vendored data is written by hand, only the hashes are computed.
// tools/checks/test/testdata-sources.test.ts runs the same comparison in `npm test`.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is scripts/testdata-manifest.mjs). */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The folder of vendored test data, relative to the repository root. */
export const TESTDATA_DIR = 'testdata';

/** The provenance file inside testdata/; it describes the others and is not listed itself. */
export const SOURCES_FILE = 'SOURCES.md';

const BEGIN = '<!-- testdata-manifest:begin -->';
const END = '<!-- testdata-manifest:end -->';
const HEADER = ['| file | source | licence | sha256 |', '|---|---|---|---|'];
const UNKNOWN = '?';

/** Every file under `dir` except SOURCES.md, as sorted `/`-separated paths relative to `dir`. */
export function listTestdataFiles(dir) {
  const out = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.filter((f) => f !== SOURCES_FILE).sort();
}

/** The sha256 of a file's bytes, lowercase hex. */
export function sha256File(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** A table cell's text without its backticks. */
function _cell(text) {
  return text.trim().replace(/^`(.*)`$/, '$1');
}

/**
 * The rows of the file table in SOURCES.md text: `{ file, source, licence, sha256 }`, in table
 * order. Throws when the markers are missing or a row does not have four cells.
 */
export function parseManifest(markdown) {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) {
    throw new Error(`${SOURCES_FILE}: expected a file table between "${BEGIN}" and "${END}", found none`);
  }
  const lines = markdown
    .slice(start + BEGIN.length, end)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|'));
  return lines.slice(HEADER.length).map((line) => {
    const cells = line.slice(1, -1).split(' | ');
    if (cells.length !== 4) {
      throw new Error(
        `${SOURCES_FILE}: expected 4 cells (file, source, licence, sha256), got ${cells.length}: ${line}`,
      );
    }
    const [file, source, licence, sha256] = cells.map(_cell);
    return { file, source, licence, sha256 };
  });
}

/** SOURCES.md text with its file table replaced by `rows`. */
export function renderManifest(markdown, rows) {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${SOURCES_FILE}: no "${BEGIN}" … "${END}" block`);
  const table = rows.map((r) => `| \`${r.file}\` | ${r.source} | ${r.licence} | \`${r.sha256}\` |`);
  return `${markdown.slice(0, start)}${[BEGIN, ...HEADER, ...table, END].join('\n')}${markdown.slice(end + END.length)}`;
}

/**
 * The table as it should be for the files in `dir`: known rows keep their source and licence,
 * every sha256 is recomputed. Also returns the files that have no source yet and the listed
 * files that no longer exist.
 */
export function computeManifest(dir, rows) {
  const known = new Map(rows.map((r) => [r.file, r]));
  const files = listTestdataFiles(dir);
  const next = files.map((file) => {
    const row = known.get(file);
    return {
      file,
      source: row?.source ?? UNKNOWN,
      licence: row?.licence ?? UNKNOWN,
      sha256: sha256File(join(dir, file)),
    };
  });
  const present = new Set(files);
  return {
    rows: next,
    unsourced: next.filter((r) => r.source === UNKNOWN || r.licence === UNKNOWN).map((r) => r.file),
    removed: rows.filter((r) => !present.has(r.file)).map((r) => r.file),
  };
}

function _main() {
  const check = process.argv.includes('--check');
  const dir = join(REPO_ROOT, TESTDATA_DIR);
  const path = join(dir, SOURCES_FILE);
  const before = readFileSync(path, 'utf8');
  const { rows, unsourced, removed } = computeManifest(dir, parseManifest(before));
  const after = renderManifest(before, rows);
  for (const file of removed) console.error(`dropped the row of ${file}: the file is gone`);
  for (const file of unsourced)
    console.error(`${file}: fill in its source and licence in ${TESTDATA_DIR}/${SOURCES_FILE}`);
  if (check) {
    if (after !== before)
      console.error(`${TESTDATA_DIR}/${SOURCES_FILE} is stale: run node scripts/testdata-manifest.mjs`);
    process.exit(after === before && unsourced.length === 0 ? 0 : 1);
  }
  if (after !== before) writeFileSync(path, after);
  console.error(
    `${TESTDATA_DIR}/${SOURCES_FILE}: ${rows.length} files${after === before ? ', unchanged' : ', table rewritten'}`,
  );
  process.exit(unsourced.length === 0 ? 0 : 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) _main();
