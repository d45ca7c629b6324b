/**
 * jsonSchemaToProto's own rules (docs/translation.md §8): the text it writes, determinism
 * (byte-identical descriptor and text, whatever the key order), and refusals with pointer and reason.
 */
import { toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { jsonSchemaToProto, protoToJsonSchema } from '../src/proto.js';
import { loadServers } from './_data.js';

const SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, pattern: '^/' },
    mode: { type: 'string', enum: ['read-only', 'rw'] },
    depth: { type: 'integer', minimum: 0, maximum: 10 },
    'max-size': { type: ['number', 'null'], exclusiveMinimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    env: { type: 'object', additionalProperties: { type: 'string' } },
    filter: { type: 'object', properties: { glob: { type: 'string' } }, additionalProperties: false },
  },
  required: ['path', 'tags'],
  additionalProperties: false,
};

/** The same schema with every object's keys in reverse order. */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reversed(x)]),
  );
}

describe('jsonSchemaToProto', () => {
  it('writes proto3 with sorted field numbers, json_name, protovalidate rules and the enum zero value', () => {
    const r = jsonSchemaToProto('list_dir', SCHEMA);
    if (!r.ok) throw new Error(JSON.stringify(r.refusals));
    expect(r.protoText).toBe(`syntax = "proto3";

package xprotocol.mcp.tools;

import "buf/validate/validate.proto";
import "xprotocol/mcp/v1/json.proto";

message ListDirInput {
  enum Mode {
    MODE_UNSPECIFIED = 0;
    MODE_READ_ONLY = 1 [(xprotocol.mcp.v1.json_value) = "read-only"];
    MODE_RW = 2 [(xprotocol.mcp.v1.json_value) = "rw"];
  }
  message Filter {
    optional string glob = 1 [json_name = "glob"];
  }
  optional int32 depth = 1 [json_name = "depth", (buf.validate.field) = { int32: { lte: 10 gte: 0 } }];
  map<string, string> env = 2 [json_name = "env"];
  .xprotocol.mcp.tools.ListDirInput.Filter filter = 3 [json_name = "filter"];
  optional double max_size = 4 [json_name = "max-size", (buf.validate.field) = { double: { gt: 0 } }, (xprotocol.mcp.v1.json) = { nullable: true }];
  optional .xprotocol.mcp.tools.ListDirInput.Mode mode = 5 [json_name = "mode", (buf.validate.field) = { enum: { defined_only: true not_in: 0 } }];
  optional string path = 6 [json_name = "path", (buf.validate.field) = { required: true string: { min_len: 1 pattern: "^/" } }];
  repeated string tags = 7 [json_name = "tags", (buf.validate.field) = { repeated: { max_items: 5 } }, (xprotocol.mcp.v1.json) = { present: true }];
}
`);
    expect(r.file.messageType[0]!.name).toBe('ListDirInput');
  });

  it('is deterministic: twice, and with every key order reversed, the same bytes and text', () => {
    const a = jsonSchemaToProto('list_dir', SCHEMA);
    const b = jsonSchemaToProto('list_dir', SCHEMA);
    const c = jsonSchemaToProto('list_dir', reversed(SCHEMA));
    if (!a.ok || !b.ok || !c.ok) throw new Error('refused');
    const bytes = toBinary(FileDescriptorProtoSchema, a.file);
    expect(toBinary(FileDescriptorProtoSchema, b.file)).toEqual(bytes);
    expect(toBinary(FileDescriptorProtoSchema, c.file)).toEqual(bytes);
    expect(c.protoText).toBe(a.protoText);
  });

  it('is deterministic on every recorded tool (two runs, byte-compared)', () => {
    let compared = 0;
    for (const server of loadServers())
      for (const tool of server.tools as { name: string; inputSchema: unknown }[]) {
        const a = jsonSchemaToProto(tool.name, tool.inputSchema);
        const b = jsonSchemaToProto(tool.name, reversed(tool.inputSchema));
        expect(b.ok).toBe(a.ok);
        if (!a.ok || !b.ok) continue;
        expect(toBinary(FileDescriptorProtoSchema, b.file)).toEqual(
          toBinary(FileDescriptorProtoSchema, a.file),
        );
        expect(b.protoText).toBe(a.protoText);
        compared++;
      }
    expect(compared).toBeGreaterThan(600);
  });

  it('comes back as the schema it came from', () => {
    const r = jsonSchemaToProto('list_dir', SCHEMA);
    if (!r.ok) throw new Error('refused');
    expect(protoToJsonSchema(r.file)).toEqual({
      type: 'object',
      properties: {
        depth: { type: 'integer', minimum: 0, maximum: 10 },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        filter: { type: 'object', properties: { glob: { type: 'string' } }, additionalProperties: false },
        'max-size': { type: ['number', 'null'], exclusiveMinimum: 0 },
        mode: { type: 'string', enum: ['read-only', 'rw'] },
        path: { type: 'string', minLength: 1, pattern: '^/' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      },
      required: ['path', 'tags'],
      additionalProperties: false,
    });
  });

  it.each([
    [
      { patternProperties: { '^x': { type: 'string' } } },
      '/properties/a/patternProperties',
      'differently typed values',
    ],
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
    [{ type: 'string', if: { minLength: 1 }, then: {} }, '/properties/a/if', 'conditional schemas'],
    [{ not: { type: 'string' } }, '/properties/a/not', 'negated'],
    [{ $ref: '#/properties/b' }, '/properties/a/$ref', 'reference'],
    [{ type: 'array', prefixItems: [{ type: 'string' }] }, '/properties/a/prefixItems', 'tuple'],
    [{ enum: ['a', 1] }, '/properties/a/enum', 'mixed-type enum'],
    [{ type: 'object', dependentSchemas: { x: {} } }, '/properties/a/dependentSchemas', 'dependent schemas'],
    [{ type: 'number', multipleOf: 2 }, '/properties/a/multipleOf', 'multiple-of'],
    [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, '/properties/a/anyOf', 'oneof'],
    [{ type: 'string', format: 'date-time' }, '/properties/a/format', 'no protovalidate string rule'],
    [{ type: 'string', pattern: '(?=a)b' }, '/properties/a/pattern', 'RE2'],
    [{ type: 'array', items: { type: 'array' } }, '/properties/a/items', 'wrapper message'],
    [{ properties: { x: {} } }, '/properties/a/properties', 'no type'],
  ])('refuses %j at %s, saying why', (sub, pointer, why) => {
    const r = jsonSchemaToProto('t', { type: 'object', properties: { a: sub, b: { type: 'string' } } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.refusals[0]!.pointer).toBe(pointer);
    expect(r.refusals[0]!.reason).toContain(why);
  });

  it('refuses a required property that may be null, and a schema that is not an object', () => {
    const r = jsonSchemaToProto('t', {
      type: 'object',
      properties: { a: { type: ['string', 'null'] } },
      required: ['a'],
    });
    expect(r).toEqual({
      ok: false,
      refusals: [
        { pointer: '/properties/a', reason: expect.stringContaining('null and missing would be one') },
      ],
    });
    expect(jsonSchemaToProto('t', { type: 'string' })).toEqual({
      ok: false,
      refusals: [{ pointer: '/', reason: 'a tool schema must be a JSON object schema (type "object")' }],
    });
  });
});
