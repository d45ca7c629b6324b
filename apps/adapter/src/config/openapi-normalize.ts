/**
 * One `openapi_sources` entry as the runtime's source (docs/config.md, "openapi_sources"): an
 * {@link McpSourceConfig} with `transport: 'openapi'`, its document path made absolute, its
 * credentials read from the variables `auth` names (the cross-checks made sure they are set).
 * @module
 */
import { dirname } from 'node:path';
import { _catalogSettings } from './catalog-normalize.js';
import { expandConfigPath } from './paths.js';
import type { ConfigFile } from './schema.js';
import type { McpSourceConfig, OpenApiSourceCredential } from './types.js';

/** The environment and paths normalization reads. */
interface _Context {
  readonly file: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Normalizes one `openapi_sources` entry. */
export function _openApiSource(s: ConfigFile['openapi_sources'][number], ctx: _Context): McpSourceConfig {
  const isUrl = /^https?:\/\//i.test(s.document);
  const credentials: Record<string, OpenApiSourceCredential> = {};
  for (const [scheme, auth] of Object.entries(s.auth)) {
    const read = (name: string | undefined) => (name === undefined ? '' : (ctx.env[name] ?? ''));
    if (auth.api_key_env !== undefined)
      credentials[scheme] = { type: 'api_key', value: read(auth.api_key_env) };
    else if (auth.bearer_env !== undefined)
      credentials[scheme] = { type: 'bearer', token: read(auth.bearer_env) };
    else if (auth.client_id !== undefined)
      credentials[scheme] = {
        type: 'client_credentials',
        clientId: auth.client_id,
        clientSecret: read(auth.client_secret_env),
        ...(auth.scope !== undefined && { scope: auth.scope }),
      };
    else
      credentials[scheme] = {
        type: 'basic',
        username: read(auth.username_env),
        password: read(auth.password_env),
      };
  }
  return {
    name: s.name,
    namespace: s.xprotocol_namespace,
    transport: 'openapi',
    openapi: {
      document: isUrl
        ? s.document
        : expandConfigPath(s.document, { homeDir: ctx.homeDir, baseDir: dirname(ctx.file) }),
      operations: s.operations === undefined ? undefined : [...s.operations],
      baseUrl: s.base_url,
      serverVariables: Object.fromEntries(Object.entries(s.server_variables).map(([k, v]) => [k, String(v)])),
      credentials,
      maxResponseBytes: s.max_response_bytes,
    },
    command: undefined,
    env: {},
    url: undefined,
    bearerToken: undefined,
    oauth: undefined,
    mcpRevision: '2025-11-25',
    connectTimeoutMs: 30_000,
    toolAllowlist: undefined,
    // An OpenAPI service has no MCP instructions; its operations' descriptions say what they do.
    instructions: undefined,
    ..._catalogSettings(s),
  };
}
