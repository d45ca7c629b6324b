/**
 * The command lines the documentation shows a user: the documents (README.md, docs/*.md, every
 * package README), their fenced blocks, and the lines in `sh` blocks that run a shipped
 * `xprotocol-` bin, directly, as `npx @xprotocol/<package>` or through the clone's pnpm scripts.
 * Read by docs-commands.test.ts (from the clone) and tarballs.test.ts (after a global install).
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, workspacePackages } from './_workspace.js';

/** The packages a user gets (apps/ and packages/; tools/ are the repository's own). */
const SHIPPED = workspacePackages().filter((p) => !p.dir.startsWith('tools/'));

/** Every bin the workspace ships: name → built script (absolute). */
export const BINS = new Map<string, string>();
/** Package name → the bin it ships. */
const BIN_OF_PACKAGE = new Map<string, string>();
for (const p of SHIPPED) {
  for (const [command, path] of Object.entries(p.manifest.bin ?? {})) {
    BINS.set(command, join(REPO_ROOT, p.dir, path));
    BIN_OF_PACKAGE.set(p.manifest.name, command);
  }
}

/** The root package.json's scripts that run a shipped bin (`"adapter": "node apps/…/bin/….js"`): script → bin. */
const BIN_OF_SCRIPT = new Map<string, string>();
const rootScripts = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  }
).scripts;
for (const [script, command] of Object.entries(rootScripts ?? {})) {
  const file = /^node (\S+)$/.exec(command)?.[1];
  const bin = [...BINS].find(([, path]) => file !== undefined && path === join(REPO_ROOT, file))?.[0];
  if (bin !== undefined) BIN_OF_SCRIPT.set(script, bin);
}

/** The documents a user follows, relative to the repository root. */
export const DOCS = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
  ...SHIPPED.map((p) => `${p.dir}/README.md`).filter((file) => existsSync(join(REPO_ROOT, file))),
];

/** Fenced blocks of a language in a markdown file (relative to the repository root). */
export function blocks(file: string, languages: readonly string[]): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const found: string[] = [];
  const fence = /^```([a-z]*)[^\n]*\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) if (languages.includes(m[1]!)) found.push(m[2]!);
  return found;
}

/** One documented command line: `line` rewritten to the bin's name, `raw` as written. */
export interface DocumentedCommand {
  file: string;
  line: string;
  raw: string;
}

/**
 * Command lines (continuations joined, comments dropped, `&&` and `;` split, a trailing `&`
 * dropped) that run an `xprotocol-` bin, directly or as `npx [-y] @xprotocol/<package>`,
 * `pnpm <root script>` or `pnpm --filter <package> exec <bin>`.
 */
function commandLines(file: string): DocumentedCommand[] {
  const lines: DocumentedCommand[] = [];
  for (const block of blocks(file, ['sh', 'bash', 'shell'])) {
    for (const text of block.replace(/\\\n\s*/g, ' ').split('\n')) {
      for (const part of text.replace(/\s+#.*$/, '').split(/\s+(?:&&|;)\s+/)) {
        const raw = part.trim().replace(/&$/, '').trim();
        const line = raw
          .replace(
            /^npx (?:-y )?(@xprotocol\/[a-z-]+)/,
            (whole, name: string) => BIN_OF_PACKAGE.get(name) ?? whole,
          )
          .replace(/^pnpm ([a-z-]+)(?=\s|$)/, (whole, script: string) => BIN_OF_SCRIPT.get(script) ?? whole)
          .replace(/^pnpm --filter \S+ exec (xprotocol-[a-z]+)/, '$1');
        if (/^xprotocol-[a-z]+\b/.test(line)) lines.push({ file, line, raw });
      }
    }
  }
  return lines;
}

/** Every documented command line of every document, in document order. */
export function documentedCommands(): DocumentedCommand[] {
  return DOCS.flatMap((file) => commandLines(file));
}

/** Words of a command line, shell-style enough for the docs (single quotes, no expansion). */
export function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}
