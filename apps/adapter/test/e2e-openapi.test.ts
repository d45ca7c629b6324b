// openapi_sources end to end (docs/config.md, "openapi_sources"; docs/security.md, "OpenAPI
// sources"): the real Swagger Petstore document (testdata/openapi/), a local service that implements
// four of its operations on 127.0.0.1 (fixtures/servers/petstore-http.mjs), and the built adapter
// bins. An MCP client calls two operations through a face that serves the OpenAPI source; another
// calls one across XProtocol (adapter B wraps the source, adapter A's face reaches B over a real
// relay). The attacks: a document whose server is the cloud metadata address, an answer over the
// cap, and a path parameter that tries to climb out of its path with `../`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Processes } from './support/processes.js';

const PETSTORE = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'testdata',
  'openapi',
  'swagger-petstore-3.0.yaml',
);
const SERVICE = join(import.meta.dirname, 'fixtures', 'servers', 'petstore-http.mjs');
const API_KEY = 'pk-e2e-secret-1234';
const TOKEN = 'bt-e2e-secret-5678';
const CLIENT_SECRET = 'cs-e2e-secret-9012';
const ENV = { PETSTORE_API_KEY: API_KEY, PETSTORE_TOKEN: TOKEN, PETSTORE_CLIENT_SECRET: CLIENT_SECRET };

const procs = new Processes();
let requestsFile: string;
let face: Client;
let overRelay: Client;

/** The `openapi_sources` entry of the petstore, served at `baseUrl`. */
function petstoreSource(baseUrl: string, namespace: string): string {
  return `  - name: petstore
    document: ${PETSTORE}
    xprotocol_namespace: ${namespace}
    operations: [getPetById, findPetsByStatus, addPet, getUserByName]
    base_url: ${baseUrl}
    max_response_bytes: 65536
    auth:
      api_key: { api_key_env: PETSTORE_API_KEY }
      petstore_auth: { bearer_env: PETSTORE_TOKEN }
`;
}

beforeAll(async () => {
  requestsFile = join(procs.dir, 'requests.jsonl');
  const { firstLine: baseUrl } = await procs.node(SERVICE, [], {
    PETSTORE_EXPECTED_KEY: API_KEY,
    PETSTORE_REQUESTS_FILE: requestsFile,
    PETSTORE_CLIENT_SECRET: CLIENT_SECRET,
  });
  // The same document with its OAuth scheme offering client credentials at the local service.
  procs.file(
    'client-credentials.yaml',
    readFileSync(PETSTORE, 'utf8')
      .replace('implicit:', 'clientCredentials:')
      .replace(
        'authorizationUrl: https://petstore3.swagger.io/oauth/authorize',
        `tokenUrl: ${new URL(baseUrl).origin}/oauth/token`,
      ),
  );
  // A real document's shape with one change: its server is the cloud metadata address.
  procs.file(
    'metadata.yaml',
    readFileSync(PETSTORE, 'utf8').replace(
      'url: https://petstore3.swagger.io/api/v3',
      'url: http://169.254.169.254/latest',
    ),
  );
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('face.key');
  const b = await procs.keygen('b.key');
  const a = await procs.keygen('a.key');
  // A face that serves the OpenAPI sources itself (no relay: a pure MCP gateway).
  face = await procs.mcpClient(
    procs.file(
      'face.yml',
      `openapi_sources:
${petstoreSource(baseUrl, 'com.test.pets')}  - name: metadata
    document: ./metadata.yaml
    xprotocol_namespace: com.test.metadata
    operations: [getInventory]
    auth:
      api_key: { api_key_env: PETSTORE_API_KEY }
  - name: oauth
    document: ./client-credentials.yaml
    xprotocol_namespace: com.test.oauth
    operations: [findPetsByTags]
    base_url: ${baseUrl}
    auth:
      petstore_auth: { client_id: petstore-client, client_secret_env: PETSTORE_CLIENT_SECRET, scope: "read:pets" }
mcp_server:
  transport: stdio
state_database: ./face-state.db
logging:
  level: warn
  format: json
  output: ./face.log
`,
    ),
    ENV,
  );
  // Adapter B wraps the source as an XProtocol endpoint; adapter A's face calls B over the relay.
  await procs.adapter(
    procs.file(
      'b.yml',
      `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
openapi_sources:
${petstoreSource(baseUrl, 'com.test.remote')}access:
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.remote.*]
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
    ),
    ENV,
  );
  overRelay = await procs.mcpClient(
    procs.file(
      'a.yml',
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${b.ed25519}
    relay: ${relayUrl}
mcp_server:
  transport: stdio
state_database: ./a-state.db
logging:
  level: warn
  format: json
  output: ./a.log
`,
    ),
  );
}, 180_000);

afterAll(async () => {
  await face?.close();
  await overRelay?.close();
  await procs.close();
});

/** The requests the service received, in order. */
function received(): { method: string; path: string; headers: Record<string, string> }[] {
  return readFileSync(requestsFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** The one listed tool whose name ends with `suffix` (the face may prefix names). */
async function toolNamed(client: Client, suffix: string): Promise<{ name: string; annotations?: unknown }> {
  const { tools } = await client.listTools();
  const found = tools.filter((t) => t.name.endsWith(suffix));
  expect(
    found.map((t) => t.name),
    `tools ending in ${suffix} among ${tools.map((t) => t.name).join(', ')}`,
  ).toHaveLength(1);
  return found[0]!;
}

describe('an OpenAPI source through the MCP face', () => {
  it('lists the chosen operations as tools, with the annotations of their methods', async () => {
    const getPet = await toolNamed(face, 'getPetById');
    expect(getPet.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    const addPet = await toolNamed(face, 'addPet');
    expect(addPet.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it('validate counts OpenAPI sources apart from MCP sources', async () => {
    const file = join(procs.dir, 'face.yml');
    const { code, stderr } = await procs.cli(['validate', '--config', file], { ...process.env, ...ENV });
    expect(stderr).toBe(
      `${file}: valid, a pure MCP gateway (0 mcp_sources, 3 openapi_sources, 0 xprotocol_sources)\n`,
    );
    expect(code).toBe(0);
  });

  it('calls getPetById with the API key from the environment, and answers structured content', async () => {
    const result = await face.callTool({
      name: (await toolNamed(face, 'getPetById')).name,
      arguments: { petId: 7 },
    });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ id: 7, name: 'pet-7', photoUrls: [], status: 'available' });
    const request = received().at(-1)!;
    expect(request).toMatchObject({ method: 'GET', path: '/api/v3/pet/7' });
    expect(request.headers.api_key).toBe(API_KEY);
    // Only the scheme the operation uses is sent: no bearer token, no cookie.
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers.cookie).toBeUndefined();
  });

  it('calls findPetsByStatus with a query parameter and the bearer token, the list wrapped as { result }', async () => {
    const result = await face.callTool({
      name: (await toolNamed(face, 'findPetsByStatus')).name,
      arguments: { status: 'sold' },
    });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({
      result: [
        { id: 1, name: 'pet-1', photoUrls: [], status: 'sold' },
        { id: 2, name: 'pet-2', photoUrls: [], status: 'sold' },
      ],
    });
    const request = received().at(-1)!;
    expect(request.path).toBe('/api/v3/pet/findByStatus?status=sold');
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('answers a 404 of the service as an isError result naming the status', async () => {
    const result = await face.callTool({
      name: (await toolNamed(face, 'getUserByName')).name,
      arguments: { username: 'nobody' },
    });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(
      /^GET \/user\/\{username\} answered HTTP 404/,
    );
  });
});

describe('OAuth client credentials', () => {
  it('asks the token endpoint once, then sends the token on each call', async () => {
    const name = (await toolNamed(face, 'findPetsByTags')).name;
    for (const tags of [['a'], ['b']]) {
      const result = await face.callTool({ name, arguments: { tags } });
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toEqual({
        result: [
          { id: 1, name: 'pet-1', photoUrls: [], status: 'available', tags: [{ id: 0, name: tags[0] }] },
        ],
      });
    }
    const tokenRequests = received().filter((r) => r.path === '/oauth/token');
    expect(tokenRequests).toHaveLength(1);
    expect(new URLSearchParams((tokenRequests[0] as unknown as { body: string }).body).get('scope')).toBe(
      'read:pets',
    );
    const calls = received().filter((r) => r.path.startsWith('/api/v3/pet/findByTags'));
    expect(calls.map((r) => r.path)).toEqual([
      '/api/v3/pet/findByTags?tags=a',
      '/api/v3/pet/findByTags?tags=b',
    ]);
    expect(calls.map((r) => r.headers.authorization)).toEqual(['Bearer cc-token-1', 'Bearer cc-token-1']);
  });
});

describe('attacks on an OpenAPI source', () => {
  it('encodes ../ in a path parameter: the request stays on its path', async () => {
    const result = await face.callTool({
      name: (await toolNamed(face, 'getUserByName')).name,
      arguments: { username: '../pet/7' },
    });
    expect(result.isError).toBe(true);
    expect(received().at(-1)!.path).toBe('/api/v3/user/..%2Fpet%2F7');
  });

  it('refuses a path parameter that is a whole dot segment, sending nothing', async () => {
    const before = received().length;
    const result = await face.callTool({
      name: (await toolNamed(face, 'getUserByName')).name,
      arguments: { username: '..' },
    });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toContain('would leave /user/{username}');
    expect(received()).toHaveLength(before);
  });

  it('stops reading an answer over max_response_bytes and says so', async () => {
    const result = await face.callTool({
      name: (await toolNamed(face, 'findPetsByStatus')).name,
      arguments: { status: 'pending' },
    });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(
      /^the answer to GET \/pet\/findByStatus is over 65536 bytes; stopped reading at \d+$/,
    );
  });

  it('refuses to dial the metadata address a document names as its server', async () => {
    const result = await face.callTool({ name: (await toolNamed(face, 'getInventory')).name, arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(
      /^GET \/store\/inventory not sent: the document's server 169\.254\.169\.254 is .*link-local/,
    );
  });

  it('never writes a credential to the log', () => {
    const log = readFileSync(join(procs.dir, 'face.log'), 'utf8');
    for (const secret of [API_KEY, TOKEN, CLIENT_SECRET, 'cc-token-']) expect(log).not.toContain(secret);
  });
});

describe('an OpenAPI source across XProtocol', () => {
  it('adapter A calls getPetById on adapter B over the relay', async () => {
    const result = await overRelay.callTool({
      name: (await toolNamed(overRelay, 'getPetById')).name,
      arguments: { petId: 42 },
    });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ id: 42, name: 'pet-42', photoUrls: [], status: 'available' });
    expect(received().at(-1)).toMatchObject({ method: 'GET', path: '/api/v3/pet/42' });
  });
});
