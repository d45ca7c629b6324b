// The strict OAuth authorization server and protected MCP server of fixtures/oauth-protected-server.mjs
// as a child process on loopback, killed by its PID.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const OAUTH_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'oauth-protected-server.mjs');

/** A running fixture: its issuer, its MCP URL, and its test controls. */
export interface OAuthFixture {
  as: string;
  mcp: string;
  child: ChildProcess;
  /** Every token request the authorization server saw (grant type, resource, client). */
  log(): Promise<
    { grant: string; resource: string | null; client?: string; scope: string | null; as: 'as1' | 'as2' }[]
  >;
  /** Expires every access token now. */
  expireAccessTokens(): Promise<void>;
  /** The live refresh tokens. */
  refreshTokens(): Promise<string[]>;
  /** Revokes `token` (RFC 7009). */
  revoke(token: string): Promise<void>;
  kill(): Promise<void>;
}

/** Starts the fixture; `env` sets XP_OAUTH_HOSTILE, XP_OAUTH_ACCESS_TTL, XP_OAUTH_STEP_UP(_NEVER) or XP_OAUTH_MIGRATE. */
export async function startOAuthFixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [OAUTH_FIXTURE], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined)
      process.kill(child.pid, 'SIGKILL');
    await exited;
  };
  const urls = await new Promise<{ as: string; mcp: string }>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`the OAuth fixture did not start in 20 s: ${err}`)),
      20_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { as: string; mcp: string });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the OAuth fixture exited with ${code}: ${err}`));
    });
  }).catch(async (error: unknown) => {
    await kill();
    throw error;
  });
  const post = async (path: string, body?: string) => {
    const response = await fetch(`${urls.as}${path}`, {
      method: 'POST',
      ...(body !== undefined && { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  };
  return {
    ...urls,
    child,
    log: async () => (await (await fetch(`${urls.as}/test/log`)).json()) as never,
    expireAccessTokens: () => post('/test/expire'),
    refreshTokens: async () => (await (await fetch(`${urls.as}/test/refresh-tokens`)).json()) as string[],
    revoke: (token) => post('/revoke', new URLSearchParams({ token }).toString()),
    kill,
  };
}
