// Attacks on the HTTP face's OAuth resource server (docs/security.md, "OAuth on the MCP face"),
// reproduced with real processes on loopback: a hostile authorization server
// (test/fixtures/servers/authorization-server.mjs `--flood`) whose JWKS, or whose RFC 8414
// metadata, is an endless body. One unauthenticated request — a token naming a key the face has
// never seen — makes the face fetch that document; the built adapter bin must read at most its
// cap, refuse that request with 401 invalid_token, stay alive with its memory bounded, and serve
// the next requests once the authorization server answers normally again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, gatewayConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const AUTHORIZATION_SERVER = join(import.meta.dirname, 'fixtures', 'servers', 'authorization-server.mjs');
/** How much the adapter's peak resident memory may grow while it is flooded (a resource bound). */
const RSS_GROWTH_BOUND_KB = 100 * 1024;
const procs = new Processes();
let relayUrl = '';
let accounts = '';

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  await procs.keygen('a.key');
  accounts = procs.file(
    'clients.json',
    JSON.stringify([{ id: 'reader', secret: 'r-secret', subject: 'alice', scopes: ['mcp'] }]),
  );
}, 120_000);

afterAll(() => procs.close());

/** A hostile authorization server flooding `what`, and an adapter whose face trusts it. */
async function floodedFace(what: 'jwks' | 'metadata') {
  const issuer = (await procs.node(AUTHORIZATION_SERVER, [accounts, '--flood', what])).firstLine;
  const port = await freePort();
  const face = `http://127.0.0.1:${port}/mcp`;
  const { child } = await procs.adapter(
    procs.file(
      `${what}.yml`,
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [
          {
            name: 'conformance',
            body: conformanceStdioBody(),
            namespace: 'com.test.conformance',
          },
        ],
        face: { port },
        serverExtra: `  oauth:
    issuer: ${issuer}
    resource: ${face}
    required_scopes: [mcp]`,
        stateDatabase: `./${what}-state.db`,
      }),
    ),
  );
  return { issuer, face, pid: child.pid!, child };
}

/** The adapter's resident memory now and at its peak, in kB (Linux /proc). */
function memory(pid: number): { rssKb: number; peakKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return { rssKb: kb('VmRSS'), peakKb: kb('VmHWM') };
}

/** An access token the attacker signed with a key of its own, naming a `kid` the face never saw. */
async function forgedToken(issuer: string, face: string): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  return new SignJWT({ scope: 'mcp *' })
    .setProtectedHeader({ alg: 'ES256', kid: `unseen-${crypto.randomUUID()}` })
    .setIssuer(issuer)
    .setSubject('mallory')
    .setAudience(face)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
}

async function initialize(face: string, bearer?: string) {
  const response = await fetch(face, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer && { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  return {
    status: response.status,
    wwwAuthenticate: response.headers.get('www-authenticate') ?? '',
    body: await response.text(),
  };
}

async function token(issuer: string, face: string): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'reader',
      client_secret: 'r-secret',
      resource: face,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe.each([
  {
    what: 'jwks' as const,
    refusal: (issuer: string) =>
      new RegExp(
        `the JWKS at ${issuer.replace(/\./g, '\\.')}/jwks is over 262144 bytes; stopped reading at \\d+`,
      ),
  },
  {
    what: 'metadata' as const,
    refusal: (issuer: string) =>
      new RegExp(
        `${issuer.replace(/\./g, '\\.')}/\\.well-known/oauth-authorization-server: the authorization server metadata is over 65536 bytes; stopped reading at \\d+`,
      ),
  },
])('an authorization server whose $what is an endless body', ({ what, refusal }) => {
  it('one request with an unseen kid is refused 401; the adapter lives, its memory bounded, and serves the next', async () => {
    const { issuer, face, pid, child } = await floodedFace(what);
    // Warm the face (first request, first refusal) before the baseline.
    expect((await initialize(face)).status).toBe(401);
    const before = memory(pid);

    const refused = await initialize(face, await forgedToken(issuer, face));
    expect(refused.status, refused.body).toBe(401);
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    const after = memory(pid);
    expect(after.peakKb - before.peakKb, `peak RSS ${before.peakKb} kB → ${after.peakKb} kB`).toBeLessThan(
      RSS_GROWTH_BOUND_KB,
    );
    expect(after.rssKb - before.rssKb).toBeLessThan(RSS_GROWTH_BOUND_KB);

    // The authorization server saw the reader hang up, long before its 4 GiB.
    const flood = async () =>
      (await (await fetch(`${issuer}/flood`)).json()) as { started: boolean; sent: number; closed: boolean };
    await expect.poll(async () => (await flood()).closed, { timeout: 60_000 }).toBe(true);
    const { started, sent } = await flood();
    expect(started).toBe(true);
    expect(sent).toBeLessThan(64 * 1024 ** 2);
    expect(refused.wwwAuthenticate).toContain('error="invalid_token"');
    expect(refused.body).toMatch(refusal(issuer));

    // The next requests: the authorization server answers normally now, and a real token works.
    expect((await initialize(face)).status).toBe(401);
    const accepted = await initialize(face, await token(issuer, face));
    expect(accepted.status, accepted.body).toBe(200);
    expect(accepted.body).toContain('"protocolVersion"');
  });
});
