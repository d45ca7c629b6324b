// Every published package's manifest keeps the house rules: ESM, an exports map with types
// first and no wildcard, only dist/ shipped, a licence and the supported Node range.
import { describe, expect, it } from 'vitest';
import { publishedPackages } from './_workspace.js';

describe.each(publishedPackages().map((p) => [p.dir, p] as const))('%s/package.json', (_dir, pkg) => {
  const m = pkg.manifest;

  it('is an ES module package with a licence and the supported Node range', () => {
    expect(m.type).toBe('module');
    expect(m.license).toBe('Apache-2.0');
    expect(m.engines?.node).toBe('>=20.19');
  });

  it('exports only named entries, types first, no wildcard', () => {
    expect(m.exports, 'an exports map').toBeTypeOf('object');
    for (const [subpath, target] of Object.entries(m.exports ?? {})) {
      expect(subpath, 'no wildcard subpath').not.toContain('*');
      if (typeof target === 'object' && target !== null) {
        expect(Object.keys(target)[0], `${subpath}: "types" must come first`).toBe('types');
      }
    }
  });

  it('ships dist/ and no sources or tests (README, LICENSE and package.json come with npm itself)', () => {
    expect(m.files).toContain('dist');
    for (const entry of m.files ?? []) {
      expect(entry, 'no sources or tests in the tarball').not.toMatch(/^(src|test|bench)(\/|$)/);
    }
  });
});
