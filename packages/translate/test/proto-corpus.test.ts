/**
 * The proto3 round trip on the MaskBench dev corpus (testdata/jsonschema/maskbench-dev.jsonl.gz,
 * guidance-ai/jsonschemabench, MIT; see testdata/SOURCES.md): for every schema the binding
 * translates, the schema that comes back accepts and rejects each of the corpus's test instances
 * exactly as the original does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SchemaCompiler } from '../src/index.js';
import { jsonSchemaToProto, protoToJsonSchema } from '../src/proto.js';

const CORPUS = join(import.meta.dirname, '../../../testdata/jsonschema/maskbench-dev.jsonl.gz');

interface Row {
  file: string;
  schema: unknown;
  tests: { description: string; valid: boolean; data: unknown }[];
}

describe('proto3 round trip on MaskBench dev', () => {
  it('every translated schema agrees with its round trip on every test instance', () => {
    const rows = gunzipSync(readFileSync(CORPUS))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
    const compiler = new SchemaCompiler();
    const byReason = new Map<string, number>();
    let translated = 0;
    let instances = 0;
    const disagreements: string[] = [];
    for (const row of rows) {
      const r = jsonSchemaToProto('corpus', row.schema);
      if (!r.ok) {
        const first = r.refusals[0]!.reason;
        // a keyword's name is the reason itself; other quoted names are the schema's own
        const reason = /^"[^"]+" has no protobuf form$/.test(first)
          ? first
          : first.replace(/"[^"]*"/g, '"…"').replace(/\(.*\)$/, '');
        byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
        continue;
      }
      const original = compiler.compile(row.schema as never);
      if (!original.ok) {
        // nothing to compare against (e.g. a $schema ajv does not know)
        byReason.set(
          'translated, but the original does not compile in ajv',
          (byReason.get('translated, but the original does not compile in ajv') ?? 0) + 1,
        );
        continue;
      }
      translated++;
      if (JSON.stringify(row.schema).includes('"$async":true')) {
        // ajv compiles a $async schema to a validator returning a promise: no verdict to compare
        byReason.set(
          'translated, but ajv validates it asynchronously',
          (byReason.get('translated, but ajv validates it asynchronously') ?? 0) + 1,
        );
        continue;
      }
      const back = compiler.compile(protoToJsonSchema(r.file) as never);
      expect(back.ok, `${row.file}: ${back.ok ? '' : back.reason}`).toBe(true);
      if (!back.ok) continue;
      for (const t of row.tests) {
        instances++;
        const a = original.validate(t.data);
        const b = back.validate(t.data);
        if (a !== b) disagreements.push(`${row.file} "${t.description}": original ${a}, round trip ${b}`);
      }
    }
    console.log(
      `proto3 on MaskBench dev: ${translated} of ${rows.length} translated, ${instances} instances`,
      Object.fromEntries([...byReason].sort((x, y) => y[1] - x[1])),
    );
    expect(disagreements).toEqual([]);
    expect(rows.length).toBe(3778);
  }, 600_000);
});
