import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TESTDATA as DATA } from '../scripts/_testdata.mjs';
import { compileMatcher, regexToGbnf } from '../src/index.js';
import { prng } from './support/grammar-arbitrary.js';
import { llamaGrammar } from './support/llama.js';
import { jsonEncodeAnyForm } from './support/regex-harness.js';

// Grammars from regexToGbnf must parse in llama.cpp, and llama.cpp's matcher must agree with ours
// on JSON string literals. Patterns: hand-picked tricky ones plus a fixed sample of real ones from
// testdata/ (MCP dumps and MaskBench dev; see testdata/SOURCES.md).

function realPatterns(): string[] {
  const out = new Set<string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const v of x) walk(v);
    } else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === 'pattern' && typeof v === 'string') out.add(v);
        walk(v);
      }
    }
  };
  const servers = new URL('mcp-servers/', DATA);
  for (const f of readdirSync(servers)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    walk(JSON.parse(readFileSync(new URL(f, servers), 'utf8')));
  }
  const lines = gunzipSync(readFileSync(new URL('jsonschema/maskbench-dev.jsonl.gz', DATA)))
    .toString('utf8')
    .split('\n');
  for (const line of lines) if (line) walk((JSON.parse(line) as { schema: unknown }).schema);
  return [...out].filter((p, i) => {
    try {
      new RegExp(p, 'u');
      return i % 20 === 0;
    } catch {
      return false;
    }
  });
}

const TRICKY = [
  '^[a-z]+$',
  'ab',
  '\\bfoo\\b',
  '^.$',
  '^["\\\\/\\b\\f\\n\\r\\t\\x00-\\x1f]+$',
  '^[\\u{1F600}-\\u{1F64F}]{2}$',
  '^\\p{Lu}+$',
  '^(a?|b*)*c$',
  '^a{2100}$',
  '^(?:ab){0,2200}$',
  '[]',
  '^\\w+@\\w+\\.com$',
];

describe('regexToGbnf grammars in llama.cpp', () => {
  const patterns = [...TRICKY, ...realPatterns()];
  it('sample is large enough', () => {
    expect(patterns.length).toBeGreaterThan(60);
  });
  it.each(patterns)('/%s/: llama.cpp parses it and agrees on strings', async (pattern) => {
    const re = new RegExp(pattern, 'u');
    const { root, gbnf } = regexToGbnf(pattern, { prefix: 'pat' });
    const grammar = `root ::= "\\"" ${root} "\\""\n${gbnf}`;
    const llama = await llamaGrammar(grammar);
    expect(llama.ok, `/${pattern}/: ${llama.ok ? '' : llama.error}`).toBe(true);
    if (!llama.ok) return;
    const ours = compileMatcher(grammar);
    const rand = prng(pattern.length);
    const texts = ['', 'a', 'abc', 'foo bar', 'A1_b', '😀', 'x@y.com', '2024-01-02'];
    // llama.cpp's matcher is slow on long texts against big unanchored grammars: long ones only here
    if (TRICKY.includes(pattern)) texts.push('a'.repeat(2100), 'ab'.repeat(2200));
    for (const t of texts) {
      for (const json of [JSON.stringify(t), jsonEncodeAnyForm(t, rand)]) {
        const want = re.test(t);
        expect(ours(json), `/${pattern}/ ours ${json.slice(0, 40)}`).toBe(want);
        expect(llama.test(json), `/${pattern}/ llama ${json.slice(0, 40)}`).toBe(want);
      }
    }
  });
});
