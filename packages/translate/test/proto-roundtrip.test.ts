/**
 * The proto3 binding (docs/translation.md §8) on every recorded tool: each inputSchema and
 * outputSchema is refused with a pointer and a reason, or goes to proto3 and back to a schema equal
 * to it in normal form; every produced file loads in the protobuf runtime.
 */
import { describe, expect, it } from 'vitest';
import { jsonSchemaToProto, protoToJsonSchema } from '../src/proto.js';
import { loadServers } from './_data.js';
import { normal } from './_proto-normal.js';
import { registryOf } from './_proto-registry.js';

describe('jsonSchemaToProto on the recorded tools', () => {
  it('refuses with a pointer and a reason, or round-trips to the same schema in normal form', () => {
    const byReason = new Map<string, number>();
    let translated = 0;
    let total = 0;
    for (const server of loadServers())
      for (const tool of server.tools as { name: string; inputSchema: unknown; outputSchema?: unknown }[])
        for (const [role, schema] of [
          ['Input', tool.inputSchema],
          ['Output', tool.outputSchema],
        ] as const) {
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
          expect(normal(protoToJsonSchema(r.file)), `${server.file} ${tool.name} ${role}`).toEqual(
            normal(schema),
          );
          expect(registryOf(r.file).getMessage(`xprotocol.mcp.tools.${r.messageName}`)).toBeDefined();
        }
    console.log(
      `proto3: ${translated} of ${total} schemas translated`,
      Object.fromEntries([...byReason].sort((a, b) => b[1] - a[1])),
    );
    expect(total).toBe(752);
    expect(translated).toBe(740);
  });
});
