// testdata/vectors/xp-discovery.json (docs/protocol.md §10.8): a real endpoint serving the file's
// fixed catalog, on a real relay on loopback, answers each catalog request with exactly the file's
// page bytes (in the clear), each describe query with exactly its matches (sealed), and refuses
// what the file refuses with its code. The file's catalog is also what translating its tools gives.
import { createEventTemplate, openEvent, sealEvent, signEvent, type XpEvent } from '@xprotocol/crypto';
import { catalogPage, parseCatalogRequest } from '@xprotocol/registry';
import { type SchemaContract, translateSource } from '@xprotocol/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EndpointCatalog, SchemaSearch } from '../src/index.js';
import { answerOnRelay, backends, type Stack, startStack } from './support/stack.js';
import { loadVectorFile } from './support/vectors.js';

interface DiscoveryVectors {
  description: string;
  source_tools: Record<string, unknown>[];
  catalog: SchemaContract[];
  catalog_requests: { id: string; request_content: string; result_content: string }[];
  catalog_refused: { id: string; request_content: string; code: string }[];
  describe_requests: { id: string; request: unknown; result: unknown }[];
  describe_refused: { id: string; request: unknown; code: string }[];
  refresh: { id: string; request: unknown; code: string }[];
}

const vectors = loadVectorFile<DiscoveryVectors>('testdata/vectors/xp-discovery.json');

let stack: Stack;
beforeAll(async () => {
  const search = new SchemaSearch();
  search.sync(
    vectors.catalog.map((contract) => ({
      document: {
        id: contract.kind,
        name: (contract.source as { mcp_tool: string }).mcp_tool,
        description: contract.description,
        inputSchema: contract.payload,
        namespace: 'com.example.notes',
      },
      fingerprint: `${contract.kind}@${contract.version}`,
    })),
  );
  const catalog: EndpointCatalog = {
    tool: () => undefined,
    page: (request) => catalogPage(vectors.catalog, parseCatalogRequest(request)),
    describe: (query) => search.describe(query),
  };
  stack = await startStack({ catalog });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** A request in the clear (catalog requests may be), with a nonce so equal contents differ in id. */
function _clear(kind: string, content: string): XpEvent {
  const now = Math.floor(Date.now() / 1000);
  return signEvent(
    createEventTemplate({
      kind,
      content,
      tags: [
        ['p', stack.adapter.keys.ed25519],
        ['nonce', Math.random().toString(16).slice(2)],
      ],
      created_at: now,
      expiration: now + 30,
    }),
    stack.client.ed25519.secretKey,
    backends.signatures,
  );
}

function _sealed(kind: string, payload: unknown): XpEvent {
  const now = Math.floor(Date.now() / 1000);
  return sealEvent(
    { kind, payload, created_at: now, expiration: now + 30 },
    stack.client,
    stack.adapter.keys,
    backends,
  );
}

function _sealedText(kind: string, plaintext: string): XpEvent {
  const now = Math.floor(Date.now() / 1000);
  return sealEvent(
    { kind, plaintext, created_at: now, expiration: now + 30 },
    stack.client,
    stack.adapter.keys,
    backends,
  );
}

/** Publishes `request` and resolves with the endpoint's answer as the relay delivers it. */
function _answerTo(request: XpEvent): Promise<XpEvent> {
  return answerOnRelay(stack, request);
}

function _opened(answer: XpEvent): unknown {
  return JSON.parse(openEvent(answer, stack.client, backends).plaintext);
}

describe('testdata/vectors/xp-discovery.json', () => {
  it('names its section, and its catalog is the translation of its tools', () => {
    expect(vectors.description).toContain('docs/protocol.md §10.8');
    const { contracts } = translateSource({
      name: 'notes',
      namespace: 'com.example.notes',
      tools: vectors.source_tools as never,
      adapterVersion: '1.0.0',
    });
    expect(JSON.parse(JSON.stringify(contracts))).toEqual(vectors.catalog);
  });

  it.each(vectors.catalog_requests.map((v) => [v.id, v] as const))(
    'catalog %s: the page in the clear, byte for byte (asked in the clear and sealed)',
    async (_id, v) => {
      const clear = await _answerTo(_clear('xp.schema.catalog', v.request_content));
      expect(clear.kind).toBe('xp.schema.catalog.result');
      expect(clear.content).toBe(v.result_content);
      // A sealed payload carries at least one byte (§6.1): an empty request is sent in the clear only.
      if (v.request_content === '') return;
      const sealed = await _answerTo(_sealedText('xp.schema.catalog', v.request_content));
      expect(sealed.kind).toBe('xp.schema.catalog.result');
      expect(sealed.content).toBe(v.result_content);
    },
    20_000,
  );

  it.each(vectors.catalog_refused.map((v) => [v.id, v] as const))(
    'catalog refused %s',
    async (_id, v) => {
      const answer = await _answerTo(_sealedText('xp.schema.catalog', v.request_content));
      expect(answer.kind).toBe('xp.error');
      expect((_opened(answer) as { code: string }).code).toBe(v.code);
    },
    20_000,
  );

  it.each(vectors.describe_requests.map((v) => [v.id, v] as const))(
    'describe %s: the sealed matches',
    async (_id, v) => {
      const answer = await _answerTo(_sealed('xp.schema.describe', v.request));
      expect(answer.kind).toBe('xp.schema.describe.result');
      expect(_opened(answer)).toEqual(v.result);
    },
    20_000,
  );

  it.each([...vectors.describe_refused, ...vectors.refresh].map((v) => [v.id, v] as const))(
    'refused %s',
    async (id, v) => {
      const kind = vectors.refresh.some((r) => r.id === id) ? 'xp.schema.refresh' : 'xp.schema.describe';
      const answer = await _answerTo(_sealed(kind, v.request));
      expect(answer.kind).toBe('xp.error');
      expect((_opened(answer) as { code: string }).code).toBe(v.code);
    },
    20_000,
  );
});
