// Search latency distribution (median, p90, p99) and build time over 3,360 tools (the 672 dev
// tools under five namespaces), ToolIndex beside the plain BM25 baseline in the same process:
// `node scripts/bench-latency.mjs` after build. Complements bench/search.bench.ts (vitest bench
// reports means and p99 but not medians). Besides wall-clock times, each search's CPU time
// (process.cpuUsage, user + system): on a box shared with other jobs the wall clock also counts
// the time the process waits for a core, the CPU time only what one search costs on one core.
import { ToolIndex } from '../dist/search.js';
import { PlainBm25 } from './baseline-bm25.mjs';
import { benchDocuments, benchQueries } from './bench-workload.mjs';

const docs = benchDocuments();
const queries = benchQueries();

function quantiles(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p90: q(0.9), p99: q(0.99), max: s[s.length - 1] };
}

const rows = [];
for (const [name, make] of [
  ['ToolIndex', () => new ToolIndex()],
  ['ToolIndex, no static embeddings', () => new ToolIndex({ embedder: null })],
  ['ToolIndex, lexical only', () => new ToolIndex({ vectorWeight: 0, embedder: null })],
  ['plain BM25', () => new PlainBm25()],
]) {
  const builds = [];
  let index;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    index = make();
    index.add(docs);
    builds.push(performance.now() - t0);
  }
  for (const q of queries) index.search(q, { limit: 10 }); // warm-up
  const times = [];
  const cpu = [];
  for (let round = 0; round < 5; round++) {
    for (const q of queries) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      index.search(q, { limit: 10 });
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  const l = quantiles(times);
  const c = quantiles(cpu);
  const fmt = (x) => Math.round(x * 100) / 100;
  rows.push({
    system: name,
    tools: docs.length,
    'build ms (median of 3)': fmt(quantiles(builds).median),
    searches: times.length,
    'median ms': fmt(l.median),
    'p90 ms': fmt(l.p90),
    'p99 ms': fmt(l.p99),
    'cpu median ms': fmt(c.median),
    'cpu p99 ms': fmt(c.p99),
  });
}
console.table(rows);
