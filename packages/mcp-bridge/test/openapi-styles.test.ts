// OpenAPI parameter styles and form bodies (docs/config.md, "openapi_sources"): query parameters
// sent as `form` (objects too, exploded or not), `spaceDelimited`, `pipeDelimited` and
// `deepObject`; request bodies sent as JSON, `application/x-www-form-urlencoded` fields or
// `multipart/form-data` parts. Each operation is translated, its request built from a tool call's
// arguments and sent to a local HTTP server, which records what arrived; the real USPTO document's
// form-encoded search is among them. Styles OpenAPI does not define for a value are refused.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, translateOperations } from '../src/index.js';
import { sendOperation } from '../src/openapi/openapi-call.js';
import type { OpenApiTool } from '../src/openapi/openapi-operations.js';
import { buildRequest } from '../src/openapi/openapi-request.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let server: Server;
let base: string;
/** The last request the server received: its URL, content type and parsed body. */
let seen: { url: string; contentType: string; body: Record<string, unknown> };

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const contentType = request.headers['content-type'] ?? '';
    const raw = Buffer.concat(chunks);
    let body: Record<string, unknown> = {};
    if (
      contentType.startsWith('multipart/form-data') ||
      contentType.startsWith('application/x-www-form-urlencoded')
    ) {
      // The parser of fetch itself reads the parts back, with each part's own type.
      const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
      for (const [key, value] of form.entries())
        body[key] = typeof value === 'string' ? value : { type: value.type, text: await value.text() };
    } else if (raw.length > 0) body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    seen = { url: request.url ?? '', contentType, body };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const strings = { type: 'array', items: { type: 'string' } };
const filter = { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' } } };
const API = {
  openapi: '3.1.0',
  info: { title: 'styles', version: '1' },
  paths: {
    '/find': {
      get: {
        operationId: 'find',
        parameters: [
          { name: 'tags', in: 'query', style: 'pipeDelimited', schema: strings },
          { name: 'words', in: 'query', style: 'spaceDelimited', schema: strings },
          { name: 'ids', in: 'query', schema: strings },
          { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: filter },
          {
            name: 'point',
            in: 'query',
            explode: false,
            schema: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } },
          },
          {
            name: 'page',
            in: 'query',
            schema: { type: 'object', properties: { limit: { type: 'integer' } } },
          },
        ],
        responses: ok,
      },
    },
    '/notes': {
      post: {
        operationId: 'addNote',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  title: { type: 'string' },
                  labels: strings,
                  meta: { type: 'object', properties: { pinned: { type: 'boolean' } } },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
    '/refused/{id}': {
      get: {
        operationId: 'refusedStyle',
        parameters: [{ name: 'id', in: 'path', required: true, style: 'label', schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/refused-pipes': {
      get: {
        operationId: 'refusedPipes',
        parameters: [{ name: 'q', in: 'query', style: 'pipeDelimited', schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/refused-form': {
      post: {
        operationId: 'refusedForm',
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'string' } } } },
        responses: ok,
      },
    },
  },
};

async function call(tool: OpenApiTool | undefined, args: Record<string, unknown>) {
  if (!tool) throw new Error('no such tool');
  const request = buildRequest({ baseUrl: base, plan: tool.plan, args, schemes: {}, credentials: {} });
  const result = await sendOperation({
    request,
    plan: tool.plan,
    learnedAddress: false,
    timeoutMs: 10_000,
    maxResponseBytes: 10_000,
  });
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return seen;
}

describe('OpenAPI parameter styles and form bodies', () => {
  const translation = translateOperations(API, '3.1.0', { credentials: new Set() });
  const tool = (name: string) => translation.tools.find((t) => t.definition.name === name);

  it('refuses the styles OpenAPI does not define for a value, and a form body that is not an object', () => {
    expect(translation.refused).toEqual([
      {
        operation: 'refusedStyle',
        reason: 'the path parameter id has style label; only simple is supported',
      },
      {
        operation: 'refusedPipes',
        reason: 'the query parameter q has style pipeDelimited, which OpenAPI defines for arrays only',
      },
      {
        operation: 'refusedForm',
        reason:
          'the request body is application/x-www-form-urlencoded without an object schema; its fields cannot be named',
      },
    ]);
  });

  it('sends each query style as OpenAPI spells it', async () => {
    const { url } = await call(tool('find'), {
      tags: ['a', 'b'],
      words: ['x y', 'z'],
      ids: ['1', '2'],
      filter: { color: 'red', size: 3 },
      point: { x: 1, y: 2 },
      page: { limit: 5 },
    });
    expect(decodeURIComponent(url.replace(/\+/g, ' '))).toBe(
      '/find?tags=a|b&words=x y z&ids=1&ids=2&filter[color]=red&filter[size]=3&point=x,1,y,2&limit=5',
    );
  });

  it('sends a multipart body as parts: scalars and lists as text, an object as a JSON part', async () => {
    const add = tool('addNote');
    expect(add?.definition.inputSchema.required).toEqual(['body']);
    const got = await call(add, { body: { title: 'Groceries', labels: ['home'], meta: { pinned: true } } });
    expect(got.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(got.body).toEqual({
      title: 'Groceries',
      labels: 'home',
      meta: { type: 'application/json', text: '{"pinned":true}' },
    });
  });

  it("sends the USPTO document's form-encoded search (a real, published document) as form fields", async () => {
    const { version, api } = await loadOpenApiDocument({
      document: join(ROOT, 'testdata', 'openapi', 'uspto-3.0.yaml'),
    });
    const uspto = translateOperations(api, version, { credentials: new Set() });
    expect(uspto.refused).toEqual([]);
    const search = uspto.tools.find((t) => t.definition.name === 'perform-search');
    expect(search?.plan.body).toEqual({
      contentType: 'application/x-www-form-urlencoded',
      required: false,
      encoding: 'form',
    });
    const got = await call(search, {
      dataset: 'oa_citations',
      version: 'v1',
      body: { criteria: 'patentNumber:7000000', start: 0, rows: 10 },
    });
    expect(got.url).toBe('/oa_citations/v1/records');
    expect(got.contentType).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(got.body).toEqual({ criteria: 'patentNumber:7000000', start: '0', rows: '10' });
  });
});
