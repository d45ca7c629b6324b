// The dependency rules of docs/architecture.md hold in the real tree, and the checker fails on
// each kind of violation (fed synthetic graphs and a synthetic table).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkGraph,
  type Graph,
  importsOf,
  type Layer,
  readLayers,
  readWorkspaceGraph,
} from './_dependency-rules.js';
import { REPO_ROOT } from './_workspace.js';

const LAYERS: Layer[] = [
  { name: 'a', floor: 1, mayImport: [] },
  { name: 'b', floor: 2, mayImport: ['a'] },
  { name: 'c', floor: 3, mayImport: ['a', 'b'] },
  { name: '@xprotocol/mcp-adapter', floor: 'app', mayImport: ['c'] },
  { name: '@xprotocol/devserver', floor: 'app', mayImport: ['c', '@xprotocol/mcp-adapter'] },
];
const graph = (arrows: Graph['arrows'], escapes: Graph['escapes'] = []): Graph => ({
  packages: LAYERS.map((l) => l.name),
  arrows,
  escapes,
});
const arrow = (from: string, to: string, specifier?: string) =>
  specifier === undefined
    ? { from, to, where: 'package.json dependencies' }
    : { from, to, where: 'src/x.ts', specifier };

describe('the dependency checker', () => {
  it('accepts arrows the table allows', () => {
    expect(
      checkGraph(
        graph([
          arrow('b', 'a'),
          arrow('c', 'b', 'b'),
          arrow('@xprotocol/devserver', '@xprotocol/mcp-adapter', '@xprotocol/mcp-adapter'),
        ]),
        LAYERS,
      ),
    ).toEqual([]);
  });

  it('fails on a new arrow', () => {
    expect(checkGraph(graph([arrow('b', 'c', 'c')]), LAYERS)).toEqual([
      'b → c (src/x.ts imports "c") is not an allowed arrow; expected one of: a',
    ]);
  });

  it('fails on a cycle', () => {
    const problems = checkGraph(graph([arrow('b', 'a'), arrow('a', 'b')]), LAYERS);
    expect(problems).toContain('cycle: a → b → a');
  });

  it('fails on a table that breaks the floors, lets a package import an app, or joins two apps', () => {
    const bad: Layer[] = [
      { name: 'a', floor: 1, mayImport: ['b'] },
      { name: 'b', floor: 2, mayImport: ['@xprotocol/mcp-adapter'] },
      { name: '@xprotocol/mcp-adapter', floor: 'app', mayImport: ['@xprotocol/devserver'] },
      { name: '@xprotocol/devserver', floor: 'app', mayImport: [] },
    ];
    expect(checkGraph({ packages: bad.map((l) => l.name), arrows: [], escapes: [] }, bad)).toEqual([
      'docs/architecture.md: a (floor 1) may import b (floor 2); a package imports only from lower floors',
      'docs/architecture.md: b may import the app @xprotocol/mcp-adapter; packages never import apps',
      'docs/architecture.md: the app @xprotocol/mcp-adapter may import the app @xprotocol/devserver; apps never import each other',
    ]);
  });

  it('fails on a deep import into the adapter, an import that leaves its package, and an unlisted package', () => {
    const problems = checkGraph(
      {
        packages: [...LAYERS.map((l) => l.name), 'd'],
        arrows: [
          arrow('@xprotocol/devserver', '@xprotocol/mcp-adapter', '@xprotocol/mcp-adapter/dist/runtime/x.js'),
        ],
        escapes: [{ from: 'b', where: 'packages/b/src/x.ts', specifier: '../../a/src/y.js' }],
      },
      LAYERS,
    );
    expect(problems).toEqual([
      'd is not in docs/architecture.md\'s "Packages and floors" table',
      'src/x.ts imports "@xprotocol/mcp-adapter/dist/runtime/x.js": the devserver may import only the adapter\'s public API ("@xprotocol/mcp-adapter")',
      'packages/b/src/x.ts imports "../../a/src/y.js", which leaves b; import the package instead',
    ]);
  });

  it('reads static imports, re-exports and import() but not comments', () => {
    expect(
      importsOf(
        "// import { x } from 'commented';\n/* from 'block' */\nimport a from 'a';\nexport { b } from 'b';\nconst c = await import('c');\nimport type { D } from 'd';",
      ).sort(),
    ).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('the real tree', () => {
  const layers = readLayers(readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8'));

  it('lists every package and app of the workspace in docs/architecture.md', () => {
    expect(layers.map((l) => l.name).sort()).toEqual(readWorkspaceGraph().packages);
  });

  it('keeps the dependency rules of docs/architecture.md (floors, apps, no cycles)', () => {
    expect(checkGraph(readWorkspaceGraph(), layers)).toEqual([]);
  });
});
