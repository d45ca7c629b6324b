// OAuth 2.1 on the adapter's HTTP face (docs/security.md, "OAuth on the MCP face"), end to end: a
// real authorization server on loopback (test/fixtures/servers/authorization-server.mjs: RFC 8414
// metadata, JWKS, client-credentials tokens signed ES256), the built adapter bin in gateway mode in
// front of the conformance fixture, and the MCP SDK client sending the tokens. Without a token:
// 401 naming the resource metadata; with a token: the tools its scopes allow, 403
// insufficient_scope for the rest; a bad token: 401 invalid_token; a session is its principal's.
import { join } from 'node:path';
import { Client, type ClientOptions, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, gatewayConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const AUTHORIZATION_SERVER = join(import.meta.dirname, 'fixtures', 'servers', 'authorization-server.mjs');
const procs = new Processes();
let issuer = '';
let face = '';
const clients: Client[] = [];

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('a.key');
  const accounts = procs.file(
    'clients.json',
    JSON.stringify([
      { id: 'reader', secret: 'r-secret', subject: 'alice', scopes: ['mcp', 'com.test.conformance.simple'] },
      { id: 'granted', secret: 'g-secret', subject: 'bob', scopes: ['mcp'] },
      { id: 'no-mcp', secret: 'n-secret', subject: 'carol', scopes: ['com.test.conformance.simple'] },
      { id: 'granted-too', secret: 'd-secret', subject: 'dave', scopes: ['mcp'] },
      // Signed by the authorization server, with a `sub` that is not a non-empty string.
      { id: 'array-subject', secret: 'a-secret', subject: ['bob'], scopes: ['mcp'] },
      { id: 'number-subject', secret: '1-secret', subject: 123, scopes: ['mcp'] },
      { id: 'empty-subject', secret: 'e-secret', subject: '', scopes: ['mcp'] },
    ]),
  );
  issuer = (await procs.node(AUTHORIZATION_SERVER, [accounts])).firstLine;
  const port = await freePort();
  face = `http://127.0.0.1:${port}/mcp`;
  await procs.adapter(
    procs.file(
      'oauth.yml',
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'conformance',
            body: `${conformanceStdioBody()}
    schema_overrides:
      test_simple_text:
        required_capability: com.test.conformance.simple
      test_image_content:
        required_capability: com.test.conformance.images`,
            namespace: 'com.test.conformance',
          },
        ],
        face: { port },
        serverExtra: `  oauth:
    issuer: ${issuer}
    resource: ${face}
    required_scopes: [mcp]
    grants:
      - subject: bob
        capabilities: [com.test.conformance.*]
      - subject: dave
        capabilities: [com.test.conformance.*]
      - subject: "123"
        capabilities: [com.test.conformance.*]`,
        stateDatabase: './state.db',
      }),
    ),
  );
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await procs.close();
});

/** A token of the test authorization server for `client`, for this face. */
async function token(client: string, secret: string, extra: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client,
      client_secret: secret,
      resource: face,
      ...extra,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function connect(
  bearer: string,
  revision: '2025-11-25' | '2026-07-28' = '2025-11-25',
  options: ClientOptions = {},
): Promise<Client> {
  const client = new Client(
    { name: 'oauth-e2e', version: '0.0.0' },
    {
      capabilities: {},
      versionNegotiation: { mode: revision === '2026-07-28' ? { pin: revision } : 'legacy' },
      ...options,
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(face), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  clients.push(client);
  return client;
}

async function post(headers: Record<string, string>, body: unknown) {
  const response = await fetch(face, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    wwwAuthenticate: response.headers.get('www-authenticate'),
    body: await response.text(),
  };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

describe('OAuth 2.1 on the HTTP face', () => {
  it('without a token: 401 with resource_metadata, and the metadata names the authorization server', async () => {
    const refused = await post({}, INITIALIZE);
    expect(refused.status).toBe(401);
    const metadataUrl = `http://127.0.0.1:${new URL(face).port}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.wwwAuthenticate).toBe(`Bearer scope="mcp", resource_metadata="${metadataUrl}"`);
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toEqual({
      resource: face,
      authorization_servers: [issuer],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
  });

  it('a token calls the tools its scopes allow, and gets 403 insufficient_scope for the rest', async () => {
    const alice = await connect(await token('reader', 'r-secret'));
    const simple = await alice.callTool({ name: 'test_simple_text', arguments: {} });
    expect((simple.content as { text: string }[])[0]?.text).toBe(
      'This is a simple text response for testing.',
    );
    const image = await alice
      .callTool({ name: 'test_image_content', arguments: {} })
      .catch((e: unknown) => e);
    // The SDK client reads the 403's WWW-Authenticate: the scope it would need to ask for.
    expect(String(image)).toContain('Insufficient scope: required "com.test.conformance.images"');
    // The same, raw: the status, and the header naming the scope to ask for.
    const raw = await token('reader', 'r-secret');
    const init = await fetch(face, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${raw}`,
      },
      body: JSON.stringify(INITIALIZE),
    });
    await init.text();
    const session = init.headers.get('mcp-session-id') ?? '';
    const denied = await post(
      { authorization: `Bearer ${raw}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_image_content', arguments: {} } },
    );
    expect(denied.status).toBe(403);
    expect(denied.wwwAuthenticate).toContain('error="insufficient_scope"');
    expect(denied.wwwAuthenticate).toContain('scope="com.test.conformance.images"');
    expect(JSON.parse(denied.body)).toMatchObject({ id: 7, error: { code: -32000 } });
  });

  it('tools/list shows a token only the tools it may call', async () => {
    const alice = await connect(await token('reader', 'r-secret'));
    const listed = (await alice.listTools()).tools.map((tool) => tool.name);
    expect(listed).toContain('test_simple_text');
    expect(listed).not.toContain('test_image_content');
    const bob = await connect(await token('granted', 'g-secret'));
    expect((await bob.listTools()).tools.map((tool) => tool.name)).toContain('test_image_content');
  });

  it('a 2026-07-28 client (no session) is held to the same scopes and listing as a 2025 session', async () => {
    const alice = await connect(await token('reader', 'r-secret'), '2026-07-28');
    expect(alice.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = (await alice.listTools()).tools.map((tool) => tool.name);
    expect(listed).toContain('test_simple_text');
    expect(listed).not.toContain('test_image_content');
    const simple = await alice.callTool({ name: 'test_simple_text', arguments: {} });
    expect((simple.content as { text: string }[])[0]?.text).toBe(
      'This is a simple text response for testing.',
    );
    const image = await alice
      .callTool({ name: 'test_image_content', arguments: {} })
      .catch((e: unknown) => e);
    expect(String(image)).toContain('Insufficient scope: required "com.test.conformance.images"');
    // Without a token, a 2026-07-28 request is refused like any other.
    const anonymous = await post(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    );
    expect(anonymous.status).toBe(401);
  });

  it("a 2026-07-28 client's input-required state is its own: another principal's retry with it is refused", async () => {
    const manual = async (bearer: string) => {
      const client = await connect(bearer, '2026-07-28', {
        capabilities: { elicitation: {} },
        inputRequired: { autoFulfill: false },
      });
      return (extra: Record<string, unknown> = {}) =>
        client.request(
          {
            method: 'tools/call',
            params: { name: 'test_elicitation', arguments: { message: 'Name?' }, ...extra },
          },
          { allowInputRequired: true },
        ) as Promise<Record<string, unknown>>;
    };
    const bob = await manual(await token('granted', 'g-secret'));
    const dave = await manual(await token('granted-too', 'd-secret'));
    const asked = await bob();
    expect(asked.resultType).toBe('input_required');
    const key = Object.keys(asked.inputRequests as object)[0]!;
    const answer = { inputResponses: { [key]: { action: 'decline' } }, requestState: asked.requestState };
    await expect(dave(answer)).rejects.toMatchObject({ code: -32602 });
    const done = await bob(answer);
    expect((done.content as { text: string }[])[0]?.text).toBe('User response: {"action":"decline"}');
  });

  it('an input-required state resumes only the call it came from: a retry naming another tool is refused', async () => {
    const client = await connect(await token('granted', 'g-secret'), '2026-07-28', {
      capabilities: { elicitation: {} },
      inputRequired: { autoFulfill: false },
    });
    const call = (name: string, extra: Record<string, unknown> = {}) =>
      client.request(
        { method: 'tools/call', params: { name, arguments: { message: 'Name?' }, ...extra } },
        { allowInputRequired: true },
      ) as Promise<Record<string, unknown>>;
    const asked = await call('test_elicitation');
    expect(asked.resultType).toBe('input_required');
    const key = Object.keys(asked.inputRequests as object)[0]!;
    const answer = { inputResponses: { [key]: { action: 'decline' } }, requestState: asked.requestState };
    // The face checks the scopes of the tool a request names; the lease must run that tool.
    await expect(call('test_simple_text', answer)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('belongs to another request'),
    });
    const done = await call('test_elicitation', answer);
    expect((done.content as { text: string }[])[0]?.text).toBe('User response: {"action":"decline"}');
  });

  it("a subject's grants give tools beyond its scopes", async () => {
    const bob = await connect(await token('granted', 'g-secret'));
    const image = await bob.callTool({ name: 'test_image_content', arguments: {} });
    expect((image.content as { type: string }[])[0]?.type).toBe('image');
  });

  it('a token without the required scope gets 403; an expired or tampered one 401 invalid_token', async () => {
    const noMcp = await post({ authorization: `Bearer ${await token('no-mcp', 'n-secret')}` }, INITIALIZE);
    expect(noMcp.status).toBe(403);
    expect(noMcp.wwwAuthenticate).toContain('scope="mcp"');
    const expired = await post(
      { authorization: `Bearer ${await token('reader', 'r-secret', { expires_in: '-120' })}` },
      INITIALIZE,
    );
    expect(expired.status).toBe(401);
    expect(expired.wwwAuthenticate).toContain('error="invalid_token"');
    expect(expired.body).toContain('the token has expired');
    const good = await token('reader', 'r-secret');
    const [head, payload, signature] = good.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, scope: 'mcp *' })).toString('base64url')}.${signature}`;
    const tampered = await post({ authorization: `Bearer ${forged}` }, INITIALIZE);
    expect(tampered.status).toBe(401);
    expect(tampered.body).toContain('signature does not verify');
  });

  it.each([
    ['an array (["bob"], which would read as bob)', 'array-subject', 'a-secret'],
    ['a number (123)', 'number-subject', '1-secret'],
    ['empty', 'empty-subject', 'e-secret'],
  ])(
    'a signed token whose sub is %s: 401 invalid_token, no principal, no grants',
    async (_what, id, secret) => {
      const refused = await post({ authorization: `Bearer ${await token(id, secret)}` }, INITIALIZE);
      expect(refused.status).toBe(401);
      expect(refused.wwwAuthenticate).toContain('error="invalid_token"');
      expect(refused.body).toContain("the token's subject (sub) must be a non-empty string");
      // The grants of the subject it would have been read as are not reached through a tools/call either.
      const call = await post(
        {
          authorization: `Bearer ${await token(id, secret)}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'test_image_content',
        },
        {
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: {
            name: 'test_image_content',
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
      );
      expect(call.status, call.body).toBe(401);
    },
  );

  it("a session belongs to the principal that opened it: another's token cannot use it", async () => {
    const aliceToken = await token('reader', 'r-secret');
    const init = await fetch(face, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${aliceToken}`,
      },
      body: JSON.stringify(INITIALIZE),
    });
    await init.text();
    const session = init.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    expect((await post({ ...headers, authorization: `Bearer ${aliceToken}` }, ping)).status).toBe(200);
    const bobToken = await token('granted', 'g-secret');
    expect((await post({ ...headers, authorization: `Bearer ${bobToken}` }, ping)).status).toBe(404);
  });
});
