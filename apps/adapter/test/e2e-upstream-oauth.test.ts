// The adapter as an OAuth 2.1 client of a remote MCP server, end to end with the real bins
// (docs/security.md, "OAuth to upstream servers"): mcp-bridge's strict authorization server and
// the MCP server that accepts only its tokens (fixtures/oauth-protected-server.mjs) run as a child
// on loopback; `xprotocol-adapter login` prints the authorization URL, the test follows it with
// fetch as the browser would, and the adapter's gateway face then calls through. An access token
// that expires on the server is refreshed with no failed call (the refresh token rotated); a
// revoked refresh token fails the call with an error that says to run login again. The tokens are
// stored sealed in the state database, whose file is readable by its owner only.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTER_BIN, CONFORMANCE_FIXTURE, freePort, Processes } from './support/processes.js';

const OAUTH_FIXTURE = join(dirname(CONFORMANCE_FIXTURE), 'oauth-protected-server.mjs');

const procs = new Processes();
let as = '';
let mcp = '';
let config = '';
let face = '';
const clients: Client[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('a.key');
  const fixture = await procs.node(OAUTH_FIXTURE, []);
  ({ as, mcp } = JSON.parse(fixture.firstLine) as { as: string; mcp: string });
  const port = await freePort();
  face = `http://127.0.0.1:${port}/mcp`;
  config = procs.file(
    'oauth.yml',
    `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: protected
    transport: streamable_http
    url: ${mcp}
    auth:
      type: oauth
      client_id: cli-client
      allow_insecure_loopback: true
    xprotocol_namespace: com.test.protected
access:
  grants: []
mcp_server:
  transport: streamable_http
  port: ${port}
  expose: [mcp_sources]
network:
  allow_private: [127.0.0.1/32]
state_database: ./oauth-state.db
logging:
  level: warn
  format: json
`,
  );
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined)
      process.kill(child.pid, 'SIGKILL');
  await procs.close();
});

/** Runs `login`, follows the URL it prints as a browser would, and resolves with its outcome. */
async function login(): Promise<{ code: number | null; stderr: string; url: string }> {
  const child = spawn(process.execPath, [ADAPTER_BIN, 'login', 'protected', '--config', config], {
    cwd: procs.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('http')) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`login exited ${code} before printing a URL: ${stderr}`)));
  });
  // The "browser": the authorization server approves at once and redirects to the adapter.
  const approved = await fetch(url, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const back = await fetch(approved.headers.get('location') ?? '');
  expect(back.status).toBe(200);
  return { code: await exited, stderr, url };
}

async function grantLog(): Promise<{ grant: string; resource: string | null }[]> {
  return (await (await fetch(`${as}/test/log`)).json()) as never;
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text;

describe('xprotocol-adapter login, then calls through the gateway face', () => {
  it('authorizes once, calls, refreshes past an expiry, and names login when the refresh token is revoked', async () => {
    const done = await login();
    expect(done.stderr).toMatch(
      /\nauthorized protected at http:\/\/127\.0\.0\.1:\d+ \(with a refresh token\); the tokens are stored in /,
    );
    expect(done.code).toBe(0);
    const authorizeUrl = new URL(done.url);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('resource')).toBe(mcp);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    // The tokens are at rest only sealed, in a file readable by its owner only.
    const refresh = (await (await fetch(`${as}/test/refresh-tokens`)).json()) as string[];
    expect(refresh).toHaveLength(1);
    for (const name of readdirSync(procs.dir).filter((f) => f.startsWith('oauth-state.db'))) {
      expect(statSync(join(procs.dir, name)).mode & 0o777, name).toBe(0o600);
      expect(readFileSync(join(procs.dir, name)).includes(refresh[0] ?? '-'), name).toBe(false);
    }

    await procs.adapter(config);
    const client = new Client({ name: 'oauth-e2e', version: '0.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(face)));
    clients.push(client);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const echo = tools.find((name) => name.endsWith('echo'));
    expect(echo, tools.join(', ')).toBeDefined();
    const call = (words: string) => client.callTool({ name: echo ?? '', arguments: { text: words } });
    expect(text(await call('first'))).toBe('first');

    await fetch(`${as}/test/expire`, { method: 'POST' });
    const afterExpiry = await call('after expiry');
    expect(afterExpiry.isError ?? false).toBe(false);
    expect(text(afterExpiry)).toBe('after expiry');
    const log = await grantLog();
    expect(log.map((entry) => entry.grant)).toEqual(['authorization_code', 'refresh_token']);
    for (const entry of log) expect(entry.resource).toBe(mcp);
    // Rotated: the refresh token login stored is dead, a new one lives.
    const rotated = (await (await fetch(`${as}/test/refresh-tokens`)).json()) as string[];
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).not.toBe(refresh[0]);

    for (const token of rotated)
      await fetch(`${as}/revoke`, { method: 'POST', body: new URLSearchParams({ token }) });
    await fetch(`${as}/test/expire`, { method: 'POST' });
    const refused = await call('after revocation').then(
      (result) => JSON.stringify(result),
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(/MCP source "protected": the refresh token was refused \(invalid_grant/);
    expect(refused).toMatch(/run `xprotocol-adapter login protected` to authorize again/);
  });
});
