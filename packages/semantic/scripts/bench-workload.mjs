// The search benchmark's workload, shared by bench/search.bench.ts and scripts/bench-latency.mjs:
// the 672 dev MCP tools under `copies` distinct namespaces (3,360 tools by default), and 10
// agent-style intents plus every 100th MetaTool single-tool query (conversational).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RETRIEVAL_DIR, readJsonFile, SERVERS_DIR } from './_testdata.mjs';

/** The dev MCP tools, once per copy, each copy under its own namespace. */
export function benchDocuments(copies = 5) {
  const docs = [];
  const files = readdirSync(SERVERS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (let copy = 0; copy < copies; copy++) {
    for (const file of files) {
      const dump = JSON.parse(readFileSync(join(SERVERS_DIR, file), 'utf8'));
      const ns = `com.example.${dump.server.slug.replace(/[^A-Za-z0-9]+/g, '_')}${copy ? `_${copy}` : ''}`;
      for (const t of dump.tools) {
        docs.push({
          id: `${ns}.${t.name}`,
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
          namespace: ns,
        });
      }
    }
  }
  return docs;
}

/** The rotating queries. */
export function benchQueries() {
  const single = readJsonFile(join(RETRIEVAL_DIR, 'metatool-single.json'));
  return [
    'read the contents of a file',
    'create a pull request',
    'post a message to slack',
    'take a screenshot of the current page',
    'list my cloudflare workers',
    'delete a kv namespace key',
    'run a sql query against postgres',
    'search the web for recent news',
    'geocode an address',
    'restart the heroku dyno',
    ...single.queries.filter((_, i) => i % 100 === 0).map((q) => q.text),
  ];
}
