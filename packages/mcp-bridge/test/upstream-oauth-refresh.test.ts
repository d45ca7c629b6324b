// The adapter's authorization code grants after `login` (docs/security.md, "OAuth to upstream
// servers"), against the real strict authorization server and protected MCP server of
// fixtures/oauth-protected-server.mjs (a child on loopback): a token about to expire is refreshed
// before the call, with no 401 on the way; calls that all find the token expired share one
// refresh (the server rotates refresh tokens, so a second refresh with the old one would be
// refused); a revoked refresh token and a source never logged in fail with an error that names
// the source and says to run `xprotocol-adapter login`, never the bearer token's `auth.token_env`.
import { AddressPolicy } from '@xprotocol/relay-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BridgeError,
  loginToUpstream,
  type StoredGrant,
  UpstreamOAuth,
  UpstreamSession,
  type UpstreamTokenStore,
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

/** A store in memory, as the state database would hold it. */
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

/**
 * `login` with the fixture's public client (or, `register`, a client it registers); the test
 * follows the printed URL as a browser.
 */
async function logIn(f: OAuthFixture, store: UpstreamTokenStore, register = false): Promise<void> {
  let printed = '';
  const done = loginToUpstream({
    rules: rules(f),
    ...(!register && { client: { clientId: 'cli-client', authMethod: 'none' as const } }),
    store,
    print: (text) => (printed += text),
    timeoutMs: 30_000,
  });
  for (let i = 0; i < 200 && !/\nhttp\S+/.test(printed); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  const url = /\n(http\S+)/.exec(printed)?.[1] ?? '';
  const approved = await fetch(url, { redirect: 'manual' });
  await fetch(approved.headers.get('location') ?? '');
  await done;
}

/** A session of the authorization code grant in `store`, with a clock the test can move. */
function codeSession(f: OAuthFixture, store: UpstreamTokenStore, clock = { now: Date.now() }) {
  const oauth = new UpstreamOAuth({
    ...rules(f),
    grant: 'authorization_code',
    client: { clientId: 'cli-client', authMethod: 'none' },
    store,
    now: () => clock.now,
  });
  const session = new UpstreamSession({
    name: 'protected',
    transport: { type: 'streamable_http', url: f.mcp, oauth },
    logger: recordingLogger(),
    minReconnectMs: 50,
  });
  sessions.push(session);
  return session;
}

async function fixture(): Promise<OAuthFixture> {
  const started = await startOAuthFixture();
  fixtures.push(started);
  return started;
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

describe('authorization code grants, refreshed by the adapter', () => {
  it('refreshes a token about to expire before the call, with no 401 on the way', async () => {
    const f = await fixture();
    const store = memoryStore();
    await logIn(f, store);
    const clock = { now: Date.now() };
    const upstream = codeSession(f, store, clock);
    expect(text(await upstream.callTool('echo', { text: 'first' }, { timeoutMs: 10_000 }))).toBe('first');
    // 59 minutes on: the hour-long token has less than the minute of margin left. The server
    // still accepts it, so only a refresh before the call can put a refresh_token in its log.
    clock.now += 59 * 60_000;
    expect(text(await upstream.callTool('echo', { text: 'later' }, { timeoutMs: 10_000 }))).toBe('later');
    expect((await f.log()).map((entry) => entry.grant)).toEqual(['authorization_code', 'refresh_token']);
    const stored = store.grants.get('protected');
    expect(await f.refreshTokens()).toEqual([stored?.tokens.refreshToken]);
  });

  it('calls that all find the token expired share one refresh, and all succeed', async () => {
    const f = await fixture();
    const store = memoryStore();
    await logIn(f, store);
    const upstream = codeSession(f, store);
    expect(text(await upstream.callTool('echo', { text: 'first' }, { timeoutMs: 10_000 }))).toBe('first');
    await f.expireAccessTokens();
    const words = ['a', 'b', 'c', 'd', 'e'];
    const answers = await Promise.all(
      words.map((word) => upstream.callTool('echo', { text: word }, { timeoutMs: 10_000 })),
    );
    expect(answers.map(text)).toEqual(words);
    expect((await f.log()).map((entry) => entry.grant)).toEqual(['authorization_code', 'refresh_token']);
  });

  it('a revoked refresh token fails the call with an error naming the source and login', async () => {
    const f = await fixture();
    const store = memoryStore();
    await logIn(f, store);
    const upstream = codeSession(f, store);
    expect(text(await upstream.callTool('echo', { text: 'first' }, { timeoutMs: 10_000 }))).toBe('first');
    for (const token of await f.refreshTokens()) await f.revoke(token);
    await f.expireAccessTokens();
    const error = await refusal(upstream.callTool('echo', { text: 'after' }, { timeoutMs: 10_000 }));
    expect(error.message).toMatch(
      /MCP source "protected": the refresh token was refused \(invalid_grant.*\); run `xprotocol-adapter login protected` to authorize again/,
    );
  });

  it('without a configured client, login registers one as a native application and calls with it', async () => {
    const f = await fixture();
    const store = memoryStore();
    await logIn(f, store, true);
    const registered = store.grants.get('protected')?.client.clientId ?? '';
    expect(registered).toMatch(/^dcr-/);
    const oauth = new UpstreamOAuth({ ...rules(f), grant: 'authorization_code', store });
    const session = new UpstreamSession({
      name: 'protected',
      transport: { type: 'streamable_http', url: f.mcp, oauth },
      logger: recordingLogger(),
    });
    sessions.push(session);
    expect(text(await session.callTool('echo', { text: 'dcr' }, { timeoutMs: 10_000 }))).toBe('dcr');
    expect((await f.log()).map((entry) => entry.client)).toEqual([registered]);
  });

  it('a source never logged in says to run login, not to check auth.token_env', async () => {
    const f = await fixture();
    const error = await refusal(codeSession(f, memoryStore()).listTools());
    expect(error.message).toMatch(/run `xprotocol-adapter login protected`/);
    expect(error.message).not.toMatch(/token_env/);
  });
});
