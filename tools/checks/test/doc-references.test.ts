// Design references resolve: no file of packages/, apps/ or tools/ cites a document outside the
// repository (the design notes, the specification's sections, issue numbers), and every
// `docs/<page>.md §N` it cites names a page of docs/ and a section heading on that page.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './_workspace.js';

// Written so that this file does not match the patterns it looks for.
const FORBIDDEN = /DESIGN\.md|[Ss]eed §|issue[ ]#\d/;
const CITATION = /docs\/([a-z][a-z0-9-]*)\.md((?: §\d+(?:\.\d+)?(?:(?:, |–)§\d+(?:\.\d+)?)*)?)/g;
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage']);

/** Every problem with the references in `text` (from `file`), given the pages of docs/. */
export function referenceProblems(file: string, text: string, pages: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (FORBIDDEN.test(line))
      problems.push(`${file}:${i + 1} cites a document outside the repository: ${line.trim()}`);
    for (const match of line.matchAll(CITATION)) {
      if (!match[2]) continue; // a bare path may be data (`docs/readme.md` in a test payload)
      const page = pages.get(match[1] as string);
      if (page === undefined) {
        problems.push(`${file}:${i + 1} cites docs/${match[1]}.md, which does not exist`);
        continue;
      }
      for (const section of (match[2] ?? '').matchAll(/§(\d+(?:\.\d+)?)/g)) {
        const heading = new RegExp(`^#{2,4} ${(section[1] as string).replace('.', '\\.')}[. ]`, 'm');
        if (!heading.test(page))
          problems.push(
            `${file}:${i + 1} cites docs/${match[1]}.md §${section[1]}, which has no such section`,
          );
      }
    }
  });
  return problems;
}

function docsPages(): Map<string, string> {
  const dir = join(REPO_ROOT, 'docs');
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f.slice(0, -3), readFileSync(join(dir, f), 'utf8')] as const),
  );
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIP.has(entry) || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.(ts|mts|mjs|js|json|md|yml)$/.test(entry) && statSync(path).size < 1_000_000) out.push(path);
  }
  return out;
}

describe('design references', () => {
  const pages = new Map([['design', '# Design\n\n## 1. Principles\n\n## 7. Discovery\n\n### 7.2 Search\n']]);

  it('refuses a citation of a document outside the repository, a missing page and a missing section', () => {
    const [notes, spec, issue] = ['DESIGN' + '.md §4', 'seed ' + '§4.6', 'issue ' + '#12'];
    const D = 'docs'; // kept apart so the real-tree test below does not read these citations
    const text = [
      `// see ${notes}`,
      `// as ${spec} says`,
      `// fixed in ${issue}`,
      `// ${D}/design.md §1, §7.2 and ${D}/design.md §7 resolve`,
      `// ${D}/design.md §9 does not; nor does ${D}/nowhere.md §1`,
    ].join('\n');
    expect(referenceProblems('x.ts', text, pages)).toEqual([
      `x.ts:1 cites a document outside the repository: // see ${notes}`,
      `x.ts:2 cites a document outside the repository: // as ${spec} says`,
      `x.ts:3 cites a document outside the repository: // fixed in ${issue}`,
      'x.ts:5 cites docs/design.md §9, which has no such section',
      'x.ts:5 cites docs/nowhere.md, which does not exist',
    ]);
  });

  it('holds for every file of packages/, apps/ and tools/', () => {
    const pagesOnDisk = docsPages();
    const problems = ['packages', 'apps', 'tools'].flatMap((group) =>
      existsSync(join(REPO_ROOT, group))
        ? files(join(REPO_ROOT, group)).flatMap((path) =>
            referenceProblems(relative(REPO_ROOT, path), readFileSync(path, 'utf8'), pagesOnDisk),
          )
        : [],
    );
    expect(problems).toEqual([]);
  });
});
