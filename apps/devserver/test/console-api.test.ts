// The web console's HTTP API on a real `xprotocol-devserver --mcp-command` child (server-filesystem
// on loopback): who may use it (token, Host, Origin), the catalog, the live events stream, Try a
// call through the relay, refusals with their reason, and the config view.
import { createEventTemplate, generateIdentity, signEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _quoteCommandLine } from '../src/_command-quote.js';
import { type Child, FS_SERVER, Sandbox } from './support/children.js';
import { ConsoleClient, CSRF_HEADER, type EventStream } from './support/console-client.js';

const sandbox = new Sandbox();
const TEXT = 'read from the web console\n';
const KIND = 'com.demo.fs.read_text_file';
let dev: Child;
let web: ConsoleClient;
let stream: EventStream;

beforeAll(async () => {
  sandbox.file('hello.txt', TEXT);
  dev = sandbox.spawn([
    '--mcp-command',
    _quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir]),
    '--namespace',
    'com.demo.fs',
    '--relay-port',
    '0',
  ]);
  await dev.waitForStderr(/"mcpServers"/);
  web = new ConsoleClient(dev);
  stream = web.events();
  await stream.opened;
}, 60_000);
afterAll(async () => {
  stream?.close();
  await sandbox.close();
});

describe('who may use the console', () => {
  it('prints its loopback URL with a per-run token in the banner', () => {
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a request without the token, or with another one (401)', async () => {
    for (const path of ['/', '/api/catalog', '/api/events', '/assets/app.js']) {
      const response = await web.request(path);
      expect(response.status, path).toBe(401);
      expect(response.body, path).toContain('open the URL printed in the banner');
    }
    const wrong = await web.request('/api/catalog', { headers: { 'x-xp-console-token': 'x'.repeat(43) } });
    expect(wrong.status).toBe(401);
    expect((await web.request('/?token=nope')).status).toBe(401);
  });

  it('refuses another Origin (403) and another Host (421), even with the token', async () => {
    const origin = await web.request('/api/catalog', {
      headers: { ...web.auth, origin: 'http://evil.example' },
    });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error).toContain('Origin: expected');
    const host = await web.request('/api/catalog', { headers: { ...web.auth, host: 'evil.example:80' } });
    expect(host.status).toBe(421);
    expect(JSON.parse(host.body).error).toContain('got "evil.example:80"');
    const post = await web.request('/api/call', {
      method: 'POST',
      headers: { ...web.auth, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ kind: KIND, payload: { path: sandbox.path('hello.txt') } }),
    });
    expect(post.status).toBe(403);
    // Its own origin is fine.
    const own = await web.request('/api/status', { headers: { ...web.auth, origin: web.base } });
    expect(own.status).toBe(200);
  });

  it("the first ?token= visit sets the port's own HttpOnly SameSite=Strict cookie, hands the CSRF token to the page only, and drops the token from the URL", async () => {
    const first = await web.request(`/?token=${web.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toMatch(/^\/#csrf=[A-Za-z0-9_-]{43}$/);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(
      new RegExp(
        `^xp_console_${web.port}=${web.port}\\.[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict$`,
      ),
    );
    // Neither secret is the banner's token, and the CSRF token is in no cookie.
    const { csrf } = await web.session();
    expect(cookie).not.toContain(web.token);
    expect(cookie).not.toContain(csrf);
    const page = await web.request('/', { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<script type="module" src="/assets/app.js">');
    expect(page.body, 'the page a cookie fetches does not carry the CSRF token').not.toContain(csrf);
    // Every asset the page names is served from the package, none from elsewhere.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      expect(asset, 'no CDN').toMatch(/^\/assets\//);
      const served = await web.request(asset, { headers: { cookie: cookie.split(';')[0]! } });
      expect(served.status, asset).toBe(200);
      expect(served.body, asset).not.toContain(csrf);
    }
  });
});

describe('the cookie belongs to one port; acting needs the CSRF token', () => {
  let other: ConsoleClient;
  const call = JSON.stringify({ kind: KIND, payload: { path: sandbox.path('hello.txt') } });
  const post = (client: ConsoleClient, headers: Record<string, string>, path = '/api/call') =>
    client.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: call,
    });

  beforeAll(async () => {
    // A second console on another port of the same host: what a browser's cookie jar shares
    // with it (cookies ignore ports) must not open the first.
    const second = sandbox.spawn([
      '--mcp-command',
      _quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir]),
      '--relay-port',
      '0',
      '--key',
      sandbox.path('second.key'),
      '--db',
      sandbox.path('second.db'),
    ]);
    await second.waitForStderr(/"mcpServers"/);
    other = new ConsoleClient(second);
    expect(other.port).not.toBe(web.port);
  }, 60_000);

  it("refuses this console's cookie at the other port's console, under either name (401)", async () => {
    const { cookie } = await web.session();
    const value = cookie.slice(cookie.indexOf('=') + 1);
    const asIs = await other.request('/api/status', { headers: { cookie } });
    expect(asIs.status).toBe(401);
    expect(JSON.parse(asIs.body).error).toContain(`no xp_console_${other.port} cookie`);
    const renamed = await other.request('/api/status', {
      headers: { cookie: `xp_console_${other.port}=${value}` },
    });
    expect(renamed.status).toBe(401);
    expect(JSON.parse(renamed.body).error).toContain(
      `minted for the console on port ${web.port}, not this one (${other.port})`,
    );
    // And the other console's cookie does not open this one.
    const theirs = await other.session();
    const back = await web.request('/api/status', { headers: { cookie: theirs.cookie } });
    expect(back.status).toBe(401);
    // Its own cookie still opens it.
    expect((await other.request('/api/status', { headers: { cookie: theirs.cookie } })).status).toBe(200);
  });

  it('a server on another port that received the cookie cannot turn it into the token, nor act with it', async () => {
    const { cookie, csrf } = await web.session();
    const value = cookie.slice(cookie.indexOf('=') + 1);
    // The cookie's value is not the banner's token: not as the header, not as ?token=.
    expect((await web.request('/api/status', { headers: { 'x-xp-console-token': value } })).status).toBe(401);
    expect((await web.request(`/api/status?token=${encodeURIComponent(value)}`)).status).toBe(401);
    // With the cookie alone (no Origin: a program, not a browser), no call.
    const bare = await post(web, { cookie });
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.body).error).toBe(
      "X-XP-Console-CSRF: missing; a POST needs this run's CSRF token, which the console page gets from the banner URL",
    );
    // Sent by a page of the other port (its Origin), even with the right CSRF token: refused.
    const fromThere = await post(web, { cookie, [CSRF_HEADER]: csrf, origin: other.base });
    expect(fromThere.status).toBe(403);
    expect(JSON.parse(fromThere.body).error).toContain(`got ${JSON.stringify(other.base)}`);
  });

  it("refuses a POST with a wrong CSRF token, or the other console's, and accepts its own (403, 403, 200)", async () => {
    const { cookie, csrf } = await web.session();
    const theirs = await other.session();
    // One character changed (to another one: a token may already end in "A").
    const altered = `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [altered, theirs.csrf, '', 'x'.repeat(500)]) {
      const refused = await post(web, { cookie, [CSRF_HEADER]: wrong });
      expect(refused.status, wrong).toBe(403);
      expect(JSON.parse(refused.body).error, wrong).toBe(
        "X-XP-Console-CSRF: not this run's CSRF token; reload the console from the URL printed in the banner",
      );
    }
    const ok = await post(web, { cookie, [CSRF_HEADER]: csrf, origin: web.base });
    expect(ok.status, ok.body).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, payload: { content: [{ text: TEXT }] } });
  });

  it('needs the CSRF token on every POST, with the header token too, before any route is looked up', async () => {
    const { csrf } = await web.session();
    const withToken = await post(web, web.auth);
    expect(withToken.status).toBe(403);
    const unknown = await post(web, web.auth, '/api/anything');
    expect(unknown.status).toBe(403);
    expect((await post(web, { ...web.auth, [CSRF_HEADER]: csrf }, '/api/anything')).status).toBe(404);
    const put = await web.request('/api/call', { method: 'PUT', headers: web.auth, body: call });
    expect(put.status).toBe(403);
  });
});

describe('the console API', () => {
  it('serves the catalog: kinds, versions, capability, quality score and findings with their fix', async () => {
    const catalog = await web.json<{
      tools: {
        kind: string;
        capability: string;
        score: number;
        findings: { indicator: string; fix: string }[];
      }[];
      sources: { name: string; namespace: string; connected: boolean; toolCount: number }[];
    }>('/api/catalog');
    expect(catalog.sources).toEqual([
      expect.objectContaining({ name: 'mcp', namespace: 'com.demo.fs', connected: true }),
    ]);
    expect(catalog.tools).toHaveLength(catalog.sources[0]!.toolCount);
    const read = catalog.tools.find((t) => t.kind === KIND);
    expect(read).toMatchObject({ version: '1.0.0', capability: 'com.demo.fs.read', server: 'mcp' });
    expect([0, 0.2, 0.4, 0.6, 0.8, 1]).toContain(read!.score);
    // Findings and score agree: each failed indicator costs a fifth, and says how to fix it.
    for (const tool of catalog.tools) {
      expect(tool.score, tool.kind).toBeCloseTo(1 - tool.findings.length / 5, 10);
      for (const finding of tool.findings) expect(finding.fix.length, tool.kind).toBeGreaterThan(10);
    }
    expect(catalog.tools.some((t) => t.findings.length > 0)).toBe(true);
  });

  it("serves one tool's card: annotations, input schema and its GBNF grammar", async () => {
    const tool = await web.json<Record<string, unknown>>(`/api/tool?kind=${KIND}`);
    expect(tool).toMatchObject({
      kind: KIND,
      tool: 'read_text_file',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', required: ['path'] },
      responseKind: `${KIND}.result`,
      grammarStatus: { state: 'exact' },
    });
    expect(tool.grammar).toMatch(/^root ::= /m);
    const missing = await web.request('/api/tool?kind=com.demo.fs.nope', { headers: web.auth });
    expect(missing.status).toBe(404);
  });

  it("searches through the adapter's xp.schema.describe index", async () => {
    const { matches } = await web.json<{ matches: { kind: string; relevance: number }[] }>(
      `/api/search?q=${encodeURIComponent('write text into a file')}`,
    );
    expect(matches.length).toBeGreaterThan(0);
    expect(matches.slice(0, 3).map((m) => m.kind)).toContain('com.demo.fs.write_file');
  });

  it('Try a call: a real signed call through the relay, with the request and answer events and the decoded answer', async () => {
    const result = await web.json<{
      ok: boolean;
      request: { id: string; kind: string; from: string; to: string };
      answer: { id: string; kind: string; from: string; to: string };
      payload: { content: { type: string; text: string }[] };
    }>('/api/call', { kind: KIND, payload: { path: sandbox.path('hello.txt') } });
    expect(result.ok).toBe(true);
    expect(result.payload.content[0]!.text).toBe(TEXT);
    const status = await web.json<{ adapterKey: string; consoleKey: string }>('/api/status');
    expect(result.request).toMatchObject({ kind: KIND, from: status.consoleKey, to: status.adapterKey });
    expect(result.answer).toMatchObject({
      kind: `${KIND}.result`,
      from: status.adapterKey,
      to: status.consoleKey,
    });
    // The live stream delivered both, the answer joined to its request with a latency.
    const answer = await stream.waitFor((e) => e.id === result.answer.id);
    expect(answer).toMatchObject({
      type: 'event',
      kind: `${KIND}.result`,
      verdict: 'stored',
      replyTo: result.request.id,
    });
    expect(answer.latencyMs).toBeTypeOf('number');
    expect(await stream.waitFor((e) => e.id === result.request.id)).toMatchObject({
      kind: KIND,
      verdict: 'stored',
    });
    // And the event log on stderr shows the same call (the console adds to it, replaces nothing).
    await dev.waitForStderr(new RegExp(`${KIND.replaceAll('.', '\\.')}\\.result .* OK`));
  });

  it("a refused call shows the adapter's reason, in the answer and in the live stream", async () => {
    const result = await web.json<{
      ok: boolean;
      error: { code: string; message: string };
      answer: { id: string; kind: string };
    }>('/api/call', { kind: KIND, payload: { path: 42 } });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('SCHEMA_VIOLATION');
    expect(result.error.message).toMatch(/path/);
    expect(result.answer.kind).toBe('xp.error');
    const row = await stream.waitFor((e) => e.id === result.answer.id);
    expect(row).toMatchObject({
      kind: 'xp.error',
      refusal: { code: 'SCHEMA_VIOLATION', message: result.error.message },
    });
  });

  it('a relay refusal (an event tampered after signing) appears in the stream with its reason, sender and kind', async () => {
    const identity = generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher });
    const status = await web.json<{ relayUrl: string; adapterKey: string }>('/api/status');
    const signed = signEvent(
      createEventTemplate({ kind: KIND, content: 'sealed', tags: [['p', status.adapterKey]] }),
      identity.ed25519.secretKey,
      nodeSignatures,
    );
    const pool = await RelayPool.open({ urls: [status.relayUrl] });
    try {
      await expect(pool.publish({ ...signed, content: 'tampered' })).rejects.toThrow(/invalid/);
    } finally {
      await pool.close();
    }
    const row = await stream.waitFor((e) => e.type === 'refused');
    // The reason the sender was told, who sent it and what: not just a count.
    expect(row).toMatchObject({
      count: 1,
      reason: expect.stringMatching(/^invalid: event\.id: expected [0-9a-f]{64} \(the recomputed id\)/),
      kind: KIND,
      from: identity.keys.ed25519,
    });
  });

  it('refuses a malformed call request with the reason (400, 415)', async () => {
    const csrf = { [CSRF_HEADER]: (await web.session()).csrf };
    const noKind = await web.request('/api/call', {
      method: 'POST',
      headers: { ...web.auth, ...csrf, 'content-type': 'application/json' },
      body: '{"payload":{}}',
    });
    expect(noKind.status).toBe(400);
    expect(JSON.parse(noKind.body).error).toBe('kind: expected a string, got undefined');
    const form = await web.request('/api/call', {
      method: 'POST',
      headers: { ...web.auth, ...csrf, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'kind=x',
    });
    expect(form.status).toBe(415);
  });

  it('a taken --console-port stops the devserver with exit 1 and names the flag', async () => {
    const { code, stderr } = await sandbox.run([
      '--mcp-command',
      _quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir]),
      '--relay-port',
      '0',
      '--console-port',
      String(web.port),
    ]);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      `cannot start the web console: 127.0.0.1:${web.port} is already in use; choose another with --console-port`,
    );
  }, 60_000);

  it('serves the running configuration, redacted, with no reload yet', async () => {
    const view = await web.json<{
      origin: string;
      generated?: string;
      config: { file?: string; mcpSources: { namespace: string }[] };
      lastReload?: unknown;
    }>('/api/config');
    expect(view.origin).toBe('--mcp-command');
    // No file: the view says so rather than naming a path that does not exist.
    expect(view.generated).toBe('generated by the devserver from --mcp-command, no file on disk');
    expect(view.config.file).toBeUndefined();
    expect(view.config.mcpSources[0]!.namespace).toBe('com.demo.fs');
    expect(view.lastReload).toBeUndefined();
  });
});
