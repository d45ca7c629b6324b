#!/usr/bin/env node
/**
 * `pnpm fuzz [--inputs N] [--seed S] [--target NAME]…`: runs the fuzz targets (a million inputs by
 * default, shared by weight), prints one line per target and a total, and exits 1 when any input
 * broke its rule (crash, wrong answer, or longer than the hang limit).
 * @module
 */
import { parseArgs } from 'node:util';
import { runFuzz, TARGETS } from './index.js';

const { values } = parseArgs({
  options: {
    inputs: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
    target: { type: 'string', multiple: true },
  },
});
const inputs = Number(values.inputs);
const seed = Number(values.seed);
if (!Number.isInteger(inputs) || inputs < 1 || !Number.isInteger(seed)) {
  console.error(`--inputs and --seed take integers, got ${values.inputs} and ${values.seed}`);
  process.exit(2);
}
const chosen = values.target?.length ? TARGETS.filter((t) => values.target!.includes(t.name)) : [...TARGETS];
const unknown = (values.target ?? []).filter((name) => !TARGETS.some((t) => t.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown target ${unknown.join(', ')}; the targets are ${TARGETS.map((t) => t.name).join(', ')}`,
  );
  process.exit(2);
}
console.log(`fuzzing ${chosen.length} targets with ${inputs} inputs, seed ${seed} (replay: --seed ${seed})`);
const results = await runFuzz(chosen, {
  inputs,
  seed,
  onResult: (r) =>
    console.log(
      `${r.failure ? 'FAIL' : 'ok  '} ${r.name.padEnd(17)} ${String(r.inputs).padStart(8)} inputs  ${(r.elapsedMs / 1000).toFixed(1).padStart(6)} s  slowest ${r.slowestMs.toFixed(1)} ms  rss ${_signed(r.rssGrowthMiB)} MiB, heap ${_signed(r.heapGrowthMiB)} MiB${r.failure ? `\n     ${r.failure.error}\n     input: ${r.failure.input}` : ''}`,
    ),
});
const total = results.reduce((n, r) => n + r.inputs, 0);
const failed = results.filter((r) => r.failure);
console.log(
  `${total} inputs, ${failed.length} targets with a broken rule, 0 hangs allowed (limit 2000 ms per input)`,
);
process.exit(failed.length > 0 ? 1 : 0);

function _signed(mib: number): string {
  return `${mib >= 0 ? '+' : ''}${mib.toFixed(1)}`;
}
