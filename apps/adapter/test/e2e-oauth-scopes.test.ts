// OAuth scopes on every MCP method of the adapter's HTTP face (docs/security.md, "OAuth on the MCP
// face"), end to end and on both protocol legs (a 2025-11-25 session, and 2026-07-28 requests
// without one): a real authorization server on loopback
// (test/fixtures/servers/authorization-server.mjs), the built adapter bin in gateway mode in front
// of two real upstreams — the conformance fixture (namespace com.test.conformance, which records
// every read, prompt and completion it serves) and server-everything (com.test.everything) — and
// raw HTTP requests carrying the tokens. A token scoped to one tool is refused `resources/read`,
// `resources/subscribe`, `prompts/get`, `completion/complete` and `logging/setLevel` with 403
// insufficient_scope naming `<namespace>.mcp.…` (the XProtocol endpoint's rule), and none of them
// reaches the server; a token holding those capabilities of one upstream is served there; every
// listing, and `search_tools`, shows a token only what it may use.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfig } from './support/adapter-configs.js';
import { expectInsufficientScope, FaceCaller, type Leg } from './support/face-caller.js';
import { CONFORMANCE_FIXTURE, EVERYTHING_SERVER, freePort, Processes } from './support/processes.js';

const AUTHORIZATION_SERVER = join(import.meta.dirname, 'fixtures', 'servers', 'authorization-server.mjs');
/** Every capability of the conformance upstream's resources, prompts, completions and logging. */
const CONFORMANCE_MCP = ['resources.read', 'resources.subscribe', 'prompts.get', 'completion', 'logging'].map(
  (suffix) => `com.test.conformance.mcp.${suffix}`,
);

const procs = new Processes();
let issuer = '';
let face = '';
let events = '';

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('a.key');
  const accounts = procs.file(
    'clients.json',
    JSON.stringify([
      // The attacker's token: one tool, nothing else.
      { id: 'narrow', secret: 'n-secret', subject: 'erin', scopes: ['mcp', 'com.test.conformance.simple'] },
      {
        id: 'docs',
        secret: 'd-secret',
        subject: 'frank',
        scopes: ['mcp', 'com.test.conformance.simple', ...CONFORMANCE_MCP],
      },
    ]),
  );
  issuer = (await procs.node(AUTHORIZATION_SERVER, [accounts])).firstLine;
  events = join(procs.dir, 'conformance-events.jsonl');
  const port = await freePort();
  face = `http://127.0.0.1:${port}/mcp`;
  await procs.adapter(
    procs.file(
      'scopes.yml',
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'conformance',
            body: `    transport: stdio
    command: ["${process.execPath}", "${CONFORMANCE_FIXTURE}", "stdio"]
    env:
      XP_FIXTURE_EVENTS: ${events}
    schema_overrides:
      test_simple_text:
        required_capability: com.test.conformance.simple`,
            namespace: 'com.test.conformance',
          },
          {
            name: 'everything',
            body: `    transport: stdio
    command: ["${process.execPath}", "${EVERYTHING_SERVER}", "stdio"]`,
            namespace: 'com.test.everything',
          },
        ],
        face: { port },
        serverExtra: `  oauth:
    issuer: ${issuer}
    resource: ${face}
    required_scopes: [mcp]`,
        stateDatabase: './state.db',
      }),
    ),
  );
}, 120_000);

afterAll(async () => {
  await procs.close();
});

/** A token of the test authorization server for `client`, for this face (`scope`: a subset of its scopes). */
async function token(client: 'narrow' | 'docs', scope?: string): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client,
      client_secret: client === 'narrow' ? 'n-secret' : 'd-secret',
      resource: face,
      ...(scope !== undefined && { scope }),
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A caller of the face on `leg` with a token of `client`. */
async function open(leg: Leg, client: 'narrow' | 'docs', scope?: string): Promise<FaceCaller> {
  return FaceCaller.open(face, leg, await token(client, scope));
}

/** What the conformance upstream served (its XP_FIXTURE_EVENTS file), as `event marker` lines. */
function served(): string[] {
  if (!existsSync(events)) return [];
  return readFileSync(events, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { event, marker } = JSON.parse(line) as { event: string; marker: string };
      return `${event} ${marker}`;
    });
}

describe.each(['2025-11-25', '2026-07-28'] as const)('OAuth scopes on every method (%s leg)', (leg) => {
  it('resources/read: refused outside the scopes before it reaches the server, served inside', async () => {
    const narrow = await open(leg, 'narrow');
    const uri = `test://static-binary?${leg}`;
    expectInsufficientScope(
      await narrow.request('resources/read', { uri }),
      'com.test.conformance.mcp.resources.read',
    );
    expect(served()).not.toContain(`resources/read ${uri}`);
    const docs = await open(leg, 'docs');
    const read = await docs.result('resources/read', { uri: 'test://static-text' });
    expect((read.contents as { text?: string }[])[0]?.text).toBeTypeOf('string');
  });

  it('prompts/get: refused outside the scopes before it reaches the server, served inside', async () => {
    const narrow = await open(leg, 'narrow');
    expectInsufficientScope(
      await narrow.request('prompts/get', { name: 'test_prompt_with_image' }),
      'com.test.conformance.mcp.prompts.get',
    );
    expect(served()).not.toContain('prompts/get test_prompt_with_image');
    const docs = await open(leg, 'docs');
    const prompt = await docs.result('prompts/get', { name: 'test_simple_prompt' });
    expect(prompt.messages).toHaveLength(1);
  });

  it('completion/complete of a prompt or a resource template: refused outside the scopes, served inside', async () => {
    const narrow = await open(leg, 'narrow');
    const refusedValue = `refused-${leg}`;
    for (const ref of [
      { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      { type: 'ref/resource', uri: 'test://template/{id}/data' },
    ]) {
      expectInsufficientScope(
        await narrow.request('completion/complete', { ref, argument: { name: 'arg1', value: refusedValue } }),
        'com.test.conformance.mcp.completion',
      );
    }
    expect(served()).not.toContain(`completion/complete ${refusedValue}`);
    const docs = await open(leg, 'docs');
    const completed = await docs.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect((completed.completion as { values: string[] }).values).toEqual(['paris', 'park', 'party']);
  });

  it('resources/subscribe and logging/setLevel: refused outside the scopes', async () => {
    const narrow = await open(leg, 'narrow');
    expectInsufficientScope(
      await narrow.request('resources/subscribe', { uri: 'test://watched-resource' }),
      'com.test.conformance.mcp.resources.subscribe',
    );
    expectInsufficientScope(
      await narrow.request('logging/setLevel', { level: 'debug' }),
      'com.test.conformance.mcp.logging',
    );
    const docs = await open(leg, 'docs');
    if (leg === '2025-11-25') {
      expect(await docs.result('resources/subscribe', { uri: 'test://watched-resource' })).toEqual({});
      expect(await docs.result('logging/setLevel', { level: 'debug' })).toEqual({});
    } else {
      // 2026-07-28 has neither method (subscriptions/listen, and a log level per request): the
      // scopes let the request through to the MCP server, which answers that.
      for (const [method, params] of [
        ['resources/subscribe', { uri: 'test://watched-resource' }],
        ['logging/setLevel', { level: 'debug' }],
      ] as const) {
        const answer = await docs.request(method, params);
        expect(answer.status, JSON.stringify(answer.message)).not.toBe(403);
      }
    }
  });

  it('resources/list, resources/templates/list and prompts/list show only the entries of servers the token may use', async () => {
    const narrow = await open(leg, 'narrow');
    expect((await narrow.result('resources/list')).resources).toEqual([]);
    expect((await narrow.result('resources/templates/list')).resourceTemplates).toEqual([]);
    expect((await narrow.result('prompts/list')).prompts).toEqual([]);
    const docs = await open(leg, 'docs');
    const all = (method: string, key: string) => docs.all(method, key);
    const resources = (await all('resources/list', 'resources')).map((r) => r.uri);
    expect(resources).toContain('test://static-text');
    expect(resources.filter((uri) => String(uri).startsWith('demo://'))).toEqual([]);
    const templates = (await all('resources/templates/list', 'resourceTemplates')).map((t) => t.uriTemplate);
    expect(templates).toEqual(['test://template/{id}/data']);
    const prompts = (await all('prompts/list', 'prompts')).map((p) => p.name);
    expect(prompts).toContain('test_simple_prompt');
    expect(prompts).not.toContain('simple-prompt');
  });

  it('search_tools finds only the tools the token may call', async () => {
    const narrow = await open(leg, 'narrow');
    const listed = (
      (await narrow.result('tools/list')).tools as { name: string; description?: string }[]
    ).map((tool) => tool.name);
    expect(listed.sort()).toEqual(['search_tools', 'test_simple_text']);
    // Its description counts the tools this token may call, not every tool of the face.
    const tools = (await narrow.result('tools/list')).tools as { name: string; description: string }[];
    expect(tools.find((tool) => tool.name === 'search_tools')?.description).toContain(
      'among the 1 tools here',
    );
    for (const query of ['returns an image', 'echo a message', 'simple text response']) {
      const found = await narrow.result('tools/call', {
        name: 'search_tools',
        arguments: { query, limit: 50 },
      });
      const names = (found.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
      expect(
        names.filter((name) => !listed.includes(name)),
        query,
      ).toEqual([]);
    }
    const simple = await narrow.result('tools/call', {
      name: 'search_tools',
      arguments: { query: 'simple text response' },
    });
    expect((simple.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name)).toEqual([
      'test_simple_text',
    ]);
  });
});

describe.each(['2025-11-25', '2026-07-28'] as const)(
  'which server serves an entry decides its scope (%s leg)',
  (leg) => {
    it("an entry of a server outside the token's scopes is refused once the face learns whose it is", async () => {
      const docs = await open(leg, 'docs');
      // simple-prompt is server-everything's: the face learns so while it runs the first request
      // (no listing this token may see shows it), and knows it before the second.
      const first = await docs.request('prompts/get', { name: 'simple-prompt' });
      expect(first.message.error?.code, JSON.stringify(first.message)).toBe(-32000);
      expect(first.message.error?.message).toContain('com.test.everything.mcp.prompts.get');
      expectInsufficientScope(
        await docs.request('prompts/get', { name: 'simple-prompt' }),
        'com.test.everything.mcp.prompts.get',
      );
    });
  },
);

describe('a session follows the token of each request', () => {
  it('a 2025-11-25 session refused a prompt with a narrow token is served it with a token holding the scope (step-up)', async () => {
    const frank = await open('2025-11-25', 'docs', 'mcp com.test.conformance.simple');
    expectInsufficientScope(
      await frank.request('prompts/get', { name: 'test_simple_prompt' }),
      'com.test.conformance.mcp.prompts.get',
    );
    expect((await frank.result('prompts/list')).prompts).toEqual([]);
    frank.bearer = await token('docs');
    expect((await frank.result('prompts/get', { name: 'test_simple_prompt' })).messages).toHaveLength(1);
    const listed = ((await frank.result('prompts/list')).prompts as { name: string }[]).map((p) => p.name);
    expect(listed).toContain('test_simple_prompt');
    // And back: a narrower token in the same session sees and gets less again.
    frank.bearer = await token('docs', 'mcp com.test.conformance.simple');
    expect((await frank.result('prompts/list')).prompts).toEqual([]);
  });
});
