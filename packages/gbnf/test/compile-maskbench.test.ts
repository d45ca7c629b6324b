/**
 * A bounded, deterministic sample of MaskBench dev (every 40th of the 3,778 schemas; the whole
 * corpus is `pnpm --filter @xprotocol/gbnf eval`). Source: /work/shared/data/jsonschema/
 * maskbench-dev.jsonl.gz (guidance-ai/jsonschemabench, MIT; see data/SOURCES.md).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Ajv, type AnySchema } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { compileMatcher, compileSchema, GbnfCompileError } from '../src/index.js';

interface Row {
  file: string;
  schema: unknown;
  tests: { description: string; valid: boolean; data: unknown }[];
}

const DATA = new URL('../../../../shared/data/jsonschema/maskbench-dev.jsonl.gz', import.meta.url);
const rows: Row[] = gunzipSync(readFileSync(DATA))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row)
  .filter((_, i) => i % 40 === 0);

type AjvLike = InstanceType<typeof Ajv>;
// ajv-draft-04 and ajv-formats are CommonJS with `exports.default`; take whichever the loader gives
const Ajv04 = ((Ajv04Module as unknown as { default?: unknown }).default ?? Ajv04Module) as unknown as new (
  options: object,
) => AjvLike;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: AjvLike) => void;

/** The adapter's validator for a schema's dialect (ajv, non-strict, with ajv-formats). */
function ajvFor(schema: unknown): ((data: unknown) => boolean) | undefined {
  const uri =
    typeof schema === 'object' && schema !== null
      ? String((schema as { $schema?: unknown }).$schema ?? '')
      : '';
  const Ctor = uri.includes('draft-04')
    ? Ajv04
    : uri.includes('2019-09')
      ? Ajv2019
      : uri.includes('draft-0')
        ? Ajv
        : Ajv2020;
  const ajv = new (Ctor as new (options: object) => AjvLike)({ strict: false, logger: false });
  addFormats(ajv);
  try {
    const v = ajv.compile(schema as AnySchema);
    return (d) => v(d) === true;
  } catch {
    return undefined;
  }
}

describe('compileSchema on a MaskBench dev sample', () => {
  it('accepts no invalid instance, and every failure to compile is a GbnfCompileError with a pointer', () => {
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
      const ajv = ajvFor(row.schema);
      let ok = true;
      for (const t of row.tests) {
        for (const text of [JSON.stringify(t.data), JSON.stringify(t.data, null, 2)]) {
          const accepted = m(text);
          // an invalid instance must be rejected — unless the adapter's validator (ajv) accepts it too
          // (a handful of MaskBench labels disagree with ajv-formats)
          if (!t.valid && ajv?.(t.data) !== true) {
            expect(
              accepted,
              `${row.file} "${t.description}" is invalid but accepted: ${text.slice(0, 200)}`,
            ).toBe(false);
          }
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
});
