/**
 * Grammars from compileSchema parse in llama.cpp itself (node-llama-cpp's pinned prebuilt binary,
 * no model) and llama.cpp's matcher agrees with ours on the test instances. Data: every 25th
 * MaskBench dev schema and every MCP tool (testdata/, see testdata/SOURCES.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MASKBENCH_DEV, MCP_SERVERS } from '../scripts/_testdata.mjs';
import { compileMatcher, compileSchema } from '../src/index.js';
import { llamaGrammar } from './support/llama.js';

interface Row {
  file: string;
  schema: unknown;
  tests: { valid: boolean; data: unknown }[];
}

const rows: Row[] = gunzipSync(readFileSync(MASKBENCH_DEV))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row)
  .filter((_, i) => i % 25 === 7);

const mcpDir = MCP_SERVERS;
const mcp: { id: string; schema: unknown }[] = [];
for (const f of readdirSync(mcpDir).sort()) {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (Array.isArray(o.tools)) {
        for (const t of o.tools as Record<string, unknown>[])
          mcp.push({ id: `${f}#${String(t.name)}`, schema: t.inputSchema });
      } else Object.values(o).forEach(walk);
    }
  };
  walk(JSON.parse(readFileSync(new URL(f, mcpDir), 'utf8')));
}

describe('compiled grammars in llama.cpp', () => {
  it('MaskBench sample: llama.cpp parses every grammar and agrees with our matcher', async () => {
    let compared = 0;
    for (const row of rows) {
      let gbnf: string;
      try {
        gbnf = compileSchema(row.schema).gbnf;
      } catch {
        continue;
      }
      const verdict = await llamaGrammar(gbnf);
      expect(verdict.ok ? 'ok' : verdict.error, row.file).toBe('ok');
      if (!verdict.ok) continue;
      const ours = compileMatcher(gbnf);
      for (const t of row.tests) {
        const text = JSON.stringify(t.data);
        expect(verdict.test(text), `${row.file} ${text.slice(0, 120)}`).toBe(ours(text));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
  }, 180_000);

  it("counts beyond llama.cpp's 2000 limit are written so llama.cpp parses and honours them", async () => {
    const cases: [unknown, string[], string[]][] = [
      [
        { type: 'string', maxLength: 4500 },
        [JSON.stringify('x'.repeat(4500))],
        [JSON.stringify('x'.repeat(4501))],
      ],
      [
        { type: 'string', minLength: 2100 },
        [JSON.stringify('y'.repeat(2100))],
        [JSON.stringify('y'.repeat(2099))],
      ],
      [
        { type: 'array', items: { type: 'integer' }, maxItems: 2500 },
        [JSON.stringify(Array(2500).fill(1))],
        [JSON.stringify(Array(2501).fill(1))],
      ],
    ];
    for (const [schema, yes, no] of cases) {
      const { gbnf } = compileSchema(schema);
      const verdict = await llamaGrammar(gbnf);
      expect(verdict.ok ? 'ok' : verdict.error, JSON.stringify(schema)).toBe('ok');
      if (!verdict.ok) continue;
      for (const t of yes)
        expect(verdict.test(t), `${JSON.stringify(schema)} accepts ${t.length} chars`).toBe(true);
      for (const t of no)
        expect(verdict.test(t), `${JSON.stringify(schema)} rejects ${t.length} chars`).toBe(false);
    }
  }, 180_000);

  it('MCP tools: llama.cpp parses the grammars', async () => {
    let parsed = 0;
    for (const t of mcp) {
      let gbnf: string;
      try {
        gbnf = compileSchema(t.schema).gbnf;
      } catch {
        continue;
      }
      const verdict = await llamaGrammar(gbnf);
      expect(verdict.ok ? 'ok' : verdict.error, t.id).toBe('ok');
      parsed++;
    }
    expect(parsed).toBe(672); // every MCP tool compiles, and llama.cpp parses every grammar
  }, 180_000);
});
