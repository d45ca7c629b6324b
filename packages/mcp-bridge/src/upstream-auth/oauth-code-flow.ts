/**
 * The authorization code grant with PKCE (S256 only) and a loopback redirect, shared by
 * `xprotocol-adapter login <source>` (oauth-login.ts) and a re-authorization in the middle of a
 * call (oauth-step-up.ts): a client (the one given, or one registered with RFC 7591 when the
 * server offers registration), a redirect listener on 127.0.0.1 at a random port that takes one
 * request — with the `state` sent, within a bounded time —, the authorization URL handed to
 * `present` (printed, or shown through the face client), then the code exchanged with `resource`
 * and the verifier. Nothing here opens a browser or runs a shell (docs/security.md, "OAuth to
 * upstream servers").
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BridgeError } from '../errors.js';
import type { DiscoveredAuthorization } from './oauth-discovery.js';
import { _oauthRequest } from './oauth-fetch.js';
import type { StoredGrant } from './oauth-grant.js';
import { _requestToken, _withAuthMethod, type OAuthClient } from './oauth-token-request.js';
import type { MetadataUrlRules } from './oauth-url-check.js';

/** Options of {@link _authorizeWithCode}. */
export interface _CodeFlowOptions {
  rules: MetadataUrlRules;
  discovered: DiscoveredAuthorization;
  /** The client to authorize as; without it, one is registered (RFC 7591) at this server. */
  client?: OAuthClient | undefined;
  /**
   * A Client ID Metadata Document URL, used as the client id when the server says it accepts
   * them (`client_id_metadata_document_supported`) and no client is given.
   */
  clientMetadataUrl?: string | undefined;
  scope: string | undefined;
  /**
   * Shows the authorization URL; may resolve with `'abandon'` (the person declined) to end the
   * flow at once. Its rejection ends the flow too.
   */
  present: (url: string) => Promise<'shown' | 'abandon'> | 'shown';
  /** How long to wait for the browser's redirect. */
  timeoutMs: number;
  /** Starts error messages (`login`, `step-up`). */
  what: string;
}

/**
 * Runs the authorization code flow and returns the grant (not stored: the caller does). Rejects
 * with a `BridgeError` (`UPSTREAM_UNAVAILABLE`) naming what failed: a server without PKCE S256,
 * no client and no registration, a redirect with the wrong `state`, `iss` or an `error`, no
 * redirect in time, the person's refusal, or the token endpoint's.
 */
export async function _authorizeWithCode(options: _CodeFlowOptions): Promise<StoredGrant> {
  const { rules, discovered } = options;
  const fail = (why: string): never => {
    throw new BridgeError('UPSTREAM_UNAVAILABLE', `MCP source "${rules.source}": ${options.what}: ${why}`);
  };
  const server = discovered.server;
  if (!server.authorizationEndpoint)
    return fail(`the authorization server ${server.issuer} has no authorization_endpoint`);
  if (!server.codeChallengeMethods.includes('S256'))
    return fail(
      `the authorization server ${server.issuer} does not list S256 in code_challenge_methods_supported; PKCE S256 is required`,
    );
  const listener = await _listen();
  try {
    const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const client = _withAuthMethod(
      options.client ??
        (options.clientMetadataUrl !== undefined && server.clientIdMetadataDocumentSupported
          ? { clientId: options.clientMetadataUrl, authMethod: 'none' }
          : await _registerClient(discovered, redirectUri, rules, fail)),
      server,
    );
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(32).toString('base64url');
    const scope = options.scope;
    const url = new URL(server.authorizationEndpoint);
    for (const [key, value] of Object.entries({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state,
      resource: discovered.resource,
      ...(scope && { scope }),
    }))
      url.searchParams.set(key, value);
    const redirect = _awaitRedirect(
      listener,
      {
        state,
        issuer: server.issuer,
        issRequired: server.issParameterSupported,
        timeoutMs: options.timeoutMs,
        again: options.what === 'login' ? 'run login again' : 'call the tool again to retry',
      },
      fail,
    );
    const abandoned = Promise.resolve(options.present(url.href)).then((said) =>
      said === 'abandon' ? fail('the authorization was declined') : new Promise<never>(() => {}),
    );
    abandoned.catch(() => {});
    const code = await Promise.race([redirect, abandoned]);
    const tokens = await _requestToken(
      server.tokenEndpoint,
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier },
      { client, resource: discovered.resource, rules },
    );
    return {
      serverUrl: rules.serverUrl,
      issuer: server.issuer,
      resource: discovered.resource,
      tokenEndpoint: server.tokenEndpoint,
      client,
      tokens,
      ...(scope && { scope }),
    };
  } finally {
    listener.closeAllConnections();
    listener.close();
  }
}

/** Registers a public or confidential client at the discovered server (RFC 7591). */
export async function _registerClient(
  discovered: DiscoveredAuthorization,
  redirectUri: string,
  rules: MetadataUrlRules,
  fail: (why: string) => never,
): Promise<OAuthClient> {
  const endpoint = discovered.server.registrationEndpoint;
  if (!endpoint)
    return fail(
      `no auth.client_id is configured and ${discovered.server.issuer} offers no registration_endpoint; register a client there and set auth.client_id`,
    );
  const answer = await _oauthRequest(endpoint, 'the registration endpoint', rules, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'xprotocol-adapter',
      // A client redirected to loopback is a native application (OpenID Connect Registration).
      application_type: 'native',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  let body: { client_id?: unknown; client_secret?: unknown; token_endpoint_auth_method?: unknown } = {};
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    // Said below.
  }
  if (
    (answer.status !== 200 && answer.status !== 201) ||
    typeof body.client_id !== 'string' ||
    !body.client_id
  )
    return fail(`the registration endpoint ${endpoint} answered HTTP ${answer.status} without a client_id`);
  if (typeof body.client_secret !== 'string') return { clientId: body.client_id, authMethod: 'none' };
  // RFC 7591 §3.2.1: the server says how the client it registered authenticates.
  const method = body.token_endpoint_auth_method;
  return {
    clientId: body.client_id,
    clientSecret: body.client_secret,
    ...((method === 'client_secret_post' || method === 'client_secret_basic') && { authMethod: method }),
  };
}

function _listen(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** The code of the one redirect the listener takes; anything else there fails the flow. */
function _awaitRedirect(
  listener: Server,
  expected: { state: string; issuer: string; issRequired: boolean; timeoutMs: number; again: string },
  fail: (why: string) => never,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        fail(`no redirect came back within ${Math.round(expected.timeoutMs / 1000)} s; ${expected.again}`);
      } catch (error) {
        reject(error);
      }
    }, expected.timeoutMs);
    listener.once('close', () => clearTimeout(timer));
    listener.on('request', (request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') {
        response.writeHead(404).end();
        return;
      }
      const p = url.searchParams;
      const outcome = (): string => {
        if (p.get('state') !== expected.state) fail('the redirect carried a state that is not the one sent');
        if (p.get('error'))
          fail(
            `the authorization server refused: ${String(p.get('error')).slice(0, 100)} ${String(p.get('error_description') ?? '').slice(0, 300)}`.trim(),
          );
        const iss = p.get('iss');
        if (iss === null && expected.issRequired)
          fail(
            `the redirect carried no iss, but ${expected.issuer} says it sends one (authorization_response_iss_parameter_supported; RFC 9207)`,
          );
        if (iss !== null && iss !== expected.issuer)
          fail(`the redirect names issuer ${JSON.stringify(iss.slice(0, 200))}, expected ${expected.issuer}`);
        const code = p.get('code');
        if (!code) fail('the redirect carried no code');
        return code as string;
      };
      clearTimeout(timer);
      listener.removeAllListeners('request');
      try {
        const code = outcome();
        response
          .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
          .end('Authorized. You can close this window.\n');
        resolve(code);
      } catch (error) {
        response
          .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
          .end('Authorization failed; see the terminal.\n');
        reject(error);
      }
    });
  });
}
