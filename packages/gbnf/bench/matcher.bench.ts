/**
 * Matcher throughput: our compiled matcher against llama.cpp's own full-string matcher
 * (node-llama-cpp `LlamaGrammar._testText`, through test/support/llama.ts) on the same documents,
 * in the same run. Throughput in bytes/s = ops/s × the document size in each bench name.
 *
 * Two workloads: llama.cpp's grammars/json.gbnf (a handful of rules) on a generic JSON document,
 * and a schema-style grammar of several thousand rules (one object with 300 typed properties,
 * string patterns translated by regexToGbnf) on a document that fills every property.
 */
import { readFileSync } from 'node:fs';
import { bench, describe } from 'vitest';
import { compileMatcher, regexToGbnf } from '../src/index.js';
import { llamaGrammar } from '../test/support/llama.js';

const JSON_GBNF = readFileSync(
  new URL('../node_modules/node-llama-cpp/llama/grammars/json.gbnf', import.meta.url),
  'utf8',
).replace('root   ::= object', 'root   ::= value');

function jsonDocument(items: number): string {
  const doc = {
    items: Array.from({ length: items }, (_, i) => ({
      id: i,
      name: `item ${i} "quoted" \\ é`,
      tags: ['alpha', 'beta', 'gamma'],
      score: Number((i / 7).toFixed(6)),
      ok: i % 2 === 0,
      none: null,
    })),
  };
  return JSON.stringify(doc, null, 1).replaceAll('\n ', '\n');
}

/** A grammar like a compiled tool schema: `{"p0": …, "p1": …}` in order, typed values. */
function schemaGrammar(props: number): { gbnf: string; doc: string } {
  const patterns = [
    '^[a-z][a-z0-9-]{0,30}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^[A-Z]{2,3}\\d+$',
    '[a-z]+@[a-z]+\\.com',
  ];
  const lines = [
    'root ::= "{" ws members ws "}"',
    'ws ::= [ \\t\\n]{0,20}',
    'int ::= "-"? ([0-9] | [1-9] [0-9]{1,15})',
  ];
  const members: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < props; i++) {
    const k = i % 4;
    const pattern = patterns[k] ?? '';
    const { root, gbnf } = regexToGbnf(pattern, { prefix: `p${i}-value` });
    lines.push(`p${i} ::= "\\"p${i}\\"" ws ":" ws ("\\"" ${root} "\\"" | int | "null")`);
    lines.push(gbnf.trimEnd());
    members.push(`p${i}`);
    values.push(`"p${i}": ${JSON.stringify([`name-${i}`, '2024-01-02', `AB${i}`, 'me@x.com'][k])}`);
  }
  lines.push(`members ::= ${members.join(' ws "," ws ')}`);
  return { gbnf: `${lines.join('\n')}\n`, doc: `{${values.join(', ')}}` };
}

const json = jsonDocument(300);
const schema = schemaGrammar(300);
const ruleCount = schema.gbnf.split('\n').filter((l) => l.includes('::=')).length;

const oursJson = compileMatcher(JSON_GBNF);
const oursSchema = compileMatcher(schema.gbnf);
const llamaJson = await llamaGrammar(JSON_GBNF);
const llamaSchema = await llamaGrammar(schema.gbnf);
if (!llamaJson.ok || !llamaSchema.ok) throw new Error('llama.cpp refused a bench grammar');
for (const [m, doc] of [
  [oursJson, json],
  [llamaJson.test, json],
  [oursSchema, schema.doc],
  [llamaSchema.test, schema.doc],
] as const) {
  if (!m(doc)) throw new Error('a bench document does not match its grammar');
}

/** Enough samples to get past JIT warm-up and GC noise. */
const OPTIONS = { time: 3000, warmupTime: 1000, warmupIterations: 10 };

const kb = (s: string) => `${(Buffer.byteLength(s) / 1024).toFixed(1)} KiB`;

describe(`json.gbnf, ${kb(json)} document`, () => {
  bench(
    `ours: compileMatcher(json.gbnf) on ${Buffer.byteLength(json)} bytes`,
    () => {
      oursJson(json);
    },
    OPTIONS,
  );
  bench(
    `llama.cpp: _testText on ${Buffer.byteLength(json)} bytes`,
    () => {
      llamaJson.test(json);
    },
    OPTIONS,
  );
});

describe(`schema-style grammar, ${ruleCount} rules, ${kb(schema.doc)} document`, () => {
  bench(
    `ours: compileMatcher(schema grammar) on ${Buffer.byteLength(schema.doc)} bytes`,
    () => {
      oursSchema(schema.doc);
    },
    OPTIONS,
  );
  bench(
    `llama.cpp: _testText on ${Buffer.byteLength(schema.doc)} bytes`,
    () => {
      llamaSchema.test(schema.doc);
    },
    OPTIONS,
  );
});
