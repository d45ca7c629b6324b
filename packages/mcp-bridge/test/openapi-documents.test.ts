// Real, published OpenAPI documents (testdata/openapi/, sources and licences in
// testdata/SOURCES.md) translated as an openapi_sources entry translates them: every operation
// becomes a tool or is refused with its reason. The per-document tables in docs/openapi.md are
// this translation, verbatim: `OPENAPI_TABLES=write npx vitest run test/openapi-documents.test.ts`
// rewrites them after a change. Then what reading a document must never do: follow a `$ref` to
// another address, read Swagger 2.0 as if it were OpenAPI 3, or read more than its cap.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, type OpenApiTranslation, translateOperations } from '../src/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DOC = join(ROOT, 'docs', 'openapi.md');
const TMP = mkdtempSync(join(tmpdir(), 'openapi-documents-'));
const DOCUMENTS = ['swagger-petstore-3.0.yaml', 'redocly-museum-3.1.yaml', 'uspto-3.0.yaml'] as const;

/** Every document translated with credentials for each of its security schemes. */
async function translate(file: string): Promise<{ version: string; translation: OpenApiTranslation }> {
  const { version, api } = await loadOpenApiDocument({ document: join(ROOT, 'testdata', 'openapi', file) });
  const schemes = Object.keys(
    (api.components as { securitySchemes?: object } | undefined)?.securitySchemes ?? {},
  );
  return { version, translation: translateOperations(api, version, { credentials: new Set(schemes) }) };
}

/** The markdown table of one translation: one row per operation, tools first in document order. */
function table({ translation }: { translation: OpenApiTranslation }): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const hints = (a: Record<string, unknown>) =>
    ['readOnlyHint', 'destructiveHint', 'idempotentHint']
      .filter((h) => a[h] === true)
      .map((h) => h.replace('Hint', ''))
      .join(', ') || '—';
  const rows = [
    '| operation | tool | request | annotations | output |',
    '|---|---|---|---|---|',
    ...translation.tools.map(
      (t) =>
        `| \`${t.operation}\` | \`${t.definition.name}\` | ${t.plan.method} \`${t.plan.path}\` | ${hints(t.definition.annotations)} | ${t.plan.output === 'none' ? 'text' : t.plan.output === 'wrapped' ? 'JSON as `{ result }`' : 'JSON object'} |`,
    ),
    ...translation.refused.map((r) => `| \`${r.operation}\` | refused | | | ${cell(r.reason)} |`),
  ];
  return rows.join('\n');
}

const marker = (file: string) =>
  new RegExp(`(<!-- openapi-table: ${file.replace(/\./g, '\\.')} -->\\n)[\\s\\S]*?(<!-- /openapi-table -->)`);

describe('published OpenAPI documents', () => {
  it('are translated as docs/openapi.md shows, one table per document', async () => {
    let doc = readFileSync(DOC, 'utf8');
    for (const file of DOCUMENTS) {
      expect(doc, `docs/openapi.md has no table for ${file}`).toMatch(marker(file));
      doc = doc.replace(marker(file), `$1${table(await translate(file))}\n$2`);
    }
    if (process.env.OPENAPI_TABLES === 'write') writeFileSync(DOC, doc);
    expect(readFileSync(DOC, 'utf8'), 'run with OPENAPI_TABLES=write to rewrite the tables').toBe(doc);
  });

  it('Swagger Petstore (3.0, API key and OAuth): 18 tools, the octet-stream upload refused', async () => {
    const { version, translation } = await translate('swagger-petstore-3.0.yaml');
    expect(version).toBe('3.0.4');
    expect(translation.tools).toHaveLength(18);
    expect(translation.refused).toEqual([
      {
        operation: 'uploadFile',
        reason:
          'the request body is application/octet-stream; only JSON, application/x-www-form-urlencoded and multipart/form-data bodies are sent',
      },
    ]);
    const getPet = translation.tools.find((t) => t.definition.name === 'getPetById');
    expect(getPet?.plan.security).toEqual(['api_key']);
    expect(getPet?.definition.inputSchema).toEqual({
      type: 'object',
      properties: { petId: { description: 'ID of pet to return', type: 'integer', format: 'int64' } },
      required: ['petId'],
      additionalProperties: false,
    });
  });

  it('Redocly Museum (3.1): the PNG answer refused, and nothing without credentials', async () => {
    const { version, translation } = await translate('redocly-museum-3.1.yaml');
    expect(version).toBe('3.1.0');
    expect(translation.refused.map((r) => r.operation)).toEqual(['getTicketCode']);
    const { api } = await loadOpenApiDocument({
      document: join(ROOT, 'testdata', 'openapi', 'redocly-museum-3.1.yaml'),
    });
    const bare = translateOperations(api, version, { credentials: new Set() });
    expect(bare.tools).toEqual([]);
    expect(bare.refused[0]?.reason).toBe(
      'needs credentials for the security scheme MuseumPlaceholderAuth; none are configured in auth',
    );
  });

  it('USPTO (3.0): every operation a tool, the search sent as form fields', async () => {
    const { translation } = await translate('uspto-3.0.yaml');
    expect(translation.tools.map((t) => t.definition.name)).toEqual([
      'list-data-sets',
      'list-searchable-fields',
      'perform-search',
    ]);
    expect(translation.refused).toEqual([]);
    expect(translation.tools[2]?.plan.body?.encoding).toBe('form');
  });
});

describe('reading a document', () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      if (request.url === '/big.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"x-pad":"${'a'.repeat(200_000)}"}`,
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'application/yaml' });
      response.end('type: object\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('never follows a $ref to another address: the operation that uses it is refused', async () => {
    const path = join(TMP, 'external-ref.json');
    writeFileSync(
      path,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'external', version: '1' },
        paths: {
          '/x': {
            get: {
              operationId: 'x',
              responses: {
                200: {
                  description: 'ok',
                  content: { 'application/json': { schema: { $ref: `${base}/schema.yaml` } } },
                },
              },
            },
          },
        },
      }),
    );
    const { version, api } = await loadOpenApiDocument({ document: path });
    const { tools, refused } = translateOperations(api, version, { credentials: new Set() });
    expect(tools).toEqual([]);
    expect(refused).toEqual([
      {
        operation: 'x',
        reason: `a $ref not resolved inside the document (recursive, or to another file or address, which is never read) at the 200 response (${base}/schema.yaml)`,
      },
    ]);
    expect(requests).toEqual([]);
  });

  it('refuses Swagger 2.0, naming what it got', async () => {
    const path = join(TMP, 'swagger2.json');
    writeFileSync(path, JSON.stringify({ swagger: '2.0', info: { title: 's', version: '1' }, paths: {} }));
    await expect(loadOpenApiDocument({ document: path })).rejects.toThrow(
      /expected an OpenAPI 3\.0 or 3\.1 document, got Swagger 2\.0$/,
    );
  });

  it('stops reading a document URL past its cap', async () => {
    await expect(loadOpenApiDocument({ document: `${base}/big.json`, maxBytes: 65_536 })).rejects.toThrow(
      /^OpenAPI document http:\/\/127\.0\.0\.1:\d+\/big\.json is over 65536 bytes; stopped reading at \d+$/,
    );
  });

  it('refuses http:// to a host that is not loopback', async () => {
    await expect(loadOpenApiDocument({ document: 'http://example.com/openapi.json' })).rejects.toThrow(
      /expected https \(http only on a loopback host\)$/,
    );
  });
});
