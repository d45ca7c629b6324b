// testdata/vectors/xp-prompts.json (docs/protocol.md §10.1, §10.11) checked case by case against our
// code: kind naming, collisions, the prompt and resource-template contracts byte for byte, the MCP
// request a contract kind becomes upstream, and RFC 6570 expansion.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  contractEntryType,
  expandUriTemplate,
  promptKind,
  resourceTemplateKind,
  resultKind,
  type SchemaContract,
  serializeContract,
  toolKind,
  translateSource,
  uriTemplateVariables,
} from '@xprotocol/translate';
import { describe, expect, it } from 'vitest';
import { _upstreamRequest } from '../src/endpoint/tool-call.js';
import { promptVectorsText } from './_prompt-vectors.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FILE = 'testdata/vectors/xp-prompts.json';
type Entry = 'tool' | 'prompt' | 'resource_template';
const vectors = JSON.parse(readFileSync(join(ROOT, FILE), 'utf8')) as {
  description: string;
  uri_template_values: Record<string, string>;
  kind_naming: {
    entry: Entry;
    namespace: string;
    name: string;
    kind?: string;
    answer_kind?: string;
    refused?: true;
  }[];
  collisions: {
    what: string;
    namespace: string;
    input: { tools: unknown[]; prompts: unknown[]; resource_templates: unknown[] };
    published: { entry: Entry; name: string; kind: string; answer_kind: string }[];
    refused: { entry: Entry; name: string; code: string }[];
  }[];
  contracts: {
    what: string;
    server: string;
    namespace: string;
    adapter_version: string;
    entry: 'prompt' | 'resource_template';
    input: unknown;
    contract_core: string;
    contract: string;
  }[];
  requests: {
    what: string;
    entry: 'prompt' | 'resource_template';
    mcp_name: string;
    uri_template?: string;
    payload: Record<string, unknown>;
    upstream: { method: string; params: Record<string, unknown> };
  }[];
  uri_templates: { template: string; variables?: unknown; uri?: string; refused?: true }[];
};

const KIND_OF = { tool: toolKind, prompt: promptKind, resource_template: resourceTemplateKind };

describe(`${FILE}`, () => {
  it('is what the generator writes', async () => {
    await expect(promptVectorsText()).toMatchFileSnapshot(`../../../${FILE}`);
  });
  it('names its section, and docs/protocol.md names the file', () => {
    expect(vectors.description).toContain('docs/protocol.md §10.11');
    expect(readFileSync(join(ROOT, 'docs', 'protocol.md'), 'utf8')).toContain(FILE);
  });
  it.each(vectors.kind_naming.map((c) => [`${c.entry} ${JSON.stringify(c.name).slice(0, 40)}`, c] as const))(
    'kind naming: %s',
    (_, c) => {
      const r = KIND_OF[c.entry](c.namespace, c.name);
      if (c.refused) expect(r.ok).toBe(false);
      else expect(r.ok && [r.kind, resultKind(r.kind)]).toEqual([c.kind, c.answer_kind]);
    },
  );
  it.each(vectors.collisions.map((c) => [c.what, c] as const))('collisions: %s', (_, c) => {
    const out = translateSource({
      name: 'notes',
      namespace: c.namespace,
      adapterVersion: '0.1.0',
      tools: c.input.tools,
      prompts: c.input.prompts,
      resourceTemplates: c.input.resource_templates,
    });
    const nameOf = (contract: SchemaContract) => {
      const s = contract.source as { mcp_tool?: string; mcp_prompt?: string; mcp_resource_template?: string };
      return s.mcp_tool ?? s.mcp_prompt ?? s.mcp_resource_template;
    };
    expect(
      out.contracts.map((x) => ({
        entry: contractEntryType(x),
        name: nameOf(x),
        kind: x.kind,
        answer_kind: x.response.kind,
      })),
    ).toEqual(c.published);
    expect(out.refused.map((r) => ({ entry: r.entry, name: r.tool, code: r.code }))).toEqual(c.refused);
  });
  it.each(vectors.contracts.map((c) => [c.what, c] as const))('contracts: %s, byte for byte', (_, c) => {
    const out = translateSource({
      name: c.server,
      namespace: c.namespace,
      adapterVersion: c.adapter_version,
      tools: [],
      prompts: c.entry === 'prompt' ? [c.input] : [],
      resourceTemplates: c.entry === 'resource_template' ? [c.input] : [],
    });
    expect(out.refused).toEqual([]);
    const contract = out.contracts[0] as SchemaContract;
    expect(serializeContract(contract)).toBe(c.contract);
    const { semantic: _s, gbnf_grammar: _g, gbnf_status: _t, ...core } = contract;
    expect(serializeContract(core as SchemaContract)).toBe(c.contract_core);
  });
  it.each(vectors.requests.map((c) => [c.what, c] as const))('requests: %s', (_, c) => {
    const entry =
      c.entry === 'prompt'
        ? { type: 'prompt' as const }
        : { type: 'resource_template' as const, uriTemplate: c.uri_template as string };
    const grant = { ok: true } as Parameters<typeof _upstreamRequest>[0]['grant'];
    expect(_upstreamRequest({ source: 'notes', name: c.mcp_name, args: c.payload, grant, entry })).toEqual(
      c.upstream,
    );
  });
  it.each(vectors.uri_templates.map((c) => [c.template, c] as const))('URI template %s', (_, c) => {
    const parsed = uriTemplateVariables(c.template);
    if (c.refused) {
      expect(parsed.ok).toBe(false);
      return;
    }
    expect(parsed.ok && parsed.variables).toEqual(c.variables);
    expect(expandUriTemplate(c.template, vectors.uri_template_values)).toBe(c.uri);
  });
});
