// Retrieval over the 672 dev MCP tools (testdata/mcp-servers, see testdata/SOURCES.md) with eval/mcp-style-queries.json:
// 156 agent-style requests (paraphrased, conversational and keyword-like) written from the tool
// descriptions by someone who did not see this package's code or rankings; gold ids are
// `<server slug>/<tool name>`. `pnpm --filter @xprotocol/semantic eval:mcp` after build. Prints
// ToolIndex at several vector weights beside the plain BM25 baseline. A check on MCP-shaped
// catalogs, not a tuning set: the default weights were chosen on MetaTool half A.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolIndex } from '../dist/search.js';
import { SERVERS_DIR as SERVERS } from './_testdata.mjs';
import { PlainBm25 } from './baseline-bm25.mjs';
import { evaluate } from './retrieval-metrics.mjs';

const QUERIES = new URL('../eval/mcp-style-queries.json', import.meta.url).pathname;

const docs = [];
for (const file of readdirSync(SERVERS).sort()) {
  const dump = JSON.parse(readFileSync(join(SERVERS, file), 'utf8'));
  for (const tool of dump.tools) {
    docs.push({
      id: `${dump.server.slug}/${tool.name}`,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      namespace: dump.server.slug,
    });
  }
}
const queries = JSON.parse(readFileSync(QUERIES, 'utf8'));
const known = new Set(docs.map((d) => d.id));
const unknown = queries.flatMap((q) => q.gold).filter((id) => !known.has(id));
if (unknown.length > 0) throw new Error(`gold ids not in the corpus: ${unknown.join(', ')}`);

const rows = [];
for (const [label, options] of [
  ['ToolIndex (default)', {}],
  ...[0, 0.5, 1, 1.5].map((vectorWeight) => [
    `ToolIndex, no static embeddings, vectorWeight ${vectorWeight}`,
    { vectorWeight, embedder: null },
  ]),
]) {
  const index = new ToolIndex(options);
  index.add(docs);
  rows.push({ system: label, ...evaluate((q, k) => index.search(q, { limit: k }), queries) });
}
const base = new PlainBm25();
base.add(docs);
rows.push({ system: 'plain BM25', ...evaluate((q, k) => base.search(q, { limit: k }), queries) });
console.table(rows);
