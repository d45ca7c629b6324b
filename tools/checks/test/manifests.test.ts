// Every published package's manifest keeps the house rules: ESM with a CommonJS entry, an exports
// map whose conditions each carry their types first and no wildcard, only dist/ shipped (without
// source maps), a licence, the supported Node range, and the fields a registry page shows (where the
// code lives, where to report bugs, keywords). The forge URL is stated once, in the root manifest.
// A bin is a committed file that runs dist/bin.js: it exists in a fresh clone, before any build.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trackedFiles } from './_tracked-files.js';
import { publishedPackages, REPO_ROOT } from './_workspace.js';

const ROOT = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  repository: { type: string; url: string };
  bugs: { url: string };
  homepage: string;
  license: string;
  engines: { node: string };
};
/** The forge URL, from the root manifest's `repository.url` (`git+https://…/x.git`). */
const FORGE = ROOT.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const TRACKED = new Set(trackedFiles(REPO_ROOT));

describe('the root package.json', () => {
  it('states the forge, the licence and the Node range once for every package', () => {
    expect(FORGE).toMatch(/^https:\/\/[^/]+\/[^/]+\/[^/]+$/);
    expect(ROOT.repository.type).toBe('git');
    expect(ROOT.homepage).toBe(`${FORGE}#readme`);
    expect(ROOT.bugs.url).toBe(`${FORGE}/issues`);
    expect(ROOT.license).toBe('Apache-2.0');
    // require(esm), which the CommonJS entries rely on, is on by default from 20.19 and 22.12.
    expect(ROOT.engines.node).toBe('^20.19.0 || >=22.12.0');
  });
});

describe.each(publishedPackages().map((p) => [p.dir, p] as const))('%s/package.json', (dir, pkg) => {
  const m = pkg.manifest;

  it('is an ES module package with a licence and the supported Node range', () => {
    expect(m.type).toBe('module');
    expect(m.license).toBe('Apache-2.0');
    expect(m.engines?.node).toBe(ROOT.engines.node);
  });

  it('points at the repository, its folder, the issue tracker and its README, and has keywords', () => {
    expect(m.repository).toEqual({ type: 'git', url: ROOT.repository.url, directory: dir });
    expect(m.bugs).toEqual({ url: ROOT.bugs.url });
    expect(m.homepage).toBe(`${FORGE}/tree/main/${dir}#readme`);
    expect(Array.isArray(m.keywords) && m.keywords.length >= 3, 'at least three keywords').toBe(true);
    for (const k of m.keywords as unknown[]) expect(k).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
  });

  it('has a README.md and a LICENSE identical to the root one (node scripts/sync-license.mjs)', () => {
    expect(existsSync(join(REPO_ROOT, dir, 'README.md')), `${dir}/README.md`).toBe(true);
    const licence = join(REPO_ROOT, dir, 'LICENSE');
    expect(existsSync(licence), `${dir}/LICENSE`).toBe(true);
    expect(
      readFileSync(licence, 'utf8') === readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8'),
      'same text',
    ).toBe(true);
  });

  it('exports only named entries, each with import and require conditions, types first in both', () => {
    expect(m.exports, 'an exports map').toBeTypeOf('object');
    for (const [subpath, target] of Object.entries(m.exports ?? {})) {
      expect(subpath, 'no wildcard subpath').not.toContain('*');
      if (typeof target !== 'object' || target === null) {
        expect(subpath, 'only ./package.json may map to a plain file').toBe('./package.json');
        continue;
      }
      expect(Object.keys(target), `${subpath}: conditions`).toEqual(['import', 'require']);
      const { import: esm, require: cjs } = target as Record<string, Record<string, string>>;
      expect(Object.keys(esm ?? {}), `${subpath}.import`).toEqual(['types', 'default']);
      expect(Object.keys(cjs ?? {}), `${subpath}.require`).toEqual(['types', 'default']);
      expect(esm?.default).toMatch(/^\.\/dist\/.+\.js$/);
      expect(esm?.types).toBe(esm?.default?.replace(/\.js$/, '.d.ts'));
      expect(cjs?.default).toBe(esm?.default?.replace(/\.js$/, '.cjs'));
      expect(cjs?.types).toBe(esm?.default?.replace(/\.js$/, '.d.cts'));
    }
    // For tools that read no exports map (TypeScript's node10 resolution, old bundlers).
    const root = (m.exports as Record<string, { require: { types: string; default: string } }>)['.'];
    expect(m.main).toBe(root?.require.default);
    expect(m.types).toBe(root?.require.types);
  });

  it('builds the CommonJS entries after tsup', () => {
    expect((m.scripts as Record<string, string>).build).toBe(
      'tsup && node ../../scripts/emit-cjs-entries.mjs',
    );
  });

  it('ships dist/ without source maps, and no sources or tests (README, LICENSE and package.json come with npm itself)', () => {
    expect(m.files).toContain('dist');
    expect(m.files, 'maps would point at sources the tarball does not hold').toContain('!dist/**/*.map');
    for (const entry of m.files ?? []) {
      expect(entry, 'no sources or tests in the tarball').not.toMatch(/^(src|test|bench)(\/|$)/);
    }
  });

  it('points each bin at a committed file that runs dist/bin.js, shipped by "files"', () => {
    // pnpm links every workspace package's bins at install time, before the first build: a bin
    // under dist/ would not exist yet (pnpm warns "Failed to create bin … ENOENT" for each link).
    for (const [name, target] of Object.entries(m.bin ?? {})) {
      const file = target.replace(/^\.\//, '');
      expect(file, `bin ${name}: expected bin/${name}.js, not a build output`).toBe(`bin/${name}.js`);
      expect(TRACKED.has(`${dir}/${file}`), `${dir}/${file} is not tracked by git`).toBe(true);
      const text = readFileSync(join(REPO_ROOT, dir, file), 'utf8');
      expect(text.startsWith('#!/usr/bin/env node\n'), `${file}: expected a node shebang`).toBe(true);
      expect(text, `${file}: expected it to run ../dist/bin.js`).toContain("'../dist/bin.js'");
      expect(m.files, `"files" must ship ${file}`).toContain('bin');
    }
  });
});
