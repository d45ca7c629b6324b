// A scope step-up in the middle of a call (docs/security.md, "OAuth to upstream servers"),
// against the real authorization server and protected MCP server of
// fixtures/oauth-protected-server.mjs with XP_OAUTH_STEP_UP: its `tools/call` needs a scope the
// first grant did not ask for and answers 403 `insufficient_scope` naming it. Client credentials
// ask for the union of scopes at once; the authorization code grant asks the person behind the
// call through the call's asker (the face client's URL elicitation), whose "browser" here follows
// the URL to the adapter's loopback listener; without one that can open a URL, the call fails
// naming the source, the scope and `login`. A server that refuses even the wider scope gets one
// new grant, never a loop.
import { AddressPolicy } from '@xprotocol/relay-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AuthorizationAsker,
  AuthorizationNeededError,
  BridgeError,
  loginToUpstream,
  type StoredGrant,
  UpstreamOAuth,
  UpstreamSession,
  type UpstreamTokenStore,
  withAuthorizationAsker,
} from '../src/index.js';
import { recordingLogger } from './support/http-servers.js';
import { type OAuthFixture, startOAuthFixture } from './support/oauth-server.js';

let fixtures: OAuthFixture[] = [];
let sessions: UpstreamSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(fixtures.map((f) => f.kill()));
  fixtures = [];
  sessions = [];
});

const rules = (f: OAuthFixture) => ({
  source: 'protected',
  serverUrl: f.mcp,
  allowInsecureLoopback: true,
  addressPolicy: new AddressPolicy({ allow: ['127.0.0.1/32'] }),
});

function memoryStore(): UpstreamTokenStore & { grants: Map<string, StoredGrant> } {
  const grants = new Map<string, StoredGrant>();
  return {
    grants,
    load: async (source) => grants.get(source),
    save: async (source, grant) => {
      grants.set(source, grant);
    },
  };
}

/** A browser that approves: follows the authorization URL's redirect to the adapter's listener. */
async function browse(url: string): Promise<void> {
  const approved = await fetch(url, { redirect: 'manual' });
  await fetch(approved.headers.get('location') ?? '');
}

async function logIn(f: OAuthFixture, store: UpstreamTokenStore): Promise<void> {
  let printed = '';
  const done = loginToUpstream({
    rules: rules(f),
    client: { clientId: 'cli-client', authMethod: 'none' },
    store,
    print: (text) => (printed += text),
    timeoutMs: 30_000,
  });
  for (let i = 0; i < 200 && !/\nhttp\S+/.test(printed); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  await browse(/\n(http\S+)/.exec(printed)?.[1] ?? '');
  await done;
}

function session(f: OAuthFixture, oauth: UpstreamOAuth): UpstreamSession {
  const upstream = new UpstreamSession({
    name: 'protected',
    transport: { type: 'streamable_http', url: f.mcp, oauth },
    logger: recordingLogger(),
    minReconnectMs: 50,
  });
  sessions.push(upstream);
  return upstream;
}

async function fixture(env: Record<string, string>): Promise<OAuthFixture> {
  const started = await startOAuthFixture(env);
  fixtures.push(started);
  return started;
}

/** An asker that records each URL and answers `outcome` (browsing the URL when it accepts). */
function asker(outcome: 'accept' | 'decline' = 'accept', canShowUrl = true) {
  const urls: string[] = [];
  const it: AuthorizationAsker = {
    canShowUrl,
    who: 'the test client',
    ask: async ({ url }) => {
      urls.push(url);
      if (outcome === 'accept') void browse(url);
      return outcome;
    },
  };
  return { it, urls };
}

const text = (result: unknown) =>
  ((result as { content: { text: string }[] }).content[0] as { text: string }).text;

async function refusal(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

const call = (upstream: UpstreamSession, word: string) =>
  upstream.callTool('echo', { text: word }, { timeoutMs: 20_000 });

describe('scope step-up on 403 insufficient_scope', () => {
  it('client credentials: a new token for the union of scopes, then the call goes through', async () => {
    const f = await fixture({ XP_OAUTH_STEP_UP: 'mcp:write' });
    const oauth = new UpstreamOAuth({
      ...rules(f),
      grant: 'client_credentials',
      client: { clientId: 'm2m-client', clientSecret: 'm2m-secret' },
    });
    expect(text(await call(session(f, oauth), 'wider'))).toBe('wider');
    expect((await f.log()).map((entry) => [entry.grant, entry.scope])).toEqual([
      ['client_credentials', 'mcp:tools'],
      ['client_credentials', 'mcp:tools mcp:write'],
    ]);
  });

  it('authorization code: the call asks its client to open the URL, then goes through once', async () => {
    const f = await fixture({ XP_OAUTH_STEP_UP: 'mcp:write' });
    const store = memoryStore();
    await logIn(f, store);
    const upstream = session(f, new UpstreamOAuth({ ...rules(f), grant: 'authorization_code', store }));
    const ask = asker();
    const result = await withAuthorizationAsker(ask.it, () => call(upstream, 'stepped'));
    expect(text(result)).toBe('stepped');
    expect(ask.urls).toHaveLength(1);
    expect(new URL(ask.urls[0] ?? '').searchParams.get('scope')).toBe('mcp:tools mcp:write');
    expect((await f.log()).map((entry) => entry.grant)).toEqual(['authorization_code', 'authorization_code']);
    // The wider grant is stored: the next call needs no one.
    expect(store.grants.get('protected')?.scope).toBe('mcp:tools mcp:write');
    expect(text(await call(upstream, 'again'))).toBe('again');
  });

  it('without a client that can open a URL, the call fails naming the source, the scope and login', async () => {
    const f = await fixture({ XP_OAUTH_STEP_UP: 'mcp:write' });
    const store = memoryStore();
    await logIn(f, store);
    const upstream = session(f, new UpstreamOAuth({ ...rules(f), grant: 'authorization_code', store }));
    const alone = await refusal(call(upstream, 'alone'));
    expect(alone).toBeInstanceOf(AuthorizationNeededError);
    expect(alone.message).toMatch(
      /MCP source "protected": the call needs the scope "mcp:tools mcp:write", and no MCP client is waiting on this request.*run `xprotocol-adapter login protected` with auth.scope "mcp:tools mcp:write"/,
    );
    const blind = asker('accept', false);
    const refused = await refusal(withAuthorizationAsker(blind.it, () => call(upstream, 'blind')));
    expect(refused.message).toMatch(
      /the test client cannot open a URL \(it did not declare the elicitation.url capability\)/,
    );
    expect(blind.urls).toEqual([]);
    expect((await f.log()).map((entry) => entry.grant)).toEqual(['authorization_code']);
  });

  it('a declined authorization fails the call and asks nothing of the token endpoint', async () => {
    const f = await fixture({ XP_OAUTH_STEP_UP: 'mcp:write' });
    const store = memoryStore();
    await logIn(f, store);
    const upstream = session(f, new UpstreamOAuth({ ...rules(f), grant: 'authorization_code', store }));
    const no = asker('decline');
    const error = await refusal(withAuthorizationAsker(no.it, () => call(upstream, 'no')));
    expect(error.message).toMatch(/MCP source "protected": authorization: the authorization was declined/);
    expect((await f.log()).map((entry) => entry.grant)).toEqual(['authorization_code']);
  });

  it('a server that refuses even the wider scope gets one new grant, not a loop', async () => {
    const f = await fixture({ XP_OAUTH_STEP_UP: 'mcp:write', XP_OAUTH_STEP_UP_NEVER: '1' });
    const oauth = new UpstreamOAuth({
      ...rules(f),
      grant: 'client_credentials',
      client: { clientId: 'm2m-client', clientSecret: 'm2m-secret' },
    });
    const upstream = session(f, oauth);
    // One new grant for the wider scope, one more try, then the server's refusal as it is.
    const first = await refusal(call(upstream, 'first'));
    expect(first.message).toBe(
      'protected: tools/call echo failed: the server refused the token\'s scope (it needs "mcp:write")',
    );
    // The grant now has the scope asked for: the next 403 adds nothing, and nothing is asked.
    const second = await refusal(call(upstream, 'second'));
    expect(second.message).toMatch(
      /insufficient scope \(it asks for "mcp:write"\), which the grant already has or asked for; not authorizing again/,
    );
    expect((await f.log()).map((entry) => entry.scope)).toEqual(['mcp:tools', 'mcp:tools mcp:write']);
  });
});

describe('a new authorization server in the protected-resource metadata', () => {
  it('registers there and re-authorizes through the call, never showing it the old client or tokens', async () => {
    const f = await fixture({ XP_OAUTH_MIGRATE: '1' });
    const store = memoryStore();
    await logIn(f, store);
    const upstream = session(f, new UpstreamOAuth({ ...rules(f), grant: 'authorization_code', store }));
    // The first authorized request passes, and the resource moves to as2 behind it.
    expect(text(await call(upstream, 'before'))).toBe('before');
    const ask = asker();
    expect(text(await withAuthorizationAsker(ask.it, () => call(upstream, 'after')))).toBe('after');
    expect(ask.urls).toHaveLength(1);
    expect(ask.urls[0]).toMatch(new RegExp(`^${f.as}/as2/authorize\\?`));
    const log = await f.log();
    const atAs2 = log.filter((entry) => entry.as === 'as2');
    expect(atAs2.map((entry) => entry.grant)).toEqual(['register', 'authorize', 'authorization_code']);
    expect(atAs2.slice(1).every((entry) => /^dcr-as2-/.test(entry.client ?? ''))).toBe(true);
    // The old grant is not refreshed at as1 either: it is no longer the resource's server.
    expect(log.map((entry) => entry.grant)).not.toContain('refresh_token');
    const stored = store.grants.get('protected');
    expect(stored?.issuer).toBe(`${f.as}/as2`);
    expect(text(await call(upstream, 'later'))).toBe('later');
  });

  it('with no one to ask, the call fails naming both servers and login', async () => {
    const f = await fixture({ XP_OAUTH_MIGRATE: '1' });
    const store = memoryStore();
    await logIn(f, store);
    const upstream = session(f, new UpstreamOAuth({ ...rules(f), grant: 'authorization_code', store }));
    expect(text(await call(upstream, 'before'))).toBe('before');
    const error = await refusal(call(upstream, 'after'));
    expect(error.message).toContain(
      `MCP source "protected": its authorization server changed from ${f.as} to ${f.as}/as2, and no MCP client is waiting on this request to open the authorization URL; run \`xprotocol-adapter login protected\``,
    );
    expect((await f.log()).filter((entry) => entry.as === 'as2')).toEqual([]);
  });

  it('a new server with a javascript: authorization endpoint is refused before anyone is asked', async () => {
    const f = await fixture({ XP_OAUTH_MIGRATE: '1', XP_OAUTH_AS2_HOSTILE: '1' });
    const store = memoryStore();
    await logIn(f, store);
    const upstream = session(f, new UpstreamOAuth({ ...rules(f), grant: 'authorization_code', store }));
    expect(text(await call(upstream, 'before'))).toBe('before');
    const ask = asker();
    const error = await refusal(withAuthorizationAsker(ask.it, () => call(upstream, 'after')));
    expect(error.message).toMatch(
      /MCP source "protected": OAuth refused: the authorization_endpoint of http:\/\/127\.0\.0\.1:\d+\/as2 "javascript:alert\(1\)" uses the javascript: scheme \(expected https\)/,
    );
    expect(ask.urls).toEqual([]);
    expect((await f.log()).filter((entry) => entry.as === 'as2')).toEqual([]);
  });
});

describe('a Client ID Metadata Document URL as the client id', () => {
  const DOCUMENT = 'https://adapter.example.com/oauth/client.json';

  async function logInWith(f: OAuthFixture, store: UpstreamTokenStore): Promise<void> {
    let printed = '';
    const done = loginToUpstream({
      rules: rules(f),
      clientMetadataUrl: DOCUMENT,
      store,
      print: (text) => (printed += text),
      timeoutMs: 30_000,
    });
    for (let i = 0; i < 200 && !/\nhttp\S+/.test(printed); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    await browse(/\n(http\S+)/.exec(printed)?.[1] ?? '');
    await done;
  }

  it('is the client id where the server accepts one: no registration, a public client', async () => {
    const f = await fixture({ XP_OAUTH_CIMD: '1' });
    const store = memoryStore();
    await logInWith(f, store);
    expect(store.grants.get('protected')?.client).toEqual({ clientId: DOCUMENT, authMethod: 'none' });
    expect((await f.log()).map((entry) => [entry.grant, entry.client])).toEqual([
      ['authorization_code', DOCUMENT],
    ]);
  });

  it('elsewhere the adapter registers a client as without it', async () => {
    const f = await fixture({});
    const store = memoryStore();
    await logInWith(f, store);
    expect(store.grants.get('protected')?.client.clientId).toMatch(/^dcr-/);
  });
});
