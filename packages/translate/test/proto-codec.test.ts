/**
 * Real tools' arguments through the proto3 binding in the protobuf runtime: the file loads
 * (createFileRegistry), arguments go JSON → message → binary → message → JSON and come back equal,
 * and protovalidate, reading the rules from the descriptor, accepts what the original schema
 * accepts and rejects what it rejects.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DescMessage } from '@bufbuild/protobuf';
import { createValidator } from '@bufbuild/protovalidate';
import { describe, expect, it } from 'vitest';
import { SchemaCompiler } from '../src/index.js';
import { argumentsToMessage, decodeArguments, encodeArguments, jsonSchemaToProto } from '../src/proto.js';
import { SERVERS_DIR } from './_data.js';
import { registryOf } from './_proto-registry.js';

function toolSchema(server: string, tool: string): unknown {
  const data = JSON.parse(readFileSync(join(SERVERS_DIR, server), 'utf8')) as {
    tools: { name: string; inputSchema: unknown }[];
  };
  return data.tools.find((t) => t.name === tool)!.inputSchema;
}

function messageOf(name: string, schema: unknown): DescMessage {
  const r = jsonSchemaToProto(name, schema);
  if (!r.ok) throw new Error(JSON.stringify(r.refusals));
  const desc = registryOf(r.file).getMessage(`xprotocol.mcp.tools.${r.messageName}`);
  if (desc === undefined) throw new Error(`no ${r.messageName}`);
  return desc;
}

const CASES: { server: string; tool: string; valid: unknown[]; invalid: unknown[] }[] = [
  {
    server: 'firecrawl-mcp.json',
    tool: 'firecrawl_research_related_papers',
    valid: [
      { seed_ids: ['arxiv:2401.00001'], intent: 'follow-ups', mode: 'citers', k: 25, rerank: true },
      { seed_ids: ['a', 'b'], intent: 'x' },
    ],
    invalid: [
      { seed_ids: [], intent: 'x' },
      { seed_ids: ['a'], intent: '' },
      { seed_ids: ['a'], intent: 'x', k: 0 },
      { seed_ids: ['a'], intent: 'x', k: 501 },
      { intent: 'x' },
    ],
  },
  {
    server: 'modelcontextprotocol__server-filesystem.json',
    tool: 'edit_file',
    valid: [
      { path: 'notes/a.txt', edits: [{ oldText: 'a', newText: 'b' }], dryRun: true },
      { path: 'notes/a.txt', edits: [], extra: { any: ['thing', 1, null] } },
      { path: 'notes/a.txt', edits: [{ oldText: 'a', newText: 'b', note: 'kept' }] },
    ],
    invalid: [{ path: 'notes/a.txt' }, { path: 'notes/a.txt', edits: [{ oldText: 'a' }] }],
  },
  {
    server: 'modelcontextprotocol__server-everything.json',
    tool: 'get-structured-content',
    valid: [{ location: 'New York' }, { location: 'Los Angeles' }],
    invalid: [{}],
  },
  {
    server: 'modelcontextprotocol__server-github.json',
    tool: 'create_issue',
    valid: [{ owner: 'o', repo: 'r', title: 't', labels: ['bug', 'p1'], milestone: 2.5 }],
    invalid: [{ owner: 'o', repo: 'r' }],
  },
];

describe('tool arguments through protobuf', () => {
  const validator = createValidator();
  const compiler = new SchemaCompiler();
  it.each(CASES)(
    '$tool: JSON → binary → JSON is the identity, and protovalidate agrees with the schema',
    (c) => {
      const schema = toolSchema(c.server, c.tool);
      const ajv = compiler.compile(schema as never);
      if (!ajv.ok) throw new Error(ajv.reason);
      const desc = messageOf(c.tool, schema);
      for (const args of c.valid) {
        expect(ajv.validate(args), JSON.stringify(args)).toBe(true);
        const bytes = encodeArguments(desc, args as never);
        expect(decodeArguments(desc, bytes)).toEqual(args);
        expect(validator.validate(desc, argumentsToMessage(desc, args as never)).kind).toBe('valid');
      }
      for (const args of c.invalid) {
        expect(ajv.validate(args), JSON.stringify(args)).toBe(false);
        // a required array's presence is the one rule protobuf cannot hold: the codec checks it
        let verdict: string;
        try {
          verdict = validator.validate(desc, argumentsToMessage(desc, args as never)).kind;
        } catch (e) {
          verdict = `refused by the codec: ${(e as Error).message}`;
        }
        expect(verdict, JSON.stringify(args)).not.toBe('valid');
      }
    },
  );

  it('a string enum travels as its JSON string, maps and 64-bit integers come back as JSON', () => {
    const desc = messageOf('t', {
      type: 'object',
      properties: {
        status: { enum: ['in-progress', 'done'] },
        counts: { type: 'object', additionalProperties: { type: 'integer' } },
        big: { type: 'integer' },
        tags: { type: 'array', items: { enum: ['a b', 'c'] } },
      },
      required: ['tags'],
      additionalProperties: false,
    });
    const args = { status: 'in-progress', counts: { x: 3 }, big: 9007199254740991, tags: [] };
    expect(decodeArguments(desc, encodeArguments(desc, args))).toEqual(args);
    expect(() => encodeArguments(desc, { tags: [], other: 1 })).toThrow(
      'argument member /other is not declared by xprotocol.mcp.tools.TInput, whose schema allows no other members',
    );
    expect(() => encodeArguments(desc, { tags: ['d'] })).toThrow(
      'argument /tags/0: "d" is not one of the values of',
    );
    expect(() => encodeArguments(desc, {})).toThrow('argument member /tags is required');
    // the one loss: protobuf has a single value for a missing and an empty optional array
    const noStatus = messageOf('u', {
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'string' } } },
    });
    expect(decodeArguments(noStatus, encodeArguments(noStatus, { a: [] }))).toEqual({});
  });

  it('a union travels as the member of its JSON type, null included; an array of arrays as wrappers', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: ['string', 'integer'], minLength: 1, maximum: 100 },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        value: {
          anyOf: [
            { type: 'number' },
            { type: 'boolean' },
            { type: 'array', items: { type: 'string' }, minItems: 1 },
            { type: 'object', properties: { k: { type: 'string' } }, required: ['k'] },
            { type: 'null' },
          ],
        },
        grid: { type: 'array', items: { type: 'array', items: { type: ['number', 'null'] } } },
        lists: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
      required: ['id', 'note'],
      additionalProperties: false,
    };
    const ajv = compiler.compile(schema as never);
    if (!ajv.ok) throw new Error(ajv.reason);
    const desc = messageOf('u', schema);
    const valid = [
      { id: 'a', note: null },
      { id: 7, note: 'x', value: 2.5, grid: [[1, null], [], [null]], lists: { a: ['x'], b: [] } },
      { id: 100, note: null, value: null },
      { id: 'b', note: 'y', value: true },
      { id: 'c', note: 'z', value: ['s'] },
      { id: 'd', note: 'w', value: { k: 'v' } },
      { id: 'e', note: null, value: 3 },
    ];
    for (const args of valid) {
      expect(ajv.validate(args), JSON.stringify(args)).toBe(true);
      expect(decodeArguments(desc, encodeArguments(desc, args as never))).toEqual(args);
      expect(
        validator.validate(desc, argumentsToMessage(desc, args as never)).kind,
        JSON.stringify(args),
      ).toBe('valid');
    }
    const invalid = [
      { id: '', note: null },
      { id: 101, note: null },
      { id: 'a' },
      { id: 'a', note: null, value: [] },
      { id: 'a', note: null, value: {} },
    ];
    for (const args of invalid) {
      expect(ajv.validate(args), JSON.stringify(args)).toBe(false);
      expect(
        validator.validate(desc, argumentsToMessage(desc, args as never)).kind,
        JSON.stringify(args),
      ).not.toBe('valid');
    }
    expect(() => encodeArguments(desc, { id: true, note: null })).toThrow(
      'argument /id: a JSON boolean is not one of the types it may be (integer, string)',
    );
  });
});
