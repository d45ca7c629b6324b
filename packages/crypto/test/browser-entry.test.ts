/**
 * The root entry runs in a browser or worker: nothing reachable from the BUILT `dist/index.js`
 * (our chunks and the @noble files they import, followed transitively) imports a Node builtin,
 * while the `./node` entry does. Run after `pnpm run build` (turbo's `test` depends on `build`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGE = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(resolve(PACKAGE, 'package.json'), 'utf8')) as {
  exports: Record<string, { import?: { types?: string; default?: string } } | string>;
};
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
/** Static `import … from`, `export … from`, side-effect `import '…'` and dynamic `import('…')`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

function entryFile(subpath: '.' | './node'): string {
  const entry = manifest.exports[subpath];
  if (typeof entry !== 'object' || entry.import?.default === undefined)
    throw new Error(`exports["${subpath}"] has no import.default`);
  const file = resolve(PACKAGE, entry.import.default);
  if (!existsSync(file))
    throw new Error(`${file} is missing: run \`pnpm --filter @xprotocol/crypto run build\` first`);
  return file;
}

/** Resolves a bare `@noble/<pkg>/<subpath>` through that package's `exports` map. */
function resolveBare(specifier: string): string {
  const match = /^(@noble\/[^/]+)(\/.*)?$/.exec(specifier);
  if (!match) throw new Error(`unexpected dependency ${specifier} reachable from the root entry`);
  const root = resolve(PACKAGE, 'node_modules', match[1]!);
  const exportsMap = (
    JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
  ).exports;
  const target = exportsMap[`.${match[2] ?? ''}`];
  const file = typeof target === 'string' ? target : (target as { import?: string; default?: string }).import;
  if (typeof file !== 'string') throw new Error(`cannot resolve ${specifier}`);
  return resolve(root, file);
}

/** Every module reachable from `file`, with the builtins each one imports. */
function reachable(file: string): { files: Set<string>; builtins: Map<string, string[]> } {
  const files = new Set<string>();
  const builtins = new Map<string, string[]>();
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.pop()!;
    if (files.has(current)) continue;
    files.add(current);
    const source = readFileSync(current, 'utf8');
    for (const [, specifier] of source.matchAll(SPECIFIER)) {
      if (specifier === undefined) continue;
      if (BUILTINS.has(specifier)) builtins.set(current, [...(builtins.get(current) ?? []), specifier]);
      else if (specifier.startsWith('.')) queue.push(resolve(dirname(current), specifier));
      else queue.push(resolveBare(specifier));
    }
  }
  return { files, builtins };
}

describe('built entries', () => {
  it('the root entry (dist/index.js) reaches no Node builtin, through our chunks and @noble', () => {
    const { files, builtins } = reachable(entryFile('.'));
    expect([...files].some((f) => f.includes('@noble/curves'))).toBe(true); // the walk follows deps
    expect(Object.fromEntries(builtins)).toEqual({});
  });
  it('the ./node entry is the one that imports node:crypto', () => {
    const node = entryFile('./node');
    const { builtins } = reachable(node);
    expect(builtins.get(node)).toEqual(expect.arrayContaining([expect.stringMatching(/^(node:)?crypto$/)]));
  });
  it('the built root entry loads and signs without the node backend', async () => {
    const root = (await import(entryFile('.'))) as Record<string, unknown>;
    expect(root.nodeSignatures).toBeUndefined();
    expect(typeof root.signEvent).toBe('function');
    const nodeEntry = (await import(entryFile('./node'))) as Record<string, unknown>;
    expect((nodeEntry.nodeSignatures as { name: string }).name).toBe('node');
    expect(nodeEntry.signEvent).toBe(root.signEvent); // one module instance, shared chunk
  });
});
