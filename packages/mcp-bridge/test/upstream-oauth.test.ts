// The adapter as an OAuth 2.1 client of an HTTP upstream (docs/security.md, "OAuth to upstream
// servers"), against a real strict authorization server and a real MCP server that accepts only
// its tokens (fixtures/oauth-protected-server.mjs, a child process on loopback): discovery from
// the 401, client credentials with `resource`, a token expiry passed without a failed call, and
// each hostile authorization server refused with a clear error before anything is sent to it.
import { AddressPolicy } from '@xprotocol/relay-client';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, UpstreamOAuth, UpstreamSession } from '../src/index.js';
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

async function fixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const started = await startOAuthFixture(env);
  fixtures.push(started);
  return started;
}

const loopbackOnly = () => new AddressPolicy({ allow: ['127.0.0.1/32'] });

function machineSession(
  f: OAuthFixture,
  logger = recordingLogger(),
  policy = loopbackOnly(),
): UpstreamSession {
  const oauth = new UpstreamOAuth({
    source: 'protected',
    serverUrl: f.mcp,
    grant: 'client_credentials',
    client: { clientId: 'm2m-client', clientSecret: 'm2m-secret' },
    allowInsecureLoopback: true,
    addressPolicy: policy,
  });
  const session = new UpstreamSession({
    name: 'protected',
    transport: { type: 'streamable_http', url: f.mcp, oauth },
    logger,
    minReconnectMs: 50,
  });
  sessions.push(session);
  return session;
}

function text(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] as { text: string }).text;
}

async function refusal(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

describe('client credentials against a real authorization server', () => {
  it('discovers from the 401, asks with resource, calls, and passes an expiry with no failed call', async () => {
    const f = await fixture();
    const logger = recordingLogger();
    const upstream = machineSession(f, logger);
    expect((await upstream.listTools()).map((t) => t.name)).toEqual(['echo']);
    expect(text(await upstream.callTool('echo', { text: 'first' }, { timeoutMs: 10_000 }))).toBe('first');
    await f.expireAccessTokens();
    expect(text(await upstream.callTool('echo', { text: 'after expiry' }, { timeoutMs: 10_000 }))).toBe(
      'after expiry',
    );
    const log = await f.log();
    expect(log.map((entry) => entry.grant)).toEqual(['client_credentials', 'client_credentials']);
    for (const entry of log) expect(entry.resource).toBe(f.mcp);
    expect(JSON.stringify(logger.entries)).not.toMatch(/m2m-secret/);
  });
});

describe('the token endpoint authentication the server lists', () => {
  it('a confidential client sends its secret in the form when the server lists only client_secret_post', async () => {
    const f = await fixture({ XP_OAUTH_POST_ONLY: '1' });
    const upstream = machineSession(f);
    expect((await upstream.listTools()).map((t) => t.name)).toEqual(['echo']);
    expect((await f.log()).map((entry) => entry.grant)).toEqual(['client_credentials']);
  });
});

describe('hostile authorization servers are refused with a clear error', () => {
  const cases = [
    [
      'javascript-endpoint',
      /token_endpoint .*"javascript:alert\(1\)" uses the javascript: scheme \(expected https\)/,
    ],
    ['file-endpoint', /token_endpoint .*"file:\/\/\/etc\/passwd" uses the file: scheme \(expected https\)/],
    ['shell-endpoint', /token_endpoint .* holds a control character, a space or a shell metacharacter/],
    ['issuer-mismatch', /says issuer "https:\/\/evil\.example", expected "http:\/\/127\.0\.0\.1:\d+"/],
    [
      'wrong-audience',
      /the access token is for "https:\/\/other\.example\/mcp", not for http:\/\/127\.0\.0\.1:\d+\/mcp/,
    ],
    ['private-endpoint', /"https:\/\/10\.0\.0\.1\/token" is refused by the address policy: 10\.0\.0\.1 is/],
    [
      'redirect-private',
      /answered a redirect \(HTTP 302\) to "http:\/\/169\.254\.169\.254\/latest\/meta-data\/"; redirects are not followed/,
    ],
  ] as const;
  for (const [mode, message] of cases) {
    it(mode, async () => {
      const f = await fixture({ XP_OAUTH_HOSTILE: mode });
      const error = await refusal(machineSession(f).listTools());
      expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(error.message).toMatch(/MCP source "protected": OAuth/);
      expect(error.message).toMatch(message);
      // Nothing reached a refused token endpoint; a wrong-audience token was asked for once, not used.
      expect((await f.log()).length).toBe(mode === 'wrong-audience' ? 1 : 0);
    });
  }

  it('a loopback authorization server is refused when the address policy does not allow loopback', async () => {
    const f = await fixture();
    const error = await refusal(machineSession(f, recordingLogger(), new AddressPolicy()).listTools());
    expect(error.message).toMatch(
      /the authorization server "http:\/\/127\.0\.0\.1:\d+" is refused by the address policy: 127\.0\.0\.1 is/,
    );
  });
});
