// Lean imports: translation, the registry, annotations and the bridge (until something searches)
// need @xprotocol/semantic's annotations and quality score, not its tool search. The search entry (@xprotocol/semantic/search) carries 8.8 MB of
// word vectors and static embeddings; no file reachable through static imports from the translate or registry entries may
// be the file that holds them. Reads the built dist/ (turbo builds it before this test). The dynamic
// counterpart (what Node really loads) runs on the installed tarballs in tarballs.test.ts.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './_workspace.js';

const CHECKS = join(REPO_ROOT, 'tools', 'checks');

/** The dist file of `@xprotocol/x[/sub]` that ESM resolution picks, seen from `fromDir`. */
function _resolveXprotocol(specifier: string, fromDir: string): string {
  const [scope, name, ...rest] = specifier.split('/');
  const sub = rest.length > 0 ? `./${rest.join('/')}` : '.';
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', scope!, name!);
    if (existsSync(join(pkgDir, 'package.json'))) {
      const m = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      const target = m.exports?.[sub]?.import?.default;
      if (typeof target !== 'string')
        throw new Error(`${specifier}: no exports["${sub}"].import.default in ${pkgDir}`);
      return realpathSync(join(pkgDir, target));
    }
    if (dirname(dir) === dir) throw new Error(`${specifier}: not found from ${fromDir}`);
  }
}

/** Every file reached from `entry` through static imports and re-exports (relative and @xprotocol/*). */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?["']([^"']+)["']/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(join(dirname(file), spec));
      else if (spec.startsWith('@xprotocol/')) visit(_resolveXprotocol(spec, dirname(file)));
    }
  };
  visit(_resolveXprotocol(entry, CHECKS));
  return seen;
}

/** The built file of @xprotocol/semantic that holds the word vectors (its one multi-megabyte file). */
function vectorFile(): string {
  const dist = join(REPO_ROOT, 'packages', 'semantic', 'dist');
  const big = readdirSync(dist)
    .filter((f) => f.endsWith('.js') && statSync(join(dist, f)).size > 2 ** 20)
    .map((f) => realpathSync(join(dist, f)));
  expect(big, 'exactly one built file over 1 MB in packages/semantic/dist').toHaveLength(1);
  return big[0]!;
}

describe('static imports of the built entries', () => {
  // mcp-bridge loads the search entry on the first search (discovery/schema-search.ts), never at import.
  // @xprotocol/endpoint is a facade over mcp-bridge, with the same lazy search.
  it.each([
    '@xprotocol/translate',
    '@xprotocol/registry',
    '@xprotocol/semantic',
    '@xprotocol/mcp-bridge',
    '@xprotocol/endpoint',
  ])('%s never reaches the word-vector file', (entry) => {
    const reached = staticClosure(entry);
    expect(reached.size).toBeGreaterThan(1);
    expect(reached.has(vectorFile()), `${entry} reaches ${vectorFile()}`).toBe(false);
  });

  it('@xprotocol/semantic/search does reach it (the control)', () => {
    expect(staticClosure('@xprotocol/semantic/search').has(vectorFile())).toBe(true);
  });
});
