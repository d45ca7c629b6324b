// The whole retrieval evaluation in one table: `pnpm --filter @xprotocol/semantic eval` (after
// build). Sets: MetaTool single and multi (testdata/retrieval), the MCP task set's tuning half
// (eval/mcp-tasks-tune.json) and check half (eval/mcp-tasks-check.json, never tuned on), the
// 156 MCP-style queries (eval/mcp-style-queries.json) and, when present, the blind check sets 2
// and 3 (eval/mcp-tasks-check2.json, eval/mcp-tasks-check3.json; reporting only, never tuned on).
// Each set is ranked by ToolIndex (its defaults: static embeddings and the learned re-ranker on,
// round 6), by ToolIndex without the ranker (`ranker: false`, the round-4 defaults), by ToolIndex
// without static embeddings (`embedder: null`, which also leaves the ranker off: the round-3
// defaults), by the static embeddings alone and by a plain BM25 (name + description, same
// tokenizer, k1 = 1.2, b = 0.75) in the same run; then the search latency over 3,360 tools (query
// embedding included) and the index's heap.
//
//   node scripts/eval-tasks.mjs [--sets=tune,check,mcp156,check2,check3,metatool-single,metatool-multi]
//                               [--ablations] [--no-latency]
//
// --ablations adds one row per variant of ToolIndex (see VARIANTS) on every set.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RANKER_FEATURES, staticTextVector, ToolIndex } from '../dist/search.js';
import { mcpDocuments } from './_mcp-corpus.mjs';
import { RETRIEVAL_DIR, readJsonFile } from './_testdata.mjs';
import { PlainBm25 } from './baseline-bm25.mjs';
import { benchDocuments, benchQueries } from './bench-workload.mjs';
import { evaluate } from './retrieval-metrics.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const setsArg = args.find((a) => a.startsWith('--sets='))?.slice(7);
const local = (file) => new URL(`../eval/${file}`, import.meta.url).pathname;
const SETS = setsArg
  ? setsArg.split(',')
  : [
      'metatool-single',
      'metatool-multi',
      'tune',
      'check',
      'mcp156',
      ...(existsSync(local('mcp-tasks-check2.json')) ? ['check2'] : []),
      ...(existsSync(local('mcp-tasks-check3.json')) ? ['check3'] : []),
    ];

/** ToolIndex without the static embeddings (word vectors back at 1.5): the round-3 defaults. */
const NO_STATIC = { embedder: null };
const NO_STATIC_LABEL = 'ToolIndex, no static embeddings';

/** ToolIndex without the learned re-ranker (`ranker: false`): the round-4 defaults. */
const NO_RANKER = { ranker: false };
const NO_RANKER_LABEL = 'ToolIndex, no ranker';

/** The round-5 ranker (its 19 features, no server evidence; weights of src/_ranker-weights.data.ts
 * at round 5), to show what the server-evidence features of round 6 bought. */
const ROUND5 = {
  ranker: {
    features: RANKER_FEATURES,
    weights: [
      10.7642,
      -0.063286,
      0.0263427,
      -0.272073,
      -0.0102222,
      0.375744,
      -0.563138,
      -0.579898,
      -1.11977,
      0.710322,
      0.206026,
      2.80848,
      3.0802,
      0.435565,
      0.0436129,
      0.239632,
      1.40709,
      0.0975223,
      0.519185,
      ...RANKER_FEATURES.slice(19).map(() => 0),
    ],
    bias: -5.7873,
  },
};
const ROUND5_LABEL = 'ToolIndex, round-5 ranker (no server evidence)';

/** Ablations: [label, ToolIndex options, document transform]. */
const VARIANTS = [
  ['no server fields', {}, (d) => ({ ...d, server: undefined })],
  ['no tool title', {}, (d) => ({ ...d, title: undefined })],
  ['no parameters', { fieldBoosts: { params: 0 } }, (d) => d],
  ['no server affinity', { serverWeight: 0 }, (d) => d],
  ['with name coverage 0.1', { nameCoverage: 0.1 }, (d) => d],
  ['with WordNet synonyms (first sense 0.2)', { synonyms: { first: 0.2 } }, (d) => d],
  ['with WordNet synonyms (0.4 / other senses 0.2)', { synonyms: { first: 0.4, other: 0.2 } }, (d) => d],
  ['no typo matching', { typoWeight: 0 }, (d) => d],
  ['with clause fusion (k 3, whole query ×2)', { clauseFusion: true }, (d) => d],
  ['no agent jargon', { agentJargon: false }, (d) => d],
  ['no query cleanup (nor jargon)', { queryCleanup: false }, (d) => d],
  ['lexical only', { vectorWeight: 0, embedder: null }, (d) => d],
  ['static embeddings 0.5 beside word vectors 1.5', { vectorWeight: 1.5 }, (d) => d],
  [
    'static embeddings 1 instead of word vectors',
    { vectorWeight: 0, embedder: { embed: staticTextVector, weight: 1 } },
    (d) => d,
  ],
  ['no concepts', { concepts: false }, (d) => d],
];

function loadSet(name) {
  if (name.startsWith('metatool-')) {
    const set = readJsonFile(join(RETRIEVAL_DIR, `${name}.json`));
    const docs = set.corpus.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      inputSchema: typeof t.params === 'object' && t.params !== null ? t.params : undefined,
      namespace: '',
    }));
    return { docs, queries: set.queries };
  }
  const docs = mcpDocuments();
  const file = {
    tune: 'mcp-tasks-tune.json',
    check: 'mcp-tasks-check.json',
    mcp156: 'mcp-style-queries.json',
    check2: 'mcp-tasks-check2.json',
    check3: 'mcp-tasks-check3.json',
  }[name];
  if (file === undefined)
    throw new Error(
      `unknown set ${JSON.stringify(name)}; expected metatool-single, metatool-multi, tune, check, mcp156, check2 or check3`,
    );
  const raw = JSON.parse(readFileSync(local(file), 'utf8'));
  const queries = Array.isArray(raw) ? raw : raw.tasks;
  const known = new Set(docs.map((d) => d.id));
  const unknown = queries
    .flatMap((q) => q.gold.map((g) => (typeof g === 'string' ? g : g.id)))
    .filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`${file}: gold ids not in the corpus: ${unknown.join(', ')}`);
  return { docs, queries };
}

const rows = [];
for (const name of SETS) {
  const { docs, queries } = loadSet(name);
  const systems = [
    ['ToolIndex', {}, (d) => d],
    [ROUND5_LABEL, ROUND5, (d) => d],
    [NO_RANKER_LABEL, NO_RANKER, (d) => d],
    [NO_STATIC_LABEL, NO_STATIC, (d) => d],
    ...(flag('ablations') ? VARIANTS : []),
  ];
  const byName = {};
  for (const [label, options, transform] of systems) {
    const index = new ToolIndex(options);
    index.add(docs.map(transform));
    byName[label] = evaluate((q, k) => index.search(q, { limit: k }), queries);
    rows.push({ set: name, system: label.startsWith('ToolIndex') ? label : `  ${label}`, ...byName[label] });
  }
  rows.push({ set: name, system: 'static embeddings alone', ...evaluate(_staticRanker(docs), queries) });
  const base = new PlainBm25();
  base.add(docs);
  const bm = evaluate((q, k) => base.search(q, { limit: k }), queries);
  rows.push({ set: name, system: 'plain BM25', ...bm });
  rows.push({
    set: name,
    system: 'Δ nDCG@10 vs BM25 (ToolIndex / no ranker / no static embeddings)',
    ndcg10: `${_delta(byName.ToolIndex.ndcg10, bm.ndcg10)} / ${_delta(byName[NO_RANKER_LABEL].ndcg10, bm.ndcg10)} / ${_delta(byName[NO_STATIC_LABEL].ndcg10, bm.ndcg10)}`,
  });
}

function _delta(a, b) {
  return (Math.round((a - b) * 10) / 10).toFixed(1);
}

/** Every tool by cosine of its static embedding (name, title, description's first 400
 * characters, as ToolIndex embeds it) to the query's, ties by id. */
function _staticRanker(docs) {
  const vectors = docs.map((d) =>
    staticTextVector([d.name, d.title, (d.description ?? '').slice(0, 400)].filter(Boolean).join(' ')),
  );
  return (q, k) => {
    const qv = staticTextVector(q);
    if (qv === null) return [];
    const hits = [];
    docs.forEach((d, i) => {
      const v = vectors[i];
      if (v === null) return;
      let s = 0;
      for (let j = 0; j < v.length; j++) s += v[j] * qv[j];
      hits.push({ id: d.id, score: s });
    });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, k);
  };
}
console.table(rows);

/** Heap of one index: a first build warms the shared tables (word vectors, caches), then the
 * heap growth of a second build, both alive, is what one index holds. A function of its own so no
 * stack slot keeps the previous system's index alive. */
function heapOf(make, docs) {
  const warm = make();
  warm.add(docs);
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const index = make();
  index.add(docs);
  globalThis.gc();
  globalThis.gc();
  const heap = process.memoryUsage().heapUsed - before;
  warm.search('keep alive', { limit: 1 });
  index.search('keep alive', { limit: 1 });
  return Math.round(heap / 1e5) / 10;
}

function latencyOf(make, docs, queries) {
  const index = make();
  index.add(docs);
  for (const q of queries) index.search(q, { limit: 10 });
  const times = [];
  for (let round = 0; round < 5; round++) {
    for (const q of queries) {
      const t0 = performance.now();
      index.search(q, { limit: 10 });
      times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  const q = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 100) / 100;
  return { searches: times.length, 'median ms': q(0.5), 'p99 ms': q(0.99) };
}

if (!flag('no-latency')) {
  const docs = benchDocuments();
  const queries = benchQueries();
  const out = [];
  for (const [label, make] of [
    ['ToolIndex', () => new ToolIndex()],
    [NO_RANKER_LABEL, () => new ToolIndex(NO_RANKER)],
    [NO_STATIC_LABEL, () => new ToolIndex(NO_STATIC)],
    ['plain BM25', () => new PlainBm25()],
  ]) {
    out.push({
      system: label,
      tools: docs.length,
      ...latencyOf(make, docs, queries),
      'index heap MB': globalThis.gc ? heapOf(make, docs) : 'run with --expose-gc',
    });
  }
  console.table(out);
}
