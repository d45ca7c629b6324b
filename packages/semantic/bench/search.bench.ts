// Index build time and search latency over 3,360 tools (the 672 dev tools of
// testdata/mcp-servers replicated under 5 distinct namespaces), ToolIndex beside a plain
// BM25 (MiniSearch, name + description, same tokenizer) in the same run: `pnpm bench`.
import { bench, describe } from 'vitest';
import { PlainBm25 } from '../scripts/baseline-bm25.mjs';
import { benchDocuments, benchQueries } from '../scripts/bench-workload.mjs';
import { ToolIndex } from '../src/search.js';

const docs = benchDocuments();
const queries = benchQueries();

const index = new ToolIndex();
index.add(docs);
const lexicalOnly = new ToolIndex({ vectorWeight: 0, embedder: null });
lexicalOnly.add(docs);
const baseline = new PlainBm25();
baseline.add(docs);
let i = 0;
let j = 0;
let k = 0;

describe(`build an index of ${docs.length} tools`, () => {
  bench(
    'ToolIndex.add',
    () => {
      new ToolIndex().add(docs);
    },
    { iterations: 5, warmupIterations: 1, time: 0 },
  );
  bench(
    'plain BM25 (MiniSearch, name + description)',
    () => {
      new PlainBm25().add(docs);
    },
    { iterations: 5, warmupIterations: 1, time: 0 },
  );
});

describe(`search ${docs.length} tools (limit 10), ${queries.length} rotating queries`, () => {
  bench(
    'ToolIndex.search',
    () => {
      index.search(queries[i++ % queries.length]!, { limit: 10 });
    },
    { time: 3000 },
  );
  bench(
    'ToolIndex.search, lexical only (vectorWeight 0)',
    () => {
      lexicalOnly.search(queries[k++ % queries.length]!, { limit: 10 });
    },
    { time: 3000 },
  );
  bench(
    'plain BM25 search',
    () => {
      baseline.search(queries[j++ % queries.length]!, { limit: 10 });
    },
    { time: 3000 },
  );
});
