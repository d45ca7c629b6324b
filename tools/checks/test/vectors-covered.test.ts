// The vector files and the documents that name them cannot drift apart: every entry of
// testdata/vectors/ is named where it is described (this repository's own `xp-*.json` in
// docs/protocol.md by its path in the repository, a vendored one in testdata/SOURCES.md), and is
// read by at least one test of a package or an app; every `testdata/vectors/…` path a document
// names exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './_workspace.js';

const VECTORS = join(REPO_ROOT, 'testdata', 'vectors');
/**
 * Vendored files no test reads, each with the reason. A name here must exist and be unread, so
 * the list cannot outlive its reason.
 */
const UNREAD: Readonly<Record<string, string>> = {
  'xchacha20_poly1305_test.json': 'vendored with the Wycheproof set; no part of xp/1 uses XChaCha20',
};

/** Every file under `dir` whose name ends in one of `extensions` (node_modules and dist skipped). */
function _files(dir: string, extensions: readonly string[]): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(..._files(path, extensions));
    else if (extensions.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}

/** The text of every test file of the packages and apps, by its path in the repository. */
function _testSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const group of ['packages', 'apps']) {
    for (const member of readdirSync(join(REPO_ROOT, group))) {
      for (const file of _files(join(REPO_ROOT, group, member, 'test'), ['.ts', '.mts', '.js', '.mjs']))
        sources.set(relative(REPO_ROOT, file), readFileSync(file, 'utf8'));
    }
  }
  return sources;
}

const entries = readdirSync(VECTORS).sort();
const protocol = readFileSync(join(REPO_ROOT, 'docs', 'protocol.md'), 'utf8');
const sourcesMd = readFileSync(join(REPO_ROOT, 'testdata', 'SOURCES.md'), 'utf8');
const tests = _testSources();

describe('testdata/vectors/', () => {
  it.each(entries.map((e) => [e] as const))('%s is named where it is described', (entry) => {
    if (/^xp-.*\.json$/.test(entry))
      expect(
        protocol.includes(`testdata/vectors/${entry}`),
        `docs/protocol.md must name testdata/vectors/${entry}`,
      ).toBe(true);
    else
      expect(sourcesMd.includes(`vectors/${entry}`), `testdata/SOURCES.md must name vectors/${entry}`).toBe(
        true,
      );
  });

  it.each(entries.map((e) => [e] as const))('%s is read by a test of a package or an app', (entry) => {
    const readers = [...tests].filter(([, text]) => text.includes(entry)).map(([path]) => path);
    if (entry in UNREAD) expect(readers, `${entry} is read now: remove it from UNREAD`).toEqual([]);
    else expect(readers, `no test under packages/*/test or apps/*/test reads ${entry}`).not.toEqual([]);
  });

  it('lists in UNREAD only files that exist', () => {
    expect(Object.keys(UNREAD).filter((name) => !entries.includes(name))).toEqual([]);
  });

  it('every testdata/vectors/ path a document names exists', () => {
    const documents = [
      ..._files(join(REPO_ROOT, 'docs'), ['.md']),
      join(REPO_ROOT, 'README.md'),
      join(REPO_ROOT, 'testdata', 'SOURCES.md'),
    ];
    const missing: string[] = [];
    for (const document of documents) {
      const text = readFileSync(document, 'utf8');
      for (const [path] of text.matchAll(/testdata\/vectors\/[A-Za-z0-9_.\-/]*[A-Za-z0-9_]/g)) {
        if (!existsSync(join(REPO_ROOT, path))) missing.push(`${relative(REPO_ROOT, document)}: ${path}`);
      }
    }
    expect(missing, 'named but missing').toEqual([]);
  });
});
