// The dependency rules of docs/architecture.md ("Packages and floors") as a checker: the allowed
// arrows are read from that table, the actual arrows from each workspace package's dependencies
// and the static imports of its src/, and every difference is a violation with a reason.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { importsOf, sourceFiles } from './_source-graph.js';
import { REPO_ROOT, workspacePackages } from './_workspace.js';

/** One row of the architecture table: a package, its floor (`app` for apps) and what it may import. */
export interface Layer {
  name: string;
  floor: number | 'app';
  mayImport: string[];
}

/** An arrow from one workspace package to another, with where it was found. */
export interface Arrow {
  from: string;
  to: string;
  /** `package.json dependencies`, or `<file>` for an import (the specifier follows). */
  where: string;
  specifier?: string;
}

/** The actual graph: workspace package names, arrows, and imports that leave their package. */
export interface Graph {
  packages: string[];
  arrows: Arrow[];
  escapes: { from: string; where: string; specifier: string }[];
}

/** The app whose public API another app may import (the devserver composes the adapter). */
export const COMPOSABLE_APP = { from: '@xprotocol/devserver', to: '@xprotocol/mcp-adapter' } as const;

/** Reads the "Packages and floors" table of docs/architecture.md. */
export function readLayers(markdown: string): Layer[] {
  const start = markdown.indexOf('## Packages and floors');
  if (start < 0)
    throw new Error('docs/architecture.md: expected a "## Packages and floors" section, found none');
  const section = markdown.slice(start).split(/\n## /)[0] ?? '';
  const layers: Layer[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !/^(\d+|app)$/.test(cells[1] ?? '')) continue;
    const name = /`([^`]+)`/.exec(cells[2] ?? '')?.[1];
    if (name === undefined) throw new Error(`docs/architecture.md: expected a \`package\` in row "${line}"`);
    const mayImport = [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    layers.push({ name, floor: cells[1] === 'app' ? 'app' : Number(cells[1]), mayImport });
  }
  if (layers.length === 0)
    throw new Error('docs/architecture.md: the "Packages and floors" table has no rows');
  return layers;
}

/** Every violation of `layers` by `graph`, one sentence each (empty when the graph keeps the rules). */
export function checkGraph(graph: Graph, layers: readonly Layer[]): string[] {
  const problems: string[] = [];
  const byName = new Map(layers.map((l) => [l.name, l]));
  for (const name of graph.packages) {
    if (!byName.has(name))
      problems.push(`${name} is not in docs/architecture.md's "Packages and floors" table`);
  }
  // The table itself must keep the floors.
  for (const layer of layers) {
    for (const target of layer.mayImport) {
      const to = byName.get(target);
      if (to === undefined) {
        problems.push(
          `docs/architecture.md: ${layer.name} may import ${target}, which the table does not list`,
        );
      } else if (layer.floor !== 'app' && to.floor === 'app') {
        problems.push(
          `docs/architecture.md: ${layer.name} may import the app ${target}; packages never import apps`,
        );
      } else if (layer.floor === 'app' && to.floor === 'app') {
        if (layer.name !== COMPOSABLE_APP.from || target !== COMPOSABLE_APP.to)
          problems.push(
            `docs/architecture.md: the app ${layer.name} may import the app ${target}; apps never import each other`,
          );
      } else if (layer.floor !== 'app' && to.floor !== 'app' && to.floor >= layer.floor) {
        problems.push(
          `docs/architecture.md: ${layer.name} (floor ${layer.floor}) may import ${target} (floor ${to.floor}); a package imports only from lower floors`,
        );
      }
    }
  }
  // Every actual arrow must be an allowed one.
  for (const arrow of graph.arrows) {
    const from = byName.get(arrow.from);
    const to = byName.get(arrow.to);
    const at = arrow.specifier === undefined ? arrow.where : `${arrow.where} imports "${arrow.specifier}"`;
    if (from === undefined || to === undefined) continue; // reported above
    if (!from.mayImport.includes(arrow.to)) {
      problems.push(
        `${arrow.from} → ${arrow.to} (${at}) is not an allowed arrow; expected one of: ${from.mayImport.join(', ') || 'none'}`,
      );
    } else if (
      arrow.from === COMPOSABLE_APP.from &&
      arrow.to === COMPOSABLE_APP.to &&
      arrow.specifier !== undefined &&
      arrow.specifier !== COMPOSABLE_APP.to
    ) {
      problems.push(`${at}: the devserver may import only the adapter's public API ("${COMPOSABLE_APP.to}")`);
    }
  }
  for (const leak of graph.escapes) {
    problems.push(
      `${leak.where} imports "${leak.specifier}", which leaves ${leak.from}; import the package instead`,
    );
  }
  for (const cycle of findCycles(graph)) problems.push(`cycle: ${cycle.join(' → ')}`);
  return problems;
}

/** The cycles of the graph's arrows, each as a path that returns to its start. */
export function findCycles(graph: { arrows: readonly { from: string; to: string }[] }): string[][] {
  const next = new Map<string, Set<string>>();
  for (const a of graph.arrows) {
    if (a.from === a.to) continue;
    const targets = next.get(a.from) ?? new Set<string>();
    targets.add(a.to);
    next.set(a.from, targets);
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'active' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'active');
    path.push(node);
    for (const to of [...(next.get(node) ?? [])].sort()) {
      if (state.get(to) === 'active') cycles.push([...path.slice(path.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** The workspace's actual graph: dependencies and static imports of src/ (tools/ excluded). */
export function readWorkspaceGraph(root = REPO_ROOT): Graph {
  const members = workspacePackages().filter((p) => !p.dir.startsWith('tools/'));
  const names = new Set(members.map((p) => p.manifest.name));
  const graph: Graph = { packages: [...names].sort(), arrows: [], escapes: [] };
  for (const member of members) {
    const from = member.manifest.name;
    const deps = Object.keys((member.manifest.dependencies as Record<string, string> | undefined) ?? {});
    for (const to of deps)
      if (names.has(to) && to !== from)
        graph.arrows.push({ from, to, where: `${member.dir}/package.json dependencies` });
    const dir = join(root, member.dir);
    for (const file of sourceFiles(join(dir, 'src'))) {
      const where = relative(root, file);
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (relative(dir, target).startsWith('..')) graph.escapes.push({ from, where, specifier });
          continue;
        }
        const to = _packageOf(specifier);
        if (names.has(to) && to !== from) graph.arrows.push({ from, to, where, specifier });
      }
    }
  }
  return graph;
}

function _packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
