/**
 * The proto3 round trip on the MaskBench dev corpus (testdata/jsonschema/maskbench-dev.jsonl.gz,
 * guidance-ai/jsonschemabench, MIT; see testdata/SOURCES.md), shared by the sampled test and the
 * whole-corpus evaluation: for each schema the binding translates, the schema that comes back is
 * asked for its verdict on each of the corpus's test instances, beside the original's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SchemaCompiler } from '../src/index.js';
import { jsonSchemaToProto, protoToJsonSchema } from '../src/proto.js';

const CORPUS = join(import.meta.dirname, '../../../testdata/jsonschema/maskbench-dev.jsonl.gz');

export interface CorpusRow {
  file: string;
  schema: unknown;
  tests: { description: string; valid: boolean; data: unknown }[];
}

/** What one run found. */
export interface CorpusFigures {
  /** Rows in the corpus and rows run. */
  rows: number;
  run: number;
  /** Schemas translated whose original compiles in ajv (the ones compared). */
  translated: number;
  /** Of those, the ones whose proto3 has a union (a oneof wrapper message). */
  unions: number;
  instances: number;
  /** Refusal reason (the schema's own names elided) → count, and the first file refused for it. */
  byReason: Map<string, { count: number; first: string }>;
  disagreements: string[];
  /** Round trips ajv could not compile: file and ajv's reason. */
  uncompiled: string[];
}

/** Every row of the corpus, in its order. */
export function corpusRows(): CorpusRow[] {
  return gunzipSync(readFileSync(CORPUS))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CorpusRow);
}

/** A refusal's reason with the schema's own quoted names elided, so equal reasons count together. */
export function reasonKey(reason: string): string {
  // a keyword's name is the reason itself; other quoted names are the schema's own
  return /^"[^"]+" has no protobuf form$/.test(reason)
    ? reason
    : reason
        .replace(/"[^"]*"/g, '"…"')
        .replace(/\(.*\)$/, '')
        .replace(/branch \d+/g, 'branch N');
}

/** Runs the round trip on the rows `pick` chooses (by index and row). */
export function runCorpus(pick: (index: number, row: CorpusRow) => boolean): CorpusFigures {
  const rows = corpusRows();
  const compiler = new SchemaCompiler();
  const out: CorpusFigures = {
    rows: rows.length,
    run: 0,
    translated: 0,
    unions: 0,
    instances: 0,
    byReason: new Map(),
    disagreements: [],
    uncompiled: [],
  };
  const count = (reason: string, file: string) => {
    const cur = out.byReason.get(reason);
    out.byReason.set(reason, { count: (cur?.count ?? 0) + 1, first: cur?.first ?? file });
  };
  for (const [i, row] of rows.entries()) {
    if (!pick(i, row)) continue;
    out.run++;
    const r = jsonSchemaToProto('corpus', row.schema);
    if (!r.ok) {
      count(reasonKey(r.refusals[0]!.reason), row.file);
      continue;
    }
    const original = compiler.compile(row.schema as never);
    // nothing to compare against (e.g. a $schema ajv does not know)
    if (!original.ok) {
      count('translated, but the original does not compile in ajv', row.file);
      continue;
    }
    out.translated++;
    if (r.protoText.includes('oneof value {')) out.unions++;
    if (JSON.stringify(row.schema).includes('"$async":true')) {
      // ajv compiles a $async schema to a validator returning a promise: no verdict to compare
      count('translated, but ajv validates it asynchronously', row.file);
      continue;
    }
    const back = compiler.compile(protoToJsonSchema(r.file) as never);
    if (!back.ok) {
      out.uncompiled.push(`${row.file}: ${back.reason}`);
      continue;
    }
    for (const t of row.tests) {
      out.instances++;
      const a = original.validate(t.data);
      const b = back.validate(t.data);
      if (a !== b) out.disagreements.push(`${row.file} "${t.description}": original ${a}, round trip ${b}`);
    }
  }
  return out;
}

/** The figures as one printable object, reasons by count. */
export function figuresReport(f: CorpusFigures): Record<string, unknown> {
  return {
    rows: f.rows,
    run: f.run,
    translated: f.translated,
    withUnion: f.unions,
    instances: f.instances,
    disagreements: f.disagreements.length,
    refused: Object.fromEntries(
      [...f.byReason]
        .sort((x, y) => y[1].count - x[1].count)
        .map(([k, v]) => [k, `${v.count} (first: ${v.first})`]),
    ),
  };
}
