// Whole-corpus retrieval evaluation: `pnpm --filter @xprotocol/semantic eval` (after build).
// Prints Recall@1/5/10 and nDCG@10 of ToolIndex beside the plain BM25 baseline, on the whole set
// and on its two hash halves (A: used while choosing weights by reasoning, B: held out check).
import { join } from 'node:path';
import { ToolIndex } from '../dist/search.js';
import { RETRIEVAL_DIR, readJsonFile } from './_testdata.mjs';
import { PlainBm25 } from './baseline-bm25.mjs';
import { evaluate, halfOf } from './retrieval-metrics.mjs';

// XP_RETRIEVAL_DIR: another folder of sets in the same shape (plain or gzipped JSON).
const DATA = process.env.XP_RETRIEVAL_DIR ?? RETRIEVAL_DIR;
const sets =
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['metatool-single.json', 'metatool-multi.json'];

function docsOf(corpus) {
  return corpus.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    inputSchema: typeof t.params === 'object' && t.params !== null ? t.params : undefined,
    namespace: '',
  }));
}

const rows = [];
for (const file of sets) {
  const set = readJsonFile(join(DATA, file));
  const docs = docsOf(set.corpus);
  const index = new ToolIndex();
  index.add(docs);
  const base = new PlainBm25();
  base.add(docs);
  const systems = {
    ToolIndex: (q, k) => index.search(q, { limit: k }),
    'plain BM25': (q, k) => base.search(q, { limit: k }),
  };
  for (const [split, queries] of [
    ['all', set.queries],
    ['half A', set.queries.filter((q) => halfOf(q.id) === 0)],
    ['half B', set.queries.filter((q) => halfOf(q.id) === 1)],
  ]) {
    for (const [name, search] of Object.entries(systems)) {
      rows.push({ set: file.replace(/\.json$/, ''), split, system: name, ...evaluate(search, queries) });
    }
  }
}
console.table(rows);
