// OAuth scopes on the adapter's HTTP face when its resources, prompts and completions come from
// an XProtocol endpoint (`expose: [xprotocol_sources]`; docs/security.md, "OAuth on the MCP face"),
// end to end on both protocol legs: adapter B wraps the conformance fixture (namespace
// com.test.conf) and grants adapter A's key everything of it; A serves its face over Streamable
// HTTP as an OAuth resource server of a real authorization server on loopback. The face learns
// B's namespace from B's announce, so a token needs `com.test.conf.mcp.…` exactly as a caller of
// B would: without it, 403 insufficient_scope and nothing crosses the relay to the server; with
// it, served; every listing shows only what the token may use.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectInsufficientScope, FaceCaller, type Leg } from './support/face-caller.js';
import { CONFORMANCE_FIXTURE, freePort, Processes } from './support/processes.js';

const AUTHORIZATION_SERVER = join(import.meta.dirname, 'fixtures', 'servers', 'authorization-server.mjs');
const procs = new Processes();
const events = join(procs.dir, 'events.jsonl');
let issuer = '';
let face = '';

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const b = await procs.keygen('b.key');
  const a = await procs.keygen('a.key');
  await procs.adapter(
    procs.file(
      'b.yml',
      `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
    transport: stdio
    command: ["${process.execPath}", "${CONFORMANCE_FIXTURE}", "stdio"]
    env:
      XP_FIXTURE_EVENTS: "${events}"
    xprotocol_namespace: com.test.conf
access:
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.conf.*]
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  const accounts = procs.file(
    'clients.json',
    JSON.stringify([
      { id: 'narrow', secret: 'n-secret', subject: 'erin', scopes: ['mcp'] },
      {
        id: 'docs',
        secret: 'd-secret',
        subject: 'frank',
        scopes: [
          'mcp',
          'com.test.conf.mcp.resources.read',
          'com.test.conf.mcp.prompts.get',
          'com.test.conf.mcp.completion',
        ],
      },
    ]),
  );
  issuer = (await procs.node(AUTHORIZATION_SERVER, [accounts])).firstLine;
  const port = await freePort();
  face = `http://127.0.0.1:${port}/mcp`;
  await procs.adapter(
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
    mcp_tool_prefix: conf_
mcp_server:
  transport: streamable_http
  port: ${port}
  oauth:
    issuer: ${issuer}
    resource: ${face}
    required_scopes: [mcp]
state_database: ./a-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
}, 120_000);

afterAll(async () => {
  await procs.close();
});

/** A caller of the face on `leg` with a token of `client`. */
async function open(leg: Leg, client: 'narrow' | 'docs'): Promise<FaceCaller> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client,
      client_secret: client === 'narrow' ? 'n-secret' : 'd-secret',
      resource: face,
    }),
  });
  expect(response.status).toBe(200);
  return FaceCaller.open(face, leg, ((await response.json()) as { access_token: string }).access_token);
}

/** What the conformance server behind B served, as `event marker` lines. */
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

describe.each(['2025-11-25', '2026-07-28'] as const)('OAuth scopes across XProtocol (%s leg)', (leg) => {
  it("a token without the endpoint's mcp capabilities is refused every request, and nothing reaches the server", async () => {
    const narrow = await open(leg, 'narrow');
    const uri = `test://static-binary?${leg}`;
    expectInsufficientScope(
      await narrow.request('resources/read', { uri }),
      'com.test.conf.mcp.resources.read',
    );
    expectInsufficientScope(
      await narrow.request('prompts/get', { name: 'conf_test_prompt_with_image' }),
      'com.test.conf.mcp.prompts.get',
    );
    const value = `refused-${leg}`;
    expectInsufficientScope(
      await narrow.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'conf_test_prompt_with_arguments' },
        argument: { name: 'arg1', value },
      }),
      'com.test.conf.mcp.completion',
    );
    expectInsufficientScope(
      await narrow.request('logging/setLevel', { level: 'debug' }),
      'com.test.conf.mcp.logging',
    );
    expect(
      served().filter((line) => line.endsWith(uri) || line.endsWith(value) || line.includes('with_image')),
    ).toEqual([]);
    expect((await narrow.result('resources/list')).resources).toEqual([]);
    expect((await narrow.result('resources/templates/list')).resourceTemplates).toEqual([]);
    expect((await narrow.result('prompts/list')).prompts).toEqual([]);
  });

  it('a token holding them is served, and lists what it may use', async () => {
    const docs = await open(leg, 'docs');
    const resources = (await docs.all('resources/list', 'resources')).map((r) => r.uri);
    expect(resources).toContain('test://static-text');
    const prompts = (await docs.all('prompts/list', 'prompts')).map((p) => p.name);
    expect(prompts).toContain('conf_test_simple_prompt');
    const read = await docs.result('resources/read', { uri: 'test://static-text' });
    expect((read.contents as { text?: string }[])[0]?.text).toBeTypeOf('string');
    const prompt = await docs.result('prompts/get', { name: 'conf_test_simple_prompt' });
    expect(prompt.messages).toHaveLength(1);
    const completed = await docs.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'conf_test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect((completed.completion as { values: string[] }).values).toEqual(['paris', 'park', 'party']);
  });
});
