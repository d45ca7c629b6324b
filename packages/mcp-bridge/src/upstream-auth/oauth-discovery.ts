/**
 * Finding who issues tokens for an upstream MCP server, as the MCP authorization specification
 * asks of a client (docs/security.md, "OAuth to upstream servers"): the server's 401 names its
 * protected-resource metadata (RFC 9728) in `WWW-Authenticate` (`resource_metadata`, and the
 * `scope` to ask for), or the client tries the well-known locations; that document names the
 * resource and its authorization servers; the first one's metadata is read from the RFC 8414 and
 * OpenID Connect well-known locations, and its `issuer` must be exactly the server it was asked
 * of. Every URL on the way is checked (oauth-url-check.ts) before it is fetched or kept.
 * @module
 */
import { BridgeError } from '../errors.js';
import { _oauthRequest } from './oauth-fetch.js';
import { _checkMetadataUrl, type MetadataUrlRules } from './oauth-url-check.js';

/** What a `WWW-Authenticate: Bearer …` challenge said. */
export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
}

/** An authorization server's endpoints and abilities, every URL checked. */
export interface AuthorizationServer {
  issuer: string;
  tokenEndpoint: string;
  authorizationEndpoint: string | undefined;
  registrationEndpoint: string | undefined;
  revocationEndpoint: string | undefined;
  codeChallengeMethods: readonly string[];
  grantTypes: readonly string[] | undefined;
  tokenAuthMethods: readonly string[] | undefined;
  scopesSupported: readonly string[] | undefined;
  /** RFC 9207: the server puts `iss` on every authorization response, so one without it is refused. */
  issParameterSupported: boolean;
  /** The server takes a Client ID Metadata Document's URL as a client id. */
  clientIdMetadataDocumentSupported: boolean;
}

/** The outcome of {@link discoverAuthorization}. */
export interface DiscoveredAuthorization {
  /** The RFC 8707 `resource` of every token request: the document's `resource`, else the server URL. */
  resource: string;
  server: AuthorizationServer;
  /** The scope to ask for: the challenge's, else the resource's `scopes_supported`, else none. */
  scope: string | undefined;
}

/** The parameters of the `Bearer` challenge in a `WWW-Authenticate` header (others ignored). */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge {
  const out: BearerChallenge = {};
  if (!header) return out;
  const bearer = /(?:^|,)\s*Bearer\b(.*)$/i.exec(header);
  if (!bearer) return out;
  const params = /([a-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/gi;
  for (const match of (bearer[1] ?? '').matchAll(params)) {
    const value = (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1');
    const name = (match[1] ?? '').toLowerCase();
    if (name === 'resource_metadata') out.resourceMetadata = value;
    else if (name === 'scope') out.scope = value;
    else if (name === 'error') out.error = value;
  }
  return out;
}

/**
 * Discovers the authorization server of the MCP server at `rules.serverUrl`, starting from the
 * challenge of its 401 (or none). Rejects with a `BridgeError` (`UPSTREAM_UNAVAILABLE`) naming
 * the source and what was wrong: a URL refused, a document missing or not JSON, a `resource`
 * that is not this server, an issuer that is not the server asked.
 */
export async function discoverAuthorization(
  challenge: BearerChallenge,
  rules: MetadataUrlRules,
): Promise<DiscoveredAuthorization> {
  const server = new URL(rules.serverUrl);
  const fail = (why: string): never => {
    throw new BridgeError('UPSTREAM_UNAVAILABLE', `MCP source "${rules.source}": OAuth: ${why}`);
  };
  const metadataUrls = challenge.resourceMetadata
    ? [
        _checkMetadataUrl(challenge.resourceMetadata, 'the resource_metadata of the 401 challenge', rules)
          .href,
      ]
    : _wellKnown(server, 'oauth-protected-resource');
  const document = await _firstDocument(metadataUrls, 'protected-resource metadata', rules);
  let resource = _canonical(server);
  let issuerText: unknown = server.origin;
  let scopes: unknown;
  if (document) {
    const { url, body } = document;
    if (typeof body.resource !== 'string')
      fail(`the protected-resource metadata at ${url} has no "resource"`);
    const named = _checkMetadataUrl(body.resource, 'the protected resource', rules);
    if (!_covers(named, server))
      fail(
        `the protected-resource metadata at ${url} is for ${JSON.stringify(named.href)}, not for this server ${server.href} (expected the same origin and a path this server's path starts with)`,
      );
    resource = body.resource as string;
    const servers = body.authorization_servers;
    if (!Array.isArray(servers) || servers.length === 0)
      fail(`the protected-resource metadata at ${url} names no authorization_servers`);
    issuerText = (servers as unknown[])[0];
    scopes = body.scopes_supported;
  }
  const issuer = _checkMetadataUrl(issuerText, 'the authorization server', rules);
  const as = await _authorizationServer(issuer, rules, fail);
  const scope =
    challenge.scope ??
    (Array.isArray(scopes) && scopes.every((s) => typeof s === 'string') ? scopes.join(' ') : undefined);
  return { resource, server: as, scope: scope || undefined };
}

async function _authorizationServer(
  issuer: URL,
  rules: MetadataUrlRules,
  fail: (why: string) => never,
): Promise<AuthorizationServer> {
  const urls = [
    _wellKnown(issuer, 'oauth-authorization-server')[0],
    _wellKnown(issuer, 'openid-configuration')[0],
  ] as string[];
  if (issuer.pathname !== '/')
    urls.push(`${issuer.href.replace(/\/$/, '')}/.well-known/openid-configuration`);
  const document = await _firstDocument(urls, 'authorization server metadata', rules);
  if (!document)
    return fail(`no authorization server metadata found for ${issuer.href} (tried ${urls.join(', ')})`);
  const { url, body } = document;
  const expected = issuerText(issuer);
  // A bare origin may be written with or without its slash; anything else must match exactly.
  const said =
    typeof body.issuer === 'string' && URL.canParse(body.issuer) ? new URL(body.issuer).href : undefined;
  if (said !== issuer.href)
    fail(
      `the authorization server metadata at ${url} says issuer ${JSON.stringify(String(body.issuer).slice(0, 200))}, expected ${JSON.stringify(expected)} (RFC 8414 §3.3: the issuer must be the server asked)`,
    );
  const endpoint = (key: string): string | undefined =>
    body[key] === undefined
      ? undefined
      : _checkMetadataUrl(body[key], `the ${key} of ${expected}`, rules).href;
  const tokenEndpoint = endpoint('token_endpoint');
  if (!tokenEndpoint) return fail(`the authorization server metadata at ${url} has no token_endpoint`);
  const list = (key: string): string[] | undefined =>
    Array.isArray(body[key])
      ? (body[key] as unknown[]).filter((v): v is string => typeof v === 'string')
      : undefined;
  return {
    issuer: expected,
    tokenEndpoint,
    authorizationEndpoint: endpoint('authorization_endpoint'),
    registrationEndpoint: endpoint('registration_endpoint'),
    revocationEndpoint: endpoint('revocation_endpoint'),
    codeChallengeMethods: list('code_challenge_methods_supported') ?? [],
    grantTypes: list('grant_types_supported'),
    tokenAuthMethods: list('token_endpoint_auth_methods_supported'),
    scopesSupported: list('scopes_supported'),
    issParameterSupported: body.authorization_response_iss_parameter_supported === true,
    clientIdMetadataDocumentSupported: body.client_id_metadata_document_supported === true,
  };
}

/** The issuer as written in metadata: the URL without a trailing slash on a bare origin. */
function issuerText(issuer: URL): string {
  return issuer.pathname === '/' && !issuer.search ? issuer.origin : issuer.href;
}

/** The first of `urls` that answers 200 with a JSON object; 404s and the like are skipped. */
async function _firstDocument(
  urls: readonly string[],
  what: string,
  rules: MetadataUrlRules,
): Promise<{ url: string; body: Record<string, unknown> } | undefined> {
  for (const url of urls) {
    const answer = await _oauthRequest(url, `the ${what}`, rules);
    if (answer.status !== 200) continue;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `MCP source "${rules.source}": OAuth: the ${what} at ${url} is not JSON`,
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `MCP source "${rules.source}": OAuth: the ${what} at ${url} is not a JSON object`,
      );
    return { url, body: body as Record<string, unknown> };
  }
  return undefined;
}

/**
 * RFC 8414 §3.1 / RFC 9728 §3.1: the well-known name inserted between the host and the path,
 * then (the MCP specification's fallback for a protected resource) at the root.
 */
function _wellKnown(base: URL, name: string): string[] {
  const path = base.pathname.replace(/\/$/, '');
  const root = `${base.origin}/.well-known/${name}`;
  return path === '' ? [root] : [`${root}${path}`, root];
}

/** The server URL as a resource identifier (RFC 8707: no fragment). */
function _canonical(server: URL): string {
  const url = new URL(server.href);
  url.hash = '';
  return url.href;
}

/** True when `resource` is the server's origin and a prefix of its path (RFC 9728 §7.3 allows a parent). */
function _covers(resource: URL, server: URL): boolean {
  if (resource.origin !== server.origin) return false;
  const base = resource.pathname.endsWith('/') ? resource.pathname : `${resource.pathname}/`;
  return server.pathname === resource.pathname || `${server.pathname}/`.startsWith(base);
}
