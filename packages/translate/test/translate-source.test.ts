import { describe, expect, it } from 'vitest';
import {
  type Annotate,
  type CompileGrammar,
  SchemaCompiler,
  serializeContract,
  TranslateError,
  translateSource,
  translateTool,
} from '../src/index.js';
import { loadServers } from './_data.js';

// the specification's read_file example (docs/design.md §2)
const READ_FILE = {
  name: 'read_file',
  description: 'Read the contents of a file at the specified path',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Relative path to the file' },
      encoding: {
        type: 'string',
        enum: ['utf-8', 'base64'],
        description: 'Output encoding',
        default: 'utf-8',
      },
    },
    required: ['path'],
  },
};
const BASE = { name: 'filesystem', namespace: 'com.acme.filesystem', adapterVersion: '0.1.0' };

describe('MCP tool → schema contract (docs/design.md §2)', () => {
  it('translates the seed example field by field', () => {
    const out = translateSource({ ...BASE, tools: [READ_FILE] });
    expect(out.refused).toEqual([]);
    const c = out.contracts[0];
    expect(c).toBeDefined();
    if (c === undefined) return;
    expect(Object.keys(c)).toEqual([
      'kind',
      'version',
      'description',
      'semantic',
      'source',
      'payload',
      'response',
      'error_response',
      'auth',
      'gbnf_grammar',
      'gbnf_status',
    ]);
    // the default annotator is @xprotocol/semantic's annotateTool (docs/design.md §7)
    expect(c.semantic).toMatchObject({ domain: 'filesystem', auto_generated: true });
    expect(c.semantic?.intent_verbs).toContain('read');
    expect(c.semantic?.data_subjects).toContain('file');
    expect(typeof c.semantic?.description_quality_score).toBe('number');
    expect(c.kind).toBe('com.acme.filesystem.read_file');
    expect(c.version).toBe('1.0.0');
    expect(c.description).toBe(READ_FILE.description);
    expect(c.source).toEqual({
      type: 'mcp_adapter',
      mcp_server: 'filesystem',
      mcp_tool: 'read_file',
      namespace: 'com.acme.filesystem',
      adapter_version: '0.1.0',
    });
    expect(c.payload).toEqual(READ_FILE.inputSchema); // direct copy, no minItems: 0 added
    expect(c.payload).not.toBe(READ_FILE.inputSchema);
    expect(c.response.kind).toBe('com.acme.filesystem.read_file.result');
    expect(c.error_response.kind).toBe('xp.error');
    expect(c.auth.required_capability).toBe('com.acme.filesystem.read');
    // the default grammar compiler is @xprotocol/gbnf's compileSchema (docs/design.md §5)
    expect(c.gbnf_grammar).toMatch(/^root ::= /m);
    expect(c.gbnf_status).toEqual({ state: 'exact', warnings: [] });
    expect(
      translateSource({ ...BASE, tools: [READ_FILE] }, { seams: { compileGrammar: undefined } }).contracts[0]
        ?.gbnf_grammar,
    ).toEqual(c.gbnf_grammar);
  });
  it('carries title, annotations, outputSchema and execution under source (docs/design.md §2)', () => {
    const tool = {
      name: 'get_weather',
      title: 'Weather',
      description: 'Get the weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] },
      annotations: { readOnlyHint: true },
      execution: { taskSupport: 'optional' },
    };
    const [c] = translateSource({ ...BASE, tools: [tool] }).contracts;
    expect(c?.title).toBe('Weather');
    expect(c?.source).toMatchObject({
      title: 'Weather',
      annotations: { readOnlyHint: true },
      outputSchema: tool.outputSchema,
      execution: { taskSupport: 'optional' },
    });
    if (c === undefined) throw new Error('expected a contract');
    const structured = (c.response.payload.properties as Record<string, unknown>).structuredContent;
    expect(structured).toEqual(tool.outputSchema);
  });
  it('re-roots local references of an embedded outputSchema so the response schema still compiles and validates', () => {
    const outputSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { n: { type: 'number' } },
      properties: { t: { $ref: '#/definitions/n' } },
      required: ['t'],
    };
    const [c] = translateSource({ ...BASE, tools: [{ ...READ_FILE, outputSchema }] }).contracts;
    if (c === undefined) throw new Error('expected a contract');
    expect(c.response.payload.$schema).toBe(outputSchema.$schema);
    const compiled = new SchemaCompiler().compile(c.response.payload);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.validate({ content: [{ type: 'text', text: '1' }], structuredContent: { t: 1 } })).toBe(
      true,
    );
    expect(compiled.validate({ content: [], structuredContent: { t: 'x' } })).toBe(false);
    expect(compiled.validate({ structuredContent: { t: 1 } })).toBe(false); // content is required
  });
  it('translates prompts to {namespace}.prompt.{name} (docs/design.md §6)', () => {
    const out = translateSource({
      ...BASE,
      tools: [],
      prompts: [
        {
          name: 'args-prompt',
          description: 'd',
          arguments: [{ name: 'city', required: true }, { name: 'state' }],
        },
      ],
    });
    const c = out.contracts[0];
    expect(c?.kind).toBe('com.acme.filesystem.prompt.args-prompt');
    expect(c?.payload).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, state: { type: 'string' } },
      additionalProperties: false,
      required: ['city'],
    });
    expect(c?.auth.required_capability).toBe('com.acme.filesystem.mcp.prompts.get');
  });
});

describe('naming and collisions (docs/protocol.md §10.1)', () => {
  const schema = { type: 'object' };
  const description = 'Read the record named by the path. Use when the agent needs one record.';
  it('refuses tools whose names collide after mapping, whatever the order', () => {
    const tools = [
      { name: 'a.b', description, inputSchema: schema },
      { name: 'a_b', description, inputSchema: schema },
      { name: 'x/y', description, inputSchema: schema },
      { name: 'x.y', description, inputSchema: schema },
      { name: 'dup', description, inputSchema: schema },
      { name: 'dup', description, inputSchema: schema },
      { name: 'bad name', description, inputSchema: schema },
    ];
    const forward = translateSource({ ...BASE, tools });
    const backward = translateSource({ ...BASE, tools: [...tools].reverse() });
    expect(forward).toEqual(backward);
    expect(forward.contracts.map((c) => c.source).map((s) => (s as { mcp_tool: string }).mcp_tool)).toEqual([
      'a_b',
    ]);
    expect(forward.refused.map((r) => [r.tool, r.code])).toEqual([
      ['a.b', 'NAME_COLLISION'],
      ['bad name', 'INVALID_NAME'],
      ['dup', 'NAME_COLLISION'],
      ['dup', 'NAME_COLLISION'],
      ['x.y', 'NAME_COLLISION'],
      ['x/y', 'NAME_COLLISION'],
    ]);
    expect(forward.refused[0]?.reason).toBe(
      'tool "a.b" maps to kind com.acme.filesystem.a_b, which "a_b" also maps to ("." and "/" become "_")',
    );
  });
  it('refuses malformed tools with what was expected', () => {
    const out = translateSource({
      ...BASE,
      tools: [{ name: 'no_schema' }, { name: 'bad_desc', description: 5, inputSchema: schema }, 'junk'],
    });
    expect(out.refused.map((r) => r.reason)).toEqual([
      'expected a tool object, got "junk"',
      'description: expected a string, got 5',
      'inputSchema: expected a JSON Schema object (MCP requires one), got undefined',
    ]);
  });
  it('throws for a bad namespace or capabilities entry (configuration errors)', () => {
    expect(() => translateSource({ ...BASE, namespace: 'xp.files', tools: [] })).toThrow(TranslateError);
    expect(() => translateSource({ ...BASE, capabilities: ['ok.read', 'bad cap'], tools: [] })).toThrow(
      /capabilities: expected dot-separated/,
    );
  });
});

describe('source options (docs/config.md)', () => {
  const tools = ['get_customer', 'create_order', 'update_status', 'delete_order', 'purge_cache'].map(
    (name) => ({ name, description: `${name} tool`, inputSchema: { type: 'object' } }),
  );
  it('tool_allowlist keeps only the listed tools and warns about unknown entries', () => {
    const out = translateSource({ ...BASE, tools, allowlist: ['get_customer', 'create_order', 'ghost'] });
    expect(out.contracts.map((c) => c.kind)).toEqual([
      'com.acme.filesystem.create_order',
      'com.acme.filesystem.get_customer',
    ]);
    expect(out.excluded).toEqual(['delete_order', 'purge_cache', 'update_status']);
    expect(out.warnings).toContainEqual({
      code: 'UNKNOWN_ALLOWLIST_ENTRY',
      message: 'filesystem.tool_allowlist names "ghost", which the server does not list',
    });
  });
  it('explicit capabilities: the seed internal-api source, unmapped tools refused naming the tool', () => {
    const out = translateSource({
      ...BASE,
      namespace: 'com.acme.internal',
      tools,
      capabilityInference: 'explicit',
      capabilities: ['internal.read', 'internal.write'],
      overrides: { purge_cache: { required_capability: 'internal.admin' } },
    });
    expect(Object.fromEntries(out.contracts.map((c) => [c.kind, c.auth.required_capability]))).toEqual({
      'com.acme.internal.create_order': 'internal.write',
      'com.acme.internal.get_customer': 'internal.read',
      'com.acme.internal.purge_cache': 'internal.admin',
      'com.acme.internal.update_status': 'internal.write',
    });
    expect(out.refused).toHaveLength(1);
    expect(out.refused[0]).toMatchObject({ tool: 'delete_order', code: 'CAPABILITY_UNMAPPED' });
    expect(out.refused[0]?.reason).toMatch(/^tool "delete_order" is inferred as "delete"/);
  });
  it('schema_overrides replace the description, merge semantic fields and warn about unknown names', () => {
    const out = translateSource({
      ...BASE,
      tools: [{ name: 'handle_thing', description: 'does something', inputSchema: { type: 'object' } }],
      overrides: {
        handle_thing: {
          description: 'Process an incoming data record',
          semantic: { use_when: 'Agent needs to validate a record' },
        },
        nothing_here: { description: 'x' },
      },
    });
    const c = out.contracts[0];
    expect(c?.description).toBe('Process an incoming data record');
    expect(c?.semantic).toMatchObject({
      use_when: 'Agent needs to validate a record',
      auto_generated: false,
    });
    expect(out.warnings.map((w) => w.code)).toEqual(['UNKNOWN_OVERRIDE']);
  });
  it('refuses an invalid override value', () => {
    const out = translateSource({
      ...BASE,
      tools: [READ_FILE],
      overrides: { read_file: { required_capability: 'a b' } },
    });
    expect(out.refused[0]).toMatchObject({
      code: 'CAPABILITY_UNMAPPED',
      reason: expect.stringContaining('required_capability'),
    });
  });
});

describe('description quality (docs/design.md §7)', () => {
  const vague = { name: 'handle_thing', description: '', inputSchema: { type: 'object' } };
  it('refuses publication below the floor, naming the score, and warns below the threshold', () => {
    const out = translateSource({ ...BASE, tools: [vague, READ_FILE] });
    expect(out.refused).toHaveLength(1);
    expect(out.refused[0]).toMatchObject({
      tool: 'handle_thing',
      code: 'LOW_QUALITY',
      kind: 'com.acme.filesystem.handle_thing',
      description_quality_score: 0,
    });
    expect(out.refused[0]?.reason).toMatch(/description quality score 0 is below the publication floor 0\.2/);
    const strict = translateSource({
      ...BASE,
      tools: [READ_FILE],
      descriptionQualityThreshold: 1,
      descriptionQualityFloor: 0,
    });
    expect(strict.contracts).toHaveLength(1);
    expect(strict.warnings.map((w) => w.code)).toContain('LOW_QUALITY_DESCRIPTION');
    const lax = translateSource({ ...BASE, tools: [vague], descriptionQualityFloor: 0 });
    expect(lax.contracts).toHaveLength(1);
    expect(lax.warnings.map((w) => w.code)).toEqual(['LOW_QUALITY_DESCRIPTION', 'NO_DESCRIPTION']);
  });
  it('an operator description fixes it (schema_overrides)', () => {
    const out = translateSource({
      ...BASE,
      tools: [vague],
      overrides: {
        handle_thing: {
          description:
            'Validate an incoming data record and submit it for processing. Use when a record must be checked.',
        },
      },
    });
    expect(out.refused).toEqual([]);
  });
  it('refuses thresholds outside 0..1 or a floor above the threshold', () => {
    expect(() => translateSource({ ...BASE, tools: [], descriptionQualityFloor: 2 })).toThrow(
      /description_quality_floor: expected a number from 0 to 1, got 2/,
    );
    expect(() =>
      translateSource({ ...BASE, tools: [], descriptionQualityFloor: 0.5, descriptionQualityThreshold: 0.3 }),
    ).toThrow(/must not exceed/);
  });
});

describe('seams', () => {
  it('passes the effective tool and its siblings to the annotator; overrides win', () => {
    const seen: string[][] = [];
    const annotate: Annotate = ({ kind, siblings, tool }) => {
      seen.push(siblings.map((s) => s.kind));
      return { domain: 'filesystem', auto_generated: true, described: tool.description ?? '', kind };
    };
    const out = translateSource(
      {
        ...BASE,
        tools: [READ_FILE, { ...READ_FILE, name: 'write_file' }],
        overrides: { write_file: { description: 'Write', semantic: { domain: 'files' } } },
      },
      { seams: { annotate } },
    );
    expect(seen).toEqual([
      ['com.acme.filesystem.read_file', 'com.acme.filesystem.write_file'],
      ['com.acme.filesystem.read_file', 'com.acme.filesystem.write_file'],
    ]);
    expect(out.contracts[1]?.semantic).toEqual({
      domain: 'files',
      auto_generated: false,
      described: 'Write',
      kind: 'com.acme.filesystem.write_file',
    });
  });
  it('records the grammar, an approximate grammar, and a failed compile without refusing the tool', () => {
    const exact: CompileGrammar = () => ({ gbnf: 'root ::= "{}"', exact: true, warnings: [] });
    const approx: CompileGrammar = () => ({
      gbnf: 'root ::= object',
      exact: false,
      warnings: ['pattern not enforced'],
    });
    const failing: CompileGrammar = () => {
      throw new Error('unsupported keyword "not"');
    };
    const a = translateSource({ ...BASE, tools: [READ_FILE] }, { seams: { compileGrammar: exact } });
    expect(a.contracts[0]).toMatchObject({
      gbnf_grammar: 'root ::= "{}"',
      gbnf_status: { state: 'exact', warnings: [] },
    });
    const b = translateSource({ ...BASE, tools: [READ_FILE] }, { seams: { compileGrammar: approx } });
    expect(b.contracts[0]?.gbnf_status).toEqual({ state: 'approximate', warnings: ['pattern not enforced'] });
    expect(b.warnings.map((w) => w.code)).toEqual(['GRAMMAR_APPROXIMATE']);
    const c = translateSource({ ...BASE, tools: [READ_FILE] }, { seams: { compileGrammar: failing } });
    expect(c.contracts[0]).toMatchObject({
      gbnf_grammar: null,
      gbnf_status: { state: 'failed', reason: 'unsupported keyword "not"' },
    });
    expect(c.warnings).toEqual([
      { tool: 'read_file', code: 'GRAMMAR_FAILED', message: 'no grammar: unsupported keyword "not"' },
    ]);
  });
  it('an annotator that throws costs the annotation, not the tool', () => {
    const out = translateSource(
      { ...BASE, tools: [READ_FILE] },
      {
        seams: {
          annotate: () => {
            throw new Error('boom');
          },
        },
      },
    );
    expect(out.contracts).toHaveLength(1);
    expect(out.warnings[0]).toMatchObject({
      code: 'ANNOTATE_FAILED',
      message: 'semantic annotation failed: boom',
    });
  });
});

describe('schema poisoning refusals carry the pointer (docs/design.md §11)', () => {
  it('refuses a remote $ref in inputSchema and in outputSchema', () => {
    const remote = { type: 'object', properties: { a: { $ref: 'https://evil.example/x.json' } } };
    const r1 = translateTool({ name: 't', inputSchema: remote }, BASE_CTX);
    expect(r1).toMatchObject({
      ok: false,
      refusal: { code: 'UNSAFE_SCHEMA', pointer: '/inputSchema/properties/a/$ref' },
    });
    const r2 = translateTool({ name: 't', inputSchema: { type: 'object' }, outputSchema: remote }, BASE_CTX);
    expect(r2).toMatchObject({
      ok: false,
      refusal: { code: 'UNSAFE_SCHEMA', pointer: '/outputSchema/properties/a/$ref' },
    });
  });
  it('refuses __proto__ in annotations too', () => {
    const tool = JSON.parse(
      '{"name":"t","inputSchema":{"type":"object"},"annotations":{"__proto__":{"x":1}}}',
    );
    expect(translateTool(tool, BASE_CTX)).toMatchObject({
      ok: false,
      refusal: { pointer: '/annotations/__proto__' },
    });
  });
  it('refuses a schema ajv cannot compile', () => {
    expect(
      translateTool({ name: 't', inputSchema: { type: 'object', required: 'x' } }, BASE_CTX),
    ).toMatchObject({ ok: false, refusal: { code: 'INVALID_SCHEMA', pointer: '/inputSchema' } });
  });
});
const BASE_CTX = { server: 'filesystem', namespace: 'com.acme.filesystem', adapterVersion: '0.1.0' };

describe('every tool of testdata/mcp-servers translates or is refused with a reason', () => {
  const servers = loadServers();
  const compiler = new SchemaCompiler();
  it('covers 27 servers and 672 tools', () => {
    expect(servers).toHaveLength(27);
    expect(servers.reduce((n, s) => n + s.tools.length, 0)).toBe(672);
  });
  it.each(servers.map((s) => [s.file, s] as const))('%s', (file, server) => {
    const out = translateSource(
      {
        name: file,
        namespace: server.namespace,
        tools: server.tools,
        prompts: server.prompts,
        adapterVersion: '0.1.0',
      },
      { compiler },
    );
    const names = server.tools.map((t) => (t as { name: string }).name).sort();
    const translated = out.contracts.flatMap((c) => ('mcp_tool' in c.source ? [c.source.mcp_tool] : []));
    const refused = out.refused.filter((r) => r.entry === 'tool').map((r) => r.tool);
    expect([...translated, ...refused, ...out.excluded].sort(), file).toEqual(names);
    for (const r of out.refused) expect(r.reason.length, `${file} ${r.tool}`).toBeGreaterThan(10);
    for (const c of out.contracts) {
      expect(c.kind.startsWith(`${server.namespace}.`), `${file} ${c.kind}`).toBe(true);
      expect(compiler.compile(c.payload).ok, `${file} ${c.kind} payload`).toBe(true);
      expect(compiler.compile(c.response.payload).ok, `${file} ${c.kind} response`).toBe(true);
      expect(JSON.parse(serializeContract(c)), `${file} ${c.kind}`).toEqual(c);
    }
    // what the recorded servers are known to give: everything translates
    expect(out.refused, file).toEqual([]);
    for (const c of out.contracts) {
      expect(['exact', 'approximate', 'failed'], `${file} ${c.kind}`).toContain(c.gbnf_status.state);
      expect(c.gbnf_grammar === null, `${file} ${c.kind}`).toBe(c.gbnf_status.state === 'failed');
      if (c.gbnf_status.state === 'failed') {
        expect(out.warnings, `${file} ${c.kind}`).toContainEqual(
          expect.objectContaining({
            code: 'GRAMMAR_FAILED',
            tool: (c.source as { mcp_tool: string }).mcp_tool,
          }),
        );
      }
    }
  });
});

describe('capabilities of a real server (modelcontextprotocol__server-filesystem.json)', () => {
  it('infers read / write per tool with the shared verb parser and the annotations', () => {
    const server = loadServers().find((s) => s.file === 'modelcontextprotocol__server-filesystem.json');
    if (server === undefined) throw new Error('modelcontextprotocol__server-filesystem.json missing');
    const out = translateSource({
      name: 'filesystem',
      namespace: 'com.test.fs',
      tools: server.tools,
      adapterVersion: '0.1.0',
    });
    const caps = Object.fromEntries(
      out.contracts.map((c) => [(c.source as { mcp_tool: string }).mcp_tool, c.auth.required_capability]),
    );
    expect(caps).toMatchObject({
      read_text_file: 'com.test.fs.read',
      read_multiple_files: 'com.test.fs.read',
      list_directory: 'com.test.fs.read',
      search_files: 'com.test.fs.read',
      get_file_info: 'com.test.fs.read',
      write_file: 'com.test.fs.write',
      edit_file: 'com.test.fs.write',
      create_directory: 'com.test.fs.write',
      move_file: 'com.test.fs.write',
    });
  });
});
