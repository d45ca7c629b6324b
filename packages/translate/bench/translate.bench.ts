/**
 * Translation cost over real servers (testdata/mcp-servers): the baseline is what any
 * gateway must do anyway — compile every inputSchema in ajv — beside the full translation with the
 * default seams (annotations by @xprotocol/semantic) and without annotations. vitest bench
 * reports each subject as a ratio of the baseline in the same run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { type JsonObject, SchemaCompiler, translateSource } from '../src/index.js';
import { SERVERS_DIR as DIR } from '../test/_data.js';

const FILES = [
  'modelcontextprotocol__server-github.json',
  'modelcontextprotocol__server-filesystem.json',
  'firecrawl-mcp.json',
];
const servers = FILES.map((file) => {
  const data = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as {
    tools: { inputSchema: JsonObject }[];
  };
  return { file, tools: data.tools };
});
const compiler = new SchemaCompiler();
/** Few, long iterations: each one translates every tool once. */
const OPTIONS = { time: 0, iterations: 5, warmupTime: 0, warmupIterations: 1 };

describe(`translate ${servers.reduce((n, s) => n + s.tools.length, 0)} tools (${FILES.join(', ')})`, () => {
  bench(
    'baseline: ajv compile of every inputSchema',
    () => {
      for (const s of servers) for (const t of s.tools) compiler.compile(t.inputSchema);
    },
    OPTIONS,
  );
  bench(
    'translateSource, default seams',
    () => {
      for (const s of servers)
        translateSource(
          { name: s.file, namespace: 'com.bench', tools: s.tools, adapterVersion: '0.0.0' },
          { compiler },
        );
    },
    OPTIONS,
  );
  bench(
    'translateSource, no annotation',
    () => {
      for (const s of servers) {
        translateSource(
          { name: s.file, namespace: 'com.bench', tools: s.tools, adapterVersion: '0.0.0' },
          { compiler, seams: { annotate: () => ({}) } },
        );
      }
    },
    OPTIONS,
  );
});
