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

/** Unions of JSON types (a type list, anyOf, oneOf, a required nullable) and an array of arrays. */
const UNIONS = {
  type: 'object',
  properties: {
    id: { type: ['string', 'integer'], minLength: 1 },
    note: { type: ['string', 'null'] },
    query: {
      oneOf: [
        { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false },
        { type: 'array', items: { type: 'string' } },
        { type: 'string' },
      ],
    },
    grid: { type: 'array', items: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 } } },
  },
  required: ['id', 'note'],
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
    // a bound on hanging: the two runs over every recorded tool take ~25 s on a loaded machine
  }, 180_000);

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
    [
      { anyOf: [{ type: 'object', properties: { x: {} } }, { type: 'object' }] },
      '/properties/a/anyOf/1',
      'two branches accept JSON objects',
    ],
    [{ oneOf: [{ type: 'integer' }, { type: 'number' }] }, '/properties/a/oneOf/1', 'accept JSON numbers'],
    [{ anyOf: [{ const: 'a' }, { const: 'b' }] }, '/properties/a/anyOf/1', 'need their values'],
    [{ anyOf: [{ type: 'string' }, {}] }, '/properties/a/anyOf/1', 'no single JSON type'],
    [{ type: 'string', anyOf: [{ minLength: 1 }] }, '/properties/a/type', 'beside anyOf'],
    [{ type: ['string', 'integer'], enum: ['a', 1] }, '/properties/a/enum', 'split by type'],
    [{ type: 'string', format: 'date-time' }, '/properties/a/format', 'no protovalidate string rule'],
    [{ type: 'string', pattern: '(?=a)b' }, '/properties/a/pattern', 'RE2'],
    [{ type: 'array', items: { type: 'object' }, uniqueItems: true }, '/properties/a/uniqueItems', 'scalar'],
    [{ properties: { x: {} } }, '/properties/a/properties', 'no type'],
  ])('refuses %j at %s, saying why', (sub, pointer, why) => {
    const r = jsonSchemaToProto('t', { type: 'object', properties: { a: sub, b: { type: 'string' } } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.refusals[0]!.pointer).toBe(pointer);
    expect(r.refusals[0]!.reason).toContain(why);
  });

  it('refuses a schema that is not an object', () => {
    expect(jsonSchemaToProto('t', { type: 'string' })).toEqual({
      ok: false,
      refusals: [{ pointer: '/', reason: 'a tool schema must be a JSON object schema (type "object")' }],
    });
  });

  it('writes a union of JSON types as a wrapper message with one oneof, and an array of arrays as a wrapper', () => {
    const r = jsonSchemaToProto('t', UNIONS);
    if (!r.ok) throw new Error(JSON.stringify(r.refusals));
    expect(r.protoText).toBe(`syntax = "proto3";

package xprotocol.mcp.tools;

import "buf/validate/validate.proto";
import "google/protobuf/struct.proto";
import "xprotocol/mcp/v1/json.proto";

message TInput {
  message GridItemList {
    option (xprotocol.mcp.v1.json_wrapper) = true;
    repeated int32 items = 1 [json_name = "items", (buf.validate.field) = { repeated: { items: { int32: { lte: 9 gte: 0 } } } }];
  }
  message Id {
    option (xprotocol.mcp.v1.json_wrapper) = true;
    oneof value {
      option (buf.validate.oneof) = { required: true };
      int64 integer_value = 1 [json_name = "integerValue"];
      string string_value = 2 [json_name = "stringValue", (buf.validate.field) = { string: { min_len: 1 } }];
    }
  }
  message Note {
    option (xprotocol.mcp.v1.json_wrapper) = true;
    oneof value {
      option (buf.validate.oneof) = { required: true };
      .google.protobuf.NullValue null_value = 1 [json_name = "nullValue"];
      string string_value = 2 [json_name = "stringValue"];
    }
  }
  message Query {
    option (xprotocol.mcp.v1.json_wrapper) = true;
    message ArrayList {
      option (xprotocol.mcp.v1.json_wrapper) = true;
      repeated string items = 1 [json_name = "items"];
    }
    message Object {
      optional string q = 1 [json_name = "q"];
    }
    oneof value {
      option (buf.validate.oneof) = { required: true };
      string string_value = 1 [json_name = "stringValue"];
      .xprotocol.mcp.tools.TInput.Query.ArrayList array_value = 2 [json_name = "arrayValue"];
      .xprotocol.mcp.tools.TInput.Query.Object object_value = 3 [json_name = "objectValue"];
    }
  }
  repeated .xprotocol.mcp.tools.TInput.GridItemList grid = 1 [json_name = "grid"];
  .xprotocol.mcp.tools.TInput.Id id = 2 [json_name = "id", (buf.validate.field) = { required: true }];
  .xprotocol.mcp.tools.TInput.Note note = 3 [json_name = "note", (buf.validate.field) = { required: true }];
  .xprotocol.mcp.tools.TInput.Query query = 4 [json_name = "query"];
}
`);
    expect(protoToJsonSchema(r.file)).toEqual({
      type: 'object',
      properties: {
        grid: { type: 'array', items: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 } } },
        id: { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 1 }] },
        note: { anyOf: [{ type: 'null' }, { type: 'string' }] },
        query: {
          anyOf: [
            { type: 'string' },
            { type: 'array', items: { type: 'string' } },
            { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false },
          ],
        },
      },
      required: ['id', 'note'],
      additionalProperties: false,
    });
  });

  it('numbers union members by JSON type: the branch order and key order change no byte', () => {
    const swapped = structuredClone(UNIONS) as { properties: { query: { oneOf: unknown[] } } };
    swapped.properties.query.oneOf.reverse();
    const a = jsonSchemaToProto('t', UNIONS);
    const b = jsonSchemaToProto('t', UNIONS);
    const c = jsonSchemaToProto('t', reversed(swapped));
    if (!a.ok || !b.ok || !c.ok) throw new Error('refused');
    const bytes = toBinary(FileDescriptorProtoSchema, a.file);
    expect(toBinary(FileDescriptorProtoSchema, b.file)).toEqual(bytes);
    expect(toBinary(FileDescriptorProtoSchema, c.file)).toEqual(bytes);
    expect(c.protoText).toBe(a.protoText);
  });

  it('carries title and description as leading comments, in the text and in SourceCodeInfo with spans', () => {
    const r = jsonSchemaToProto('t', {
      type: 'object',
      description: 'Reads a file.',
      properties: {
        path: { type: 'string', title: 'Path', description: 'Where the file is.\r\nRelative to the root.' },
        id: { type: ['string', 'integer'], description: 'Its number or name.' },
        mode: { type: 'string' },
      },
    });
    if (!r.ok) throw new Error(JSON.stringify(r.refusals));
    const lines = r.protoText.split('\n');
    const message = lines.indexOf('// Reads a file.');
    expect(lines.slice(message, message + 2)).toEqual(['// Reads a file.', 'message TInput {']);
    const path = lines.indexOf('  // Path');
    expect(lines.slice(path, path + 5)).toEqual([
      '  // Path',
      '  //',
      '  // Where the file is.',
      '  // Relative to the root.',
      '  optional string path = 3 [json_name = "path"];',
    ]);
    expect(lines).toContain('  // Its number or name.');
    const locations = r.file.sourceCodeInfo!.location.map((l) => ({
      path: l.path,
      leadingComments: l.leadingComments,
      span: l.span,
    }));
    expect(locations).toEqual([
      { path: [4, 0], leadingComments: ' Reads a file.\n', span: [message + 1, 0, lines.length - 2, 1] },
      {
        path: [4, 0, 2, 0],
        leadingComments: ' Its number or name.\n',
        span: [lines.indexOf('  // Its number or name.') + 1, 2, expect.any(Number)],
      },
      {
        path: [4, 0, 2, 2],
        leadingComments: ' Path\n\n Where the file is.\n Relative to the root.\n',
        span: [path + 4, 2, lines[path + 4]!.length],
      },
    ]);
    // the comments are for people: the way back has no annotations
    expect(JSON.stringify(protoToJsonSchema(r.file))).not.toContain('description');
  });
});
