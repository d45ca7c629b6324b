// A clone is the whole product: no tracked file may point at data outside the repository (the
// shared folder beside it, a path on this machine, a relative path that climbs above the root).
// testdata/ is not scanned: it is third-party data pinned by sha256 in testdata/SOURCES.md, and
// the paths inside it are strings the recorded servers sent, not paths this repository opens.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED_PATHS, findOutsideReferences, isBinary, type OutsideReference } from './_outside-paths.js';
import { trackedFiles } from './_tracked-files.js';
import { REPO_ROOT } from './_workspace.js';

// Built from parts so that this file does not contain the paths it tests.
const UP = '..';
const SHARED = `${UP}/shared`;
const TMP = `/${'tmp'}/`;
const WORK = `/${'work'}/`;
const HOME = `/${'home'}/`;
const ROOT = `/${'root'}/`;

const paths = (refs: OutsideReference[]) => refs.map((r) => `${r.line}:${r.path}`);

describe('findOutsideReferences', () => {
  it('flags the shared folder beside the repository, at any depth', () => {
    const text = [
      `const DIR = new URL('${UP}/${SHARED}/data/mcp-servers/', import.meta.url);`,
      `See \`${SHARED}/data/SOURCES.md\`.`,
    ].join('\n');
    const refs = findOutsideReferences('packages/x/test/a.test.ts', text);
    expect(refs.map((r) => [r.line, r.path, r.reason])).toEqual([
      [1, SHARED, 'names the shared folder beside the repository'],
      [2, SHARED, 'names the shared folder beside the repository'],
    ]);
    // from the root, the same text also climbs out
    expect(paths(findOutsideReferences('README.md', text))).toEqual([
      `1:${SHARED}`,
      `1:${UP}/${SHARED}/data/mcp-servers/`,
      `2:${SHARED}`,
      `2:${SHARED}/data/SOURCES.md`,
    ]);
  });

  it('flags absolute paths under the work, home, root-home and temporary folders', () => {
    const text = [
      `export const SERVERS_DIR = '${WORK}shared/data/mcp-servers';`,
      `readFileSync('${HOME}someone/corpus.json')`,
      `readFileSync("${ROOT}.cache/x.bin")`,
      `const f = 'file://${TMP}vectors.json';`,
    ].join('\n');
    expect(paths(findOutsideReferences('packages/x/test/a.test.ts', text))).toEqual([
      `1:${WORK}shared/data/mcp-servers`,
      `2:${HOME}someone/corpus.json`,
      `3:${ROOT}.cache/x.bin`,
      `4:${TMP}vectors.json`,
    ]);
  });

  it('flags a relative path that climbs above the root, resolved against the file folder', () => {
    const text = `const DIR = resolve(import.meta.dirname, '${UP}/${UP}/${UP}/${UP}/elsewhere/data');`;
    const refs = findOutsideReferences('packages/x/test/a.test.ts', text);
    expect(refs).toHaveLength(1);
    expect(refs[0]!.reason).toBe('climbs above the repository root (to ../elsewhere/data)');
    // the same path from a deeper file stays inside
    expect(findOutsideReferences('packages/x/test/deep/er/a.test.ts', text)).toEqual([]);
  });

  it('passes paths inside the repository and look-alikes that are not local paths', () => {
    const text = [
      `const DIR = resolve(import.meta.dirname, '${UP}/${UP}/${UP}/testdata/vectors');`,
      `[protocol](${UP}/${UP}/docs/protocol.md)`,
      `const url = 'https://example.com${HOME}index.html';`,
      `const p = '~${TMP}x'; const q = '$HOME${TMP}y';`,
    ].join('\n');
    expect(findOutsideReferences('packages/x/test/a.test.ts', text)).toEqual([]);
  });

  it('passes an allowed example path only in the files it is allowed in', () => {
    const text = `expandConfigPath('~/k', { homeDir: '${HOME}ada' });`;
    expect(findOutsideReferences('apps/adapter/test/a.test.ts', text)).toEqual([]);
    expect(paths(findOutsideReferences('tools/checks/test/a.test.ts', text))).toEqual([`1:${HOME}ada`]);
    expect(paths(findOutsideReferences('apps/adapter/test/a.test.ts', text, []))).toEqual([`1:${HOME}ada`]);
    const build = `// run as \`node ${UP}/${UP}/scripts/emit-cjs-entries.mjs\` in a package folder`;
    expect(findOutsideReferences('scripts/emit-cjs-entries.mjs', build)).toEqual([]);
    expect(paths(findOutsideReferences('scripts/other.mjs', build))).toEqual([
      `1:${UP}/${UP}/scripts/emit-cjs-entries.mjs`,
    ]);
  });

  it('states a reason for every allowed path', () => {
    for (const a of ALLOWED_PATHS) expect(a.reason.length, String(a.path)).toBeGreaterThan(20);
  });
});

describe('the tracked files', () => {
  const files = trackedFiles(REPO_ROOT);

  it('are listed by git', () => {
    expect(files).toContain('package.json');
    expect(files.some((f) => f.startsWith('testdata/'))).toBe(true);
  });

  it('refer to no path outside the repository', () => {
    const found: string[] = [];
    let scanned = 0;
    for (const file of files) {
      if (file.startsWith('testdata/')) continue;
      const path = join(REPO_ROOT, file);
      if (!existsSync(path)) continue; // deleted in the work tree, not yet committed
      const bytes = readFileSync(path);
      if (isBinary(file, bytes)) continue;
      scanned++;
      for (const r of findOutsideReferences(file, bytes.toString('utf8'))) {
        found.push(`${r.file}:${r.line} ${r.path}: ${r.reason}`);
      }
    }
    expect(scanned).toBeGreaterThan(100);
    expect(found, 'references to paths outside the repository').toEqual([]);
  });
});
