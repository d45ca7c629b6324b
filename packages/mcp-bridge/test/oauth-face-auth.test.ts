// The face's OAuth resource server (docs/security.md, "OAuth on the MCP face") against real keys:
// an ES256 key pair, its JWKS and RFC 8414 metadata served on loopback, tokens signed with jose.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthFaceAuth } from '../src/auth/oauth-face-auth.js';
import { staticBearerAuth } from '../src/auth/static-bearer-auth.js';

const RESOURCE = 'http://127.0.0.1:8767/mcp';
let issuer = '';
let server: Server;
let sign: (
  claims: Record<string, unknown>,
  options?: { key?: 'other'; expiresIn?: number; audience?: string; issuer?: string },
) => Promise<string>;

beforeAll(async () => {
  const keys = await generateKeyPair('ES256');
  const other = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' };
  server = createServer((request, response) => {
    if (request.url === '/big-jwks') {
      // A JWKS over the face's cap (256 KiB): one real key, then padding.
      const big = JSON.stringify({ keys: [jwk], padding: ' '.repeat(300 * 1024) });
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(big);
    }
    const body =
      request.url === '/.well-known/oauth-authorization-server'
        ? { issuer, jwks_uri: `${issuer}/jwks` }
        : request.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    response
      .writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
      .end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sign = async (claims, options = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? RESOURCE)
      .setIssuedAt(now - 700)
      .setExpirationTime(now + (options.expiresIn ?? 300))
      .sign(options.key === 'other' ? other.privateKey : keys.privateKey);
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function auth(extra: Partial<ConstructorParameters<typeof OAuthFaceAuth>[0]> = {}) {
  return new OAuthFaceAuth({ issuer, resource: RESOURCE, requiredScopes: ['mcp'], ...extra });
}

describe('the face as an OAuth resource server', () => {
  it('publishes RFC 9728 metadata at the well-known path of the resource', () => {
    expect(auth().metadata).toEqual({
      path: '/.well-known/oauth-protected-resource/mcp',
      document: {
        resource: RESOURCE,
        authorization_servers: [issuer],
        scopes_supported: ['mcp'],
        bearer_methods_supported: ['header'],
      },
    });
  });

  it('without a token: 401 naming the resource metadata', async () => {
    const verdict = await auth().authenticate(undefined);
    expect(verdict).toEqual({
      ok: false,
      refusal: {
        status: 401,
        wwwAuthenticate:
          'Bearer scope="mcp", resource_metadata="http://127.0.0.1:8767/.well-known/oauth-protected-resource/mcp"',
        message: 'expected an Authorization: Bearer <token> header, got none',
      },
    });
  });

  it('a valid token: the principal is issuer + subject, its capability scopes and its grants', async () => {
    const token = await sign({ sub: 'alice', scope: 'mcp com.test.conf.read' });
    const verdict = await auth({
      grants: [{ subject: 'alice', capabilities: ['com.test.other.*'] }],
    }).authenticate(`Bearer ${token}`);
    expect(verdict).toEqual({
      ok: true,
      principal: { id: `${issuer} alice`, capabilities: ['com.test.conf.read', 'com.test.other.*'] },
    });
  });

  it.each([
    ['expired', { expiresIn: -120 }, 'the token has expired'],
    ['for another resource', { audience: 'http://elsewhere/mcp' }, "the token's claims are not accepted"],
    ['from another issuer', { issuer: 'http://evil.example' }, "the token's claims are not accepted"],
    ['signed by another key', { key: 'other' as const }, 'the token signature does not verify'],
  ])('a token %s: 401 invalid_token', async (_what, options, reason) => {
    const token = await sign({ sub: 'alice', scope: 'mcp' }, options);
    const verdict = await auth().authenticate(`Bearer ${token}`);
    expect(verdict.ok).toBe(false);
    const refusal = verdict.ok ? undefined : verdict.refusal;
    expect(refusal?.status).toBe(401);
    expect(refusal?.message).toContain(reason);
    expect(refusal?.wwwAuthenticate).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/,
    );
  });

  it.each([
    ['an array', ['alice']],
    ['a number', 123],
    ['an empty string', ''],
    ['an object', { name: 'alice' }],
  ])('a signed token whose sub is %s: 401 invalid_token, no principal', async (kind, sub) => {
    const verdict = await auth({ grants: [{ subject: 'alice', capabilities: ['*'] }] }).authenticate(
      `Bearer ${await sign({ sub, scope: 'mcp' })}`,
    );
    expect(verdict.ok ? undefined : verdict.refusal).toMatchObject({
      status: 401,
      message: `the token's subject (sub) must be a non-empty string; got ${kind}`,
      wwwAuthenticate: expect.stringContaining('error="invalid_token"') as string,
    });
  });

  it('a JWKS over 256 KiB is not read past the cap: the token is refused 401 invalid_token', async () => {
    const face = auth({ jwksUrl: `${issuer}/big-jwks` });
    const verdict = await face.authenticate(`Bearer ${await sign({ sub: 'alice', scope: 'mcp' })}`);
    expect(verdict.ok ? undefined : verdict.refusal).toMatchObject({
      status: 401,
      message: expect.stringMatching(
        /^the token could not be checked: the JWKS at http:\/\/127\.0\.0\.1:\d+\/big-jwks (declares \d+ bytes; at most 262144 are read|is over 262144 bytes; stopped reading at \d+)$/,
      ) as string,
    });
    // The next token is refused the same way (the JWKS is read again, to the cap), not hung or crashed.
    const again = await face.authenticate(`Bearer ${await sign({ sub: 'bob', scope: 'mcp' })}`);
    expect(again.ok ? undefined : again.refusal.status).toBe(401);
  });

  it('a token without a required scope: 403 insufficient_scope naming it', async () => {
    const verdict = await auth().authenticate(
      `Bearer ${await sign({ sub: 'bob', scope: 'com.test.conf.read' })}`,
    );
    expect(verdict.ok ? undefined : verdict.refusal).toMatchObject({
      status: 403,
      message: 'the token lacks the scope mcp',
      wwwAuthenticate: expect.stringContaining('error="insufficient_scope"') as string,
    });
  });

  it('a tool the principal has no scope or grant for: 403 insufficient_scope naming its capability', async () => {
    const face = auth();
    const verdict = await face.authenticate(
      `Bearer ${await sign({ sub: 'carol', scope: 'mcp com.test.conf.read' })}`,
    );
    if (!verdict.ok) throw new Error(verdict.refusal.message);
    expect(face.authorize(verdict.principal, 'com.test.conf.read')).toBeUndefined();
    const refused = face.authorize(verdict.principal, 'com.test.conf.write');
    expect(refused).toMatchObject({ status: 403 });
    expect(refused?.wwwAuthenticate).toContain('scope="com.test.conf.write"');
  });

  it('a refusal naming what a client asked for keeps its WWW-Authenticate a valid header', async () => {
    const face = auth();
    const verdict = await face.authenticate(`Bearer ${await sign({ sub: 'carol', scope: 'mcp' })}`);
    if (!verdict.ok) throw new Error(verdict.refusal.message);
    // A prompt name is the client's to choose: quotes, a backslash, a line break, non-Latin-1.
    const refused = face.authorize(
      verdict.principal,
      'com.test.conf.mcp.prompts.get',
      'prompts/get of "a\\b\n✓"',
    );
    expect(refused?.message).toContain(
      'prompts/get of "a\\b\n✓" needs the scope com.test.conf.mcp.prompts.get',
    );
    expect(refused?.wwwAuthenticate).toMatch(/^[\x20-\x7e]+$/);
    expect(refused?.wwwAuthenticate).toContain("error_description=\"prompts/get of 'a'b??'");
  });

  it('a token that is not a JWT, or far too long, is refused without trouble', async () => {
    for (const header of ['Bearer not-a-jwt', `Bearer ${'a'.repeat(20_000)}`, 'Basic abc']) {
      const verdict = await auth().authenticate(header);
      expect(verdict.ok).toBe(false);
    }
  });

  it('the static token mode admits exactly its token, as one principal with every tool', async () => {
    const face = staticBearerAuth('s3cret');
    expect(await face.authenticate('Bearer s3cret')).toEqual({
      ok: true,
      // Shared: every client holding the token is this principal (docs/security.md, "Fair shares between principals").
      principal: { id: 'static', capabilities: ['*'], shared: true },
    });
    const wrong = await face.authenticate('Bearer guess');
    expect(wrong.ok ? undefined : wrong.refusal).toEqual({
      status: 401,
      wwwAuthenticate: 'Bearer realm="mcp"',
      message: 'the bearer token is not valid',
    });
  });
});
