// The dependency rules of docs/architecture.md hold in the real tree — between packages, between
// the parts inside a package, and between source files (no import circle) — and each checker
// fails on each kind of violation (fed synthetic graphs and synthetic tables).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkGraph,
  findCycles,
  type Graph,
  type Layer,
  readLayers,
  readWorkspaceGraph,
} from './_dependency-rules.js';
import { checkParts, type PartRule, partOf, readPartTables } from './_package-parts.js';
import { importsOf, type PackageSources, readSourceGraph } from './_source-graph.js';
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

describe('the parts checker', () => {
  const RULES: PartRule[] = [
    { part: 'index.ts', mayImport: 'every part' },
    { part: 'errors.ts', mayImport: [] },
    { part: 'low/', mayImport: ['errors.ts'] },
    { part: 'high/', mayImport: ['low/', 'errors.ts'] },
  ];
  const sources = (arrows: [string, string][], extra: string[] = []): PackageSources => ({
    name: 'p',
    srcDir: 'packages/p/src',
    files: [
      'packages/p/src/index.ts',
      'packages/p/src/errors.ts',
      'packages/p/src/low/a.ts',
      'packages/p/src/high/b.ts',
      'packages/p/src/high/deep/c.ts',
      ...extra,
    ],
    arrows: arrows.map(([from, to]) => ({
      from: `packages/p/src/${from}`,
      to: `packages/p/src/${to}`,
      specifier: `./${to}`,
    })),
  });

  it('puts a file in its first folder under src/, or in its own name at the top', () => {
    expect(partOf('packages/p/src', 'packages/p/src/high/deep/c.ts')).toBe('high/');
    expect(partOf('packages/p/src', 'packages/p/src/errors.ts')).toBe('errors.ts');
  });

  it('accepts arrows the table allows, arrows inside a part, and the index importing every part', () => {
    const ok = sources([
      ['high/b.ts', 'low/a.ts'],
      ['high/deep/c.ts', 'high/b.ts'],
      ['low/a.ts', 'errors.ts'],
      ['index.ts', 'high/b.ts'],
    ]);
    expect(checkParts(ok, RULES)).toEqual([]);
  });

  it('fails on a planted arrow the table does not allow', () => {
    expect(checkParts(sources([['low/a.ts', 'high/deep/c.ts']]), RULES)).toEqual([
      'packages/p/src/low/a.ts imports "./high/deep/c.ts": low/ → high/ is not an allowed arrow of p; expected one of: errors.ts',
    ]);
  });

  it('fails on a file in no part, a row with no file, an unknown target and a cycle in the table', () => {
    const rules: PartRule[] = [
      ...RULES.filter((r) => r.part !== 'low/'),
      { part: 'low/', mayImport: ['high/', 'nowhere/'] },
      { part: 'empty/', mayImport: [] },
    ];
    expect(checkParts(sources([], ['packages/p/src/stray.ts']), rules)).toEqual([
      "packages/p/src/stray.ts is in no part of p's parts table (its part would be stray.ts)",
      "p's parts table: low/ may import nowhere/, which it does not list",
      "p's parts table lists empty/, which has no source file",
      "p's parts table allows a cycle: high/ → low/ → high/",
    ]);
  });

  it('reads a parts table from its heading to the next heading', () => {
    const tables = readPartTables(
      '## Parts inside a package\n\n### Parts of `p`\n\n| part | may import | owns |\n|---|---|---|\n| `index.ts` | every part | the API |\n| `low/` | `errors.ts` | x |\n| `errors.ts` | — | y |\n\n## Next\n| `ignored/` | — | z |\n',
    );
    expect([...tables.keys()]).toEqual(['p']);
    expect(tables.get('p')).toEqual([
      { part: 'index.ts', mayImport: 'every part' },
      { part: 'low/', mayImport: ['errors.ts'] },
      { part: 'errors.ts', mayImport: [] },
    ]);
  });
});

describe('the import circle finder', () => {
  it('finds a planted two-file circle and a longer one, and nothing in a tree', () => {
    const arrows = (pairs: [string, string][]) => pairs.map(([from, to]) => ({ from, to }));
    expect(
      findCycles({
        arrows: arrows([
          ['a.ts', 'b.ts'],
          ['b.ts', 'c.ts'],
        ]),
      }),
    ).toEqual([]);
    expect(
      findCycles({
        arrows: arrows([
          ['a.ts', 'b.ts'],
          ['b.ts', 'a.ts'],
        ]),
      }),
    ).toEqual([['a.ts', 'b.ts', 'a.ts']]);
    expect(
      findCycles({
        arrows: arrows([
          ['x.ts', 'y.ts'],
          ['y.ts', 'z.ts'],
          ['z.ts', 'x.ts'],
        ]),
      }),
    ).toEqual([['x.ts', 'y.ts', 'z.ts', 'x.ts']]);
  });
});

describe('the real tree', () => {
  const architecture = readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8');
  const layers = readLayers(architecture);
  const sourceGraph = readSourceGraph();

  it('lists every package and app of the workspace in docs/architecture.md', () => {
    expect(layers.map((l) => l.name).sort()).toEqual(readWorkspaceGraph().packages);
  });

  it('keeps the dependency rules of docs/architecture.md (floors, apps, no cycles)', () => {
    expect(checkGraph(readWorkspaceGraph(), layers)).toEqual([]);
  });

  it('keeps the parts of each package with a parts table in docs/architecture.md', () => {
    const tables = readPartTables(architecture);
    expect(tables.size, 'at least one parts table').toBeGreaterThan(0);
    for (const [name, rules] of tables) {
      const sources = sourceGraph.find((p) => p.name === name);
      expect(sources, `${name} is a package of the workspace`).toBeDefined();
      expect(checkParts(sources as PackageSources, rules)).toEqual([]);
    }
  });

  it('has no import circle between source files (type imports included)', () => {
    expect(findCycles({ arrows: sourceGraph.flatMap((p) => p.arrows) })).toEqual([]);
  });
});
