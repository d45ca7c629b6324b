#!/usr/bin/env node
// Run after tsup in a package folder (`tsup && node ../../scripts/emit-cjs-entries.mjs`): writes the
// CommonJS side of every `exports` entry that has a `require` condition. The JavaScript is a one-line
// file that require()s the ES module build (Node ^20.19 || >=22.12 loads ES modules through
// require), so a process holds one copy of each package whichever way it loads it and `instanceof`
// holds across module systems. The declarations are the ESM ones copied to .d.cts, with relative
// specifiers pointed at the .d.cts copies, so TypeScript's node16/nodenext CommonJS mode reads a
// CommonJS declaration file. See docs/architecture.md, "Packaging".
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const cwd = process.cwd();
const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
const dist = join(cwd, 'dist');

/** Every file under dir, relative paths. */
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)).map((f) => join(e.name, f)) : [e.name],
  );
}

// 1. Declarations: every dist .d.ts gets a .d.cts twin whose relative imports name the twins.
let declarations = 0;
for (const file of walk(dist).filter((f) => f.endsWith('.d.ts'))) {
  const text = readFileSync(join(dist, file), 'utf8').replace(
    /(from\s+|import\(\s*)(['"])(\.{1,2}\/[^'"]+)\.js\2/g,
    (_m, lead, quote, path) => `${lead}${quote}${path}.cjs${quote}`,
  );
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), text);
  declarations += 1;
}

// 2. JavaScript: one CommonJS file per `require` condition, loading the `import` target.
let entries = 0;
for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
  if (typeof target !== 'object' || target === null || !target.require) continue;
  const esm = target.import?.default;
  const cjs = target.require.default;
  if (typeof esm !== 'string' || typeof cjs !== 'string' || !cjs.endsWith('.cjs')) {
    throw new Error(
      `${manifest.name} exports["${subpath}"]: expected import.default (a .js file) and require.default (a .cjs file), got ${JSON.stringify(target)}`,
    );
  }
  const specifier = `./${relative(join(cwd, cjs, '..'), join(cwd, esm)).replaceAll('\\', '/')}`;
  writeFileSync(
    join(cwd, cjs),
    `'use strict';\n// CommonJS entry: the ES module build, loaded through require(esm) so that one copy serves both.\nmodule.exports = require('${specifier}');\n`,
  );
  entries += 1;
}
console.log(`${manifest.name}: ${entries} CommonJS entries, ${declarations} .d.cts declarations`);
