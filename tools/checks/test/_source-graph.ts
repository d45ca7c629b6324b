// The file-level import graph of the workspace's sources: every static import, re-export and
// `import()` between files of one package's src/ (type imports included), resolved to the file it
// names. Other packages are reached by name, never by path (the dependency rules check that), so
// an arrow here never leaves its package.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, workspacePackages } from './_workspace.js';

/** An import from one source file to another, both relative to the repository root. */
export interface FileArrow {
  from: string;
  to: string;
  specifier: string;
}

/** One package's source files and the imports between them. */
export interface PackageSources {
  /** The package's name, e.g. `@xprotocol/mcp-bridge`. */
  name: string;
  /** Its src/ folder, relative to the repository root. */
  srcDir: string;
  files: string[];
  arrows: FileArrow[];
}

/** The sources of every package and app (tools/ excluded), with their relative imports resolved. */
export function readSourceGraph(root = REPO_ROOT): PackageSources[] {
  return workspacePackages()
    .filter((p) => !p.dir.startsWith('tools/'))
    .map((p) => {
      const srcDir = join(p.dir, 'src');
      const files = sourceFiles(join(root, srcDir)).map((f) => relative(root, f));
      const arrows: FileArrow[] = [];
      for (const file of files) {
        for (const specifier of importsOf(readFileSync(join(root, file), 'utf8'))) {
          if (!specifier.startsWith('.')) continue;
          const to = resolveSpecifier(root, file, specifier);
          if (to !== undefined) arrows.push({ from: file, to, specifier });
        }
      }
      return { name: p.manifest.name, srcDir, files, arrows };
    });
}

/** The source file a relative specifier names (`./x.js` is `x.ts` on disk), or undefined. */
function resolveSpecifier(root: string, file: string, specifier: string): string | undefined {
  const target = resolve(root, dirname(file), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return found === undefined ? undefined : relative(root, found);
}

/** The TypeScript and JavaScript sources under `dir` (declaration files excluded), sorted. */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The module specifiers a TypeScript file imports statically (imports, re-exports, `import()`), comments ignored. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}
