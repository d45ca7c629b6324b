// No function in a package's or app's src/ runs over the limit unless a `Kept whole:` comment
// above it says why (docs/architecture.md, "Checks"); the checker is fed synthetic sources first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longFunctions, MAX_FUNCTION_LINES } from './_function-length.js';
import { readSourceGraph } from './_source-graph.js';
import { REPO_ROOT } from './_workspace.js';

/** A function declaration `lines` lines long, with `before` written right above it. */
const fn = (name: string, lines: number, before = '') =>
  `${before}function ${name}() {\n${'  step();\n'.repeat(lines - 2)}}\n`;

describe('the long-function checker', () => {
  it('accepts a function of exactly the limit and finds one a line longer', () => {
    expect(longFunctions('a.ts', fn('atLimit', MAX_FUNCTION_LINES))).toEqual([]);
    expect(longFunctions('a.ts', fn('tooLong', MAX_FUNCTION_LINES + 1))).toEqual([
      { line: 1, name: 'tooLong', lines: MAX_FUNCTION_LINES + 1 },
    ]);
  });

  it('measures arrow functions, methods and nested functions on their own', () => {
    const arrow = `const run = () => {\n${'  step();\n'.repeat(130)}};\n`;
    const method = `class C {\n  go() {\n${'    step();\n'.repeat(130)}  }\n}\n`;
    const nested = `function outer() {\n${fn('inner', 125)}}\n`;
    expect(longFunctions('a.ts', arrow).map((f) => f.name)).toEqual(['run']);
    expect(longFunctions('a.ts', method).map((f) => f.name)).toEqual(['go']);
    expect(longFunctions('a.ts', nested).map((f) => [f.name, f.lines])).toEqual([
      ['outer', 127],
      ['inner', 125],
    ]);
  });

  it('lets a function through when a comment right above it starts with "Kept whole:"', () => {
    const kept = fn('kept', 150, '/** Runs it. */\n// Kept whole: one switch over the opcodes reads best.\n');
    const keptArrow = `// Kept whole: the hot loop.\nexport const run = () => {\n${'  step();\n'.repeat(130)}};\n`;
    const otherComment = fn('notKept', 150, '// This one is long.\n');
    expect(longFunctions('a.ts', kept)).toEqual([]);
    expect(longFunctions('a.ts', keptArrow)).toEqual([]);
    expect(longFunctions('a.ts', otherComment).map((f) => f.name)).toEqual(['notKept']);
  });
});

describe('the real tree', () => {
  it(`has no function over ${MAX_FUNCTION_LINES} lines in src/ without a "Kept whole:" comment`, () => {
    const found = readSourceGraph().flatMap((p) =>
      p.files.flatMap((file) =>
        longFunctions(file, readFileSync(join(REPO_ROOT, file), 'utf8')).map(
          (f) => `${file}:${f.line} ${f.name} is ${f.lines} lines`,
        ),
      ),
    );
    expect(found).toEqual([]);
  });
});
