#!/usr/bin/env node
// What importing each published entry costs: a fresh Node per entry imports it once and reports the
// wall time of the import and the heap and RSS growth it caused (after a full GC on both sides).
//
//   node scripts/import-cost.mjs                   # every entry of every published package (after pnpm build)
//   node scripts/import-cost.mjs @xprotocol/translate @xprotocol/semantic/search
//   node scripts/import-cost.mjs --from DIR --json # resolve from DIR's node_modules, print JSON
//
// Entries resolve from tools/checks by default (it lists every published package as a workspace
// devDependency). The tarball check (tools/checks/test/tarballs.test.ts) runs this against an
// installed project. Figures vary with the machine and its load: compare them within one run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every import specifier the published packages export (root entries and subpaths). */
function publishedEntries() {
  const entries = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const file = join(root, group, name, 'package.json');
      if (!existsSync(file)) continue;
      const m = JSON.parse(readFileSync(file, 'utf8'));
      if (m.private === true) continue;
      for (const subpath of Object.keys(m.exports ?? {})) {
        if (subpath.endsWith('.json')) continue;
        entries.push(subpath === '.' ? m.name : `${m.name}/${subpath.slice(2)}`);
      }
    }
  }
  return entries;
}

// Runs in the child: GC, snapshot, import, GC, snapshot. Both GCs so the delta is what stays live.
const _probe = `
const spec = process.argv[1];
globalThis.gc();
const before = process.memoryUsage();
const t0 = performance.now();
await import(spec);
const ms = performance.now() - t0;
globalThis.gc();
const after = process.memoryUsage();
process.stdout.write(JSON.stringify({ ms, heapBytes: after.heapUsed - before.heapUsed, rssBytes: after.rss - before.rss }));
`;

/**
 * Imports `specifier` in a fresh Node whose working directory is `from` and returns
 * `{ specifier, ms, heapBytes, rssBytes }`; throws with the child's stderr when the import fails.
 */
export function measureImport(specifier, from) {
  const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', _probe, specifier], {
    cwd: from,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (child.status !== 0) {
    throw new Error(
      `import("${specifier}") from ${from} failed (exit ${child.status}): ${child.stderr.trim()}`,
    );
  }
  return { specifier, ...JSON.parse(child.stdout) };
}

const _mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const fromAt = args.indexOf('--from');
  const from = fromAt >= 0 ? args[fromAt + 1] : join(root, 'tools', 'checks');
  const specifiers = args.filter((a, i) => !a.startsWith('--') && (fromAt < 0 || i !== fromAt + 1));
  const results = (specifiers.length > 0 ? specifiers : publishedEntries()).map((s) =>
    measureImport(s, from),
  );
  if (json) {
    process.stdout.write(`${JSON.stringify(results)}\n`);
  } else {
    const width = Math.max(...results.map((r) => r.specifier.length));
    console.log(`${'entry'.padEnd(width)}  import ms   heap Δ    RSS Δ`);
    for (const r of results) {
      console.log(
        `${r.specifier.padEnd(width)}  ${r.ms.toFixed(0).padStart(9)}  ${_mb(r.heapBytes).padStart(7)}  ${_mb(r.rssBytes).padStart(7)}`,
      );
    }
  }
}
