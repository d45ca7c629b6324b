/**
 * A bounded, deterministic sample of MaskBench dev (every 40th of the 3,778 schemas; the whole
 * corpus is `pnpm --filter @xprotocol/gbnf eval`). Source: testdata/jsonschema/
 * maskbench-dev.jsonl.gz (guidance-ai/jsonschemabench, MIT; see testdata/SOURCES.md).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MASKBENCH_DEV } from '../scripts/_testdata.mjs';
import { parseRawJson, type RawJson, type RawObject, writeRawJson } from '../scripts/raw-json.mjs';
import { compileMatcher, compileSchema, GbnfCompileError } from '../src/index.js';

interface Row {
  file: string;
  schema: unknown;
  tests: { description: string; valid: boolean; data: unknown }[];
  /** Each test's data with numbers spelled and members ordered as in the corpus. */
  raw: RawJson[];
}

const all: Row[] = gunzipSync(readFileSync(MASKBENCH_DEV))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => {
    const row = JSON.parse(l) as Row;
    const tests = (parseRawJson(l) as RawObject).get('tests') as RawObject[];
    return { ...row, raw: tests.map((t) => t.get('data') ?? null) };
  });
const rows = all.filter((_, i) => i % 40 === 0);

describe('compileSchema on a MaskBench dev sample', () => {
  it('accepts no invalid instance (as the corpus spells it), and every failure to compile is a GbnfCompileError with a pointer', () => {
    let compiled = 0;
    let passed = 0;
    for (const row of rows) {
      let gbnf: string;
      try {
        gbnf = compileSchema(row.schema).gbnf;
      } catch (e) {
        expect(e, `${row.file}: ${String(e)}`).toBeInstanceOf(GbnfCompileError);
        expect((e as GbnfCompileError).pointer, row.file).toMatch(/^#/);
        continue;
      }
      compiled++;
      const m = compileMatcher(gbnf);
      let ok = true;
      for (const [i, t] of row.tests.entries()) {
        // members in the corpus's order; invalid instances' numbers as the corpus spells them,
        // valid ones' as JSON.stringify writes them (the compiler's convention)
        const raw = row.raw[i]!;
        const texts = t.valid
          ? [writeRawJson(raw, '', '', true), writeRawJson(raw, '', '  ', true)]
          : [writeRawJson(raw), writeRawJson(raw, '', '  ')];
        for (const text of texts) {
          const accepted = m(text);
          if (!t.valid)
            expect(
              accepted,
              `${row.file} "${t.description}" is invalid but accepted: ${text.slice(0, 200)}`,
            ).toBe(false);
          if (accepted !== t.valid) ok = false;
        }
      }
      if (ok) passed++;
    }
    expect(rows.length).toBe(95);
    // measured on this sample when the test was written: keep the floor below it, above 85 %
    expect(compiled / rows.length).toBeGreaterThan(0.9);
    expect(passed / rows.length).toBeGreaterThan(0.85);
  }, 180_000);

  it('rejects the five invalid instances once accepted (labels follow the RFCs and draft-04)', () => {
    // each was valid for ajv + ajv-formats; see the README ("Measured") for the rule each breaks
    const cases = [
      'Github_easy---o76630.json',
      'Github_hard---o75565.json',
      'Github_medium---o82651.json',
      'Github_trivial---o14485.json',
      'JsonSchemaStore---bounded-context.json',
    ];
    for (const file of cases) {
      const row = all.find((r) => r.file === file);
      expect(row, file).toBeDefined();
      const m = compileMatcher(compileSchema(row!.schema).gbnf);
      for (const [i, t] of row!.tests.entries()) {
        const text = writeRawJson(row!.raw[i]!, '', '', t.valid);
        expect(m(text), `${file} "${t.description}": ${text.slice(0, 160)}`).toBe(t.valid);
      }
    }
  }, 60_000);
});
