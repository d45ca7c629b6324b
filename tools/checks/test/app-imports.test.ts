// Apps compose packages and never import each other, with one exception by design: the devserver
// builds on the adapter's public API (`@xprotocol/mcp-adapter`, its root entry, never its files).
// Packages never import apps. Inside an app, no two modules import each other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, workspacePackages } from './_workspace.js';

const ALLOWED = new Set(['@xprotocol/devserver -> @xprotocol/mcp-adapter']);

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map(
    (m) => m[1] ?? m[2]!,
  );
}

const packages = workspacePackages();
const apps = packages.filter((p) => p.dir.startsWith('apps/')).map((p) => p.manifest.name);

describe('imports between apps and packages', () => {
  it('an app imports another app only where allowed, and only its root entry; packages import no app', () => {
    const problems: string[] = [];
    for (const pkg of packages) {
      for (const file of sources(join(REPO_ROOT, pkg.dir, 'src'))) {
        for (const spec of specifiers(file)) {
          const target = apps.find((name) => spec === name || spec.startsWith(`${name}/`));
          if (!target || target === pkg.manifest.name) continue;
          const where = relative(REPO_ROOT, file);
          if (!pkg.dir.startsWith('apps/')) problems.push(`${where}: a package imports the app ${spec}`);
          else if (!ALLOWED.has(`${pkg.manifest.name} -> ${target}`))
            problems.push(`${where}: ${pkg.manifest.name} imports the app ${spec}`);
          else if (spec !== target) problems.push(`${where}: imports ${spec}, not the public root ${target}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('no two modules of an app import each other (directly)', () => {
    const cycles: string[] = [];
    for (const pkg of packages.filter((p) => p.dir.startsWith('apps/'))) {
      const graph = new Map<string, Set<string>>();
      for (const file of sources(join(REPO_ROOT, pkg.dir, 'src'))) {
        const targets = specifiers(file)
          .filter((s) => s.startsWith('.'))
          .map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'));
        graph.set(file, new Set(targets));
      }
      for (const [file, targets] of graph) {
        for (const target of targets) {
          if (graph.get(target)?.has(file) && file < target)
            cycles.push(`${relative(REPO_ROOT, file)} <-> ${relative(REPO_ROOT, target)}`);
        }
      }
    }
    expect(cycles).toEqual([]);
  });
});
