/**
 * The proto3 binding (docs/translation.md, "proto3") on every recorded tool: each inputSchema and
 * outputSchema is refused with a pointer and a reason, or goes to proto3 and back to a schema equal
 * to it in normal form; every produced file loads in the protobuf runtime.
 */
import { createFileRegistry, toBinary } from '@bufbuild/protobuf';
import {
  FileDescriptorProtoSchema,
  file_google_protobuf_descriptor,
  file_google_protobuf_struct,
} from '@bufbuild/protobuf/wkt';
import { file_buf_validate_validate } from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import { describe, expect, it } from 'vitest';
import { jsonOptionsFile, jsonSchemaToProto, protoToJsonSchema } from '../src/proto.js';
import { loadServers } from './_data.js';
import { normal } from './_proto-normal.js';

const deps = new Map<string, unknown>([
  ['google/protobuf/struct.proto', file_google_protobuf_struct],
  ['google/protobuf/descriptor.proto', file_google_protobuf_descriptor],
  ['buf/validate/validate.proto', file_buf_validate_validate],
]);
const optionsRegistry = createFileRegistry(jsonOptionsFile, (n) => deps.get(n) as never);

export function registryOf(file: Parameters<typeof toBinary>[1]) {
  return createFileRegistry(file as never, (n: string) =>
    n === 'xprotocol/mcp/v1/json.proto' ? optionsRegistry.getFile(n) : (deps.get(n) as never),
  );
}

describe('jsonSchemaToProto on the recorded tools', () => {
  it('refuses with a pointer and a reason, or round-trips to the same schema in normal form', () => {
    const byReason = new Map<string, number>();
    let translated = 0;
    let total = 0;
    for (const server of loadServers())
      for (const tool of server.tools as { name: string; inputSchema: unknown; outputSchema?: unknown }[])
        for (const [role, schema] of [['Input', tool.inputSchema], ['Output', tool.outputSchema]] as const) {
          if (schema === undefined) continue;
          total++;
          const r = jsonSchemaToProto(tool.name, schema, { role });
          if (!r.ok) {
            expect(r.refusals.length).toBeGreaterThan(0);
            for (const f of r.refusals) expect(f.pointer, f.reason).toMatch(/^\//);
            const reason = r.refusals[0]!.reason.replace(/"[^"]*"/g, '"…"');
            byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
            continue;
          }
          translated++;
          expect(normal(protoToJsonSchema(r.file)), `${server.file} ${tool.name} ${role}`).toEqual(normal(schema));
          expect(registryOf(r.file).getMessage(`xprotocol.mcp.tools.${r.messageName}`)).toBeDefined();
        }
    console.log(`proto3: ${translated} of ${total} schemas translated`, Object.fromEntries([...byReason].sort((a, b) => b[1] - a[1])));
    expect(total).toBe(752);
    expect(translated).toBeGreaterThan(0);
  });
});
