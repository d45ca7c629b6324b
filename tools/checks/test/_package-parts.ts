// The parts inside a package (docs/architecture.md, "Parts inside a package") as a checker: each
// `### Parts of \`<package>\`` table names the package's parts — a folder of src/ (`gateway/`) or
// a package-wide module at the top of src/ (`errors.ts`) — and which parts each may import. Every
// source file must belong to a listed part, every import between two parts must be an allowed
// arrow, and the allowed arrows must not form a cycle.
import { posix } from 'node:path';
import { findCycles } from './_dependency-rules.js';
import type { PackageSources } from './_source-graph.js';

/** One row of a parts table: the part (`gateway/` or `errors.ts`) and what it may import. */
export interface PartRule {
  part: string;
  /** The parts it may import, or `'every part'` (the package's index). */
  mayImport: string[] | 'every part';
}

const HEADING = /^### Parts of `([^`]+)`/;

/** The parts tables of docs/architecture.md, by package name. */
export function readPartTables(markdown: string): Map<string, PartRule[]> {
  const tables = new Map<string, PartRule[]>();
  let current: PartRule[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) {
      current = [];
      tables.set(heading[1] as string, current);
      continue;
    }
    if (/^#{1,3} /.test(line)) current = undefined;
    if (current === undefined) continue;
    const cells = line.split('|').map((c) => c.trim());
    const part = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (cells.length < 4 || part === undefined) continue;
    const mayCell = cells[2] ?? '';
    const mayImport =
      mayCell === 'every part'
        ? 'every part'
        : [...mayCell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    current.push({ part, mayImport });
  }
  for (const [name, rules] of tables)
    if (rules.length === 0) throw new Error(`docs/architecture.md: the parts table of ${name} has no rows`);
  return tables;
}

/** The part a source file belongs to: its first folder under src/ (`gateway/`), or its own name. */
export function partOf(srcDir: string, file: string): string {
  const inside = posix.relative(srcDir, file);
  const slash = inside.indexOf('/');
  return slash < 0 ? inside : `${inside.slice(0, slash)}/`;
}

/** Every violation of `rules` by one package's sources, one sentence each. */
export function checkParts(sources: PackageSources, rules: readonly PartRule[]): string[] {
  const problems: string[] = [];
  const byPart = new Map(rules.map((r) => [r.part, r]));
  const seen = new Set<string>();
  for (const file of sources.files) {
    const part = partOf(sources.srcDir, file);
    seen.add(part);
    if (!byPart.has(part))
      problems.push(`${file} is in no part of ${sources.name}'s parts table (its part would be ${part})`);
  }
  for (const rule of rules) {
    if (!seen.has(rule.part))
      problems.push(`${sources.name}'s parts table lists ${rule.part}, which has no source file`);
    if (rule.mayImport === 'every part') continue;
    for (const target of rule.mayImport)
      if (!byPart.has(target))
        problems.push(
          `${sources.name}'s parts table: ${rule.part} may import ${target}, which it does not list`,
        );
  }
  for (const arrow of sources.arrows) {
    const from = partOf(sources.srcDir, arrow.from);
    const to = partOf(sources.srcDir, arrow.to);
    const rule = byPart.get(from);
    if (from === to || rule === undefined || !byPart.has(to) || rule.mayImport === 'every part') continue;
    if (!rule.mayImport.includes(to))
      problems.push(
        `${arrow.from} imports "${arrow.specifier}": ${from} → ${to} is not an allowed arrow of ${sources.name}; expected one of: ${rule.mayImport.join(', ') || 'none'}`,
      );
  }
  const allowed = rules.flatMap((r) =>
    r.mayImport === 'every part' ? [] : r.mayImport.map((to) => ({ from: r.part, to })),
  );
  for (const cycle of findCycles({ arrows: allowed }))
    problems.push(`${sources.name}'s parts table allows a cycle: ${cycle.join(' → ')}`);
  return problems;
}
