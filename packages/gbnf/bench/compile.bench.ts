/**
 * Compile time of `compileSchema`. Two workloads, each raced in the same run:
 * - the 672 real MCP tool schemas (testdata/mcp-servers) — against node-llama-cpp's own JSON-schema →
 *   GBNF converter (`getGbnfGrammarForGbnfJsonSchema`, which supports a subset of JSON Schema and
 *   ignores what it does not know; schemas it throws on are skipped for both sides);
 * - every 10th MaskBench dev schema (378 schemas), against a baseline that only walks the schemas
 *   (JSON round trip), to put the compile cost in proportion.
 * The whole-corpus figures (median and p99 per schema, total) are printed by `pnpm eval`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { bench, describe } from 'vitest';
// node-llama-cpp's converter is not in its exports map: imported by file, for this bench only
import { getGbnfGrammarForGbnfJsonSchema } from '../node_modules/node-llama-cpp/dist/utils/gbnfJson/getGbnfGrammarForGbnfJsonSchema.js';
import { MASKBENCH_DEV, MCP_SERVERS } from '../scripts/_testdata.mjs';
import { compileSchema } from '../src/index.js';

const mcpDir = MCP_SERVERS;
const tools: unknown[] = [];
for (const f of readdirSync(mcpDir).sort()) {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (Array.isArray(o.tools))
        for (const t of o.tools as Record<string, unknown>[]) tools.push(t.inputSchema);
      else for (const x of Object.values(o)) walk(x);
    }
  };
  walk(JSON.parse(readFileSync(new URL(f, mcpDir), 'utf8')));
}

const tryBoth = tools.filter((s) => {
  try {
    compileSchema(s);
    getGbnfGrammarForGbnfJsonSchema(s as never);
    return true;
  } catch {
    return false;
  }
});

const corpus: unknown[] = gunzipSync(readFileSync(MASKBENCH_DEV))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .filter((_, i) => i % 10 === 0)
  .map((l) => (JSON.parse(l) as { schema: unknown }).schema);

const opts = { iterations: 2, time: 0, warmupIterations: 0, warmupTime: 0 };

describe(`compile ${tryBoth.length} MCP tool schemas (those both converters take)`, () => {
  bench(
    '@xprotocol/gbnf compileSchema',
    () => {
      for (const s of tryBoth) compileSchema(s);
    },
    opts,
  );
  bench(
    'node-llama-cpp getGbnfGrammarForGbnfJsonSchema (baseline)',
    () => {
      for (const s of tryBoth) getGbnfGrammarForGbnfJsonSchema(s as never);
    },
    opts,
  );
});

describe(`compile ${corpus.length} MaskBench dev schemas (every 10th)`, () => {
  bench(
    '@xprotocol/gbnf compileSchema',
    () => {
      for (const s of corpus) {
        try {
          compileSchema(s);
        } catch {
          // compile errors are part of the workload
        }
      }
    },
    opts,
  );
  bench(
    'JSON round trip of the same schemas (baseline)',
    () => {
      for (const s of corpus) JSON.parse(JSON.stringify(s));
    },
    opts,
  );
});
