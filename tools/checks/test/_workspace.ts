// The repository's workspace, read from disk: its root and every package's manifest.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root (this file is tools/checks/test/_workspace.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** One workspace package: its folder (relative to the root) and its parsed package.json. */
export interface WorkspacePackage {
  dir: string;
  manifest: Manifest;
}

/** The package.json fields the checks read. */
export interface Manifest {
  name: string;
  private?: boolean;
  type?: string;
  license?: string;
  engines?: { node?: string };
  exports?: Record<string, unknown>;
  files?: string[];
  bin?: Record<string, string>;
  [field: string]: unknown;
}

/** Every package under packages/, apps/ and tools/, sorted by folder. */
export function workspacePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ['packages', 'apps', 'tools']) {
    const groupDir = join(REPO_ROOT, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) {
      const file = join(groupDir, name, 'package.json');
      if (!existsSync(file)) continue;
      found.push({ dir: `${group}/${name}`, manifest: JSON.parse(readFileSync(file, 'utf8')) });
    }
  }
  return found;
}

/** The packages that get published to npm (every one not marked private). */
export function publishedPackages(): WorkspacePackage[] {
  return workspacePackages().filter((p) => p.manifest.private !== true);
}
