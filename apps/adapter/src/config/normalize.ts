/**
 * From the validated file (snake_case, defaults filled in) to the {@link AdapterConfig} the
 * runtime uses: camelCase, paths expanded, commands split, bearer tokens resolved, aliases merged.
 * Runs only after every check passed, so what it reads is known to be valid.
 * @module
 */
import { dirname } from 'node:path';
import { _catalogSettings } from './catalog-normalize.js';
import { splitCommandLine } from './command-line.js';
import { _defaultExpose, type _ModeFacts, _modeOf } from './mode.js';
import { _openApiSource } from './openapi-normalize.js';
import { _normalizeOperate } from './operate-normalize.js';
import { expandConfigPath } from './paths.js';
import { _DEFAULT_DISPLAY_NAME, type ConfigFile } from './schema.js';
import type { AdapterConfig, McpSourceConfig, McpSourceOAuth, XprotocolSourceConfig } from './types.js';

/** Where the configuration is and what its paths resolve against. */
export interface _NormalizeContext {
  /** Absolute path of the configuration file. */
  readonly file: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Builds the normalized configuration. */
export function _normalize(file: ConfigFile, ctx: _NormalizeContext): AdapterConfig {
  const where = { homeDir: ctx.homeDir, baseDir: dirname(ctx.file) };
  const server = file.mcp_server;
  const output = file.logging.output;
  const facts: _ModeFacts = {
    relayUrls: file.relay.urls.length,
    mcpSources: file.mcp_sources.length + file.openapi_sources.length,
    xprotocolSources: file.xprotocol_sources.length,
    mcpServer: server !== undefined,
    expose: server?.expose,
  };
  const mode = _modeOf(facts);
  return {
    file: ctx.file,
    mode,
    identity: _identity(file, mode, where),
    relay: {
      urls: [...file.relay.urls],
      reconnectIntervalSeconds: file.relay.reconnect_interval_seconds,
      eventTtlSeconds: file.relay.event_ttl_seconds,
      replayWindowSeconds: file.relay.replay_window_seconds ?? file.relay.event_ttl_seconds,
      maxClockSkewSeconds: file.relay.max_clock_skew_seconds,
      replayMemoryMaxIds: file.relay.replay_memory_max_ids,
    },
    mcpSources: [
      ...file.mcp_sources.map((s) => _mcpSource(s, ctx)),
      ...file.openapi_sources.map((s) => _openApiSource(s, ctx)),
    ],
    xprotocolSources: file.xprotocol_sources.map(_xprotocolSource),
    mcpServer: server === undefined ? undefined : _mcpServer(server, facts, ctx),
    discovery: {
      wellKnownPort: file.discovery.well_known_port,
      wellKnownHost: _unbracket(file.discovery.well_known_host ?? '127.0.0.1'),
      publishDns: file.discovery.publish_dns === true,
      dnsName: file.discovery.dns_name?.replace(/\.$/, '').toLowerCase(),
      dnsServers: [...(file.discovery.dns_servers ?? [])],
    },
    logging: {
      level: file.logging.level,
      format: file.logging.format,
      output: output === 'stderr' || output === 'stdout' ? output : { file: expandConfigPath(output, where) },
    },
    access: {
      default: file.access?.default ?? 'deny',
      grants: (file.access?.grants ?? []).map((g) => ({ key: g.key, capabilities: [...g.capabilities] })),
      trustedIssuers: [...(file.access?.trusted_issuers ?? [])],
    },
    stateDatabase:
      file.state_database === undefined ||
      file.state_database === ':memory:' ||
      _isPostgresUrl(file.state_database)
        ? file.state_database
        : expandConfigPath(file.state_database, where),
    sharedState: _sharedState(file),
    callTimeoutMs: Math.round(file.call_timeout_seconds * 1000),
    network: { allowPrivate: [...file.network.allow_private] },
    limits: {
      maxArgumentDepth: file.limits.max_argument_depth,
      maxArgumentBytes: file.limits.max_argument_bytes,
    },
    ..._normalizeOperate(file, ctx.env, where),
  };
}

/** `identity`: a pure MCP gateway loads no key and has no chain or rotation to vouch for. */
function _identity(
  file: ConfigFile,
  mode: AdapterConfig['mode'],
  where: { homeDir: string; baseDir: string },
): AdapterConfig['identity'] {
  return {
    // A pure MCP gateway loads no key, even when the file names one (a warning says so).
    keyFile:
      file.identity === undefined || mode === 'mcp_gateway'
        ? undefined
        : expandConfigPath(file.identity.key_file, where),
    displayName: file.identity?.display_name ?? _DEFAULT_DISPLAY_NAME,
    // A pure MCP gateway has no key to vouch for (a warning says these keys are ignored).
    ...(file.identity !== undefined &&
      mode !== 'mcp_gateway' &&
      file.identity.parent_delegation_event !== undefined && {
        parentKey: file.identity.parent_key,
        parentDelegationEvent: expandConfigPath(file.identity.parent_delegation_event, where),
      }),
    ...(file.identity !== undefined &&
      mode !== 'mcp_gateway' &&
      file.identity.rotated_from !== undefined && {
        rotatedFrom: expandConfigPath(file.identity.rotated_from, where),
      }),
  };
}

/** `mcp_server`: the face, with its defaults and its credentials read from the environment. */
function _mcpServer(
  server: NonNullable<ConfigFile['mcp_server']>,
  facts: _ModeFacts,
  ctx: _NormalizeContext,
): NonNullable<AdapterConfig['mcpServer']> {
  return {
    transport: server.transport,
    host: _unbracket(server.host ?? server.sse_host ?? '127.0.0.1'),
    port: server.port ?? server.sse_port ?? 8767,
    path: server.path ?? '/mcp',
    expose: [...new Set(server.expose ?? _defaultExpose(facts))],
    allowedOrigins: server.allowed_origins.map((origin) => new URL(origin).origin),
    maxSessions: server.max_sessions,
    maxSessionsPerPrincipal: server.max_sessions_per_principal,
    maxRequestsInFlight: server.max_requests_in_flight,
    maxRequestsInFlightPerPrincipal: server.max_requests_in_flight_per_principal,
    maxRequestsInFlightTotal: server.max_requests_in_flight_total,
    maxLeases: server.max_leases,
    maxLeasesPerPrincipal: server.max_leases_per_principal,
    maxUpstreamProcesses: server.max_upstream_processes,
    maxUpstreamProcessesPerPrincipal: server.max_upstream_processes_per_principal,
    maxResultBytes: server.max_result_bytes,
    listing: server.listing,
    resultSummaryBytes: server.result_summary_bytes,
    idempotencyWindowSeconds: server.idempotency_window_seconds,
    oauth:
      server.oauth === undefined || server.transport === 'stdio'
        ? undefined
        : {
            issuer: server.oauth.issuer,
            resource: server.oauth.resource,
            jwksUrl: server.oauth.jwks_url,
            requiredScopes: server.oauth.required_scopes,
            scopesSupported: server.oauth.scopes_supported,
            grants: server.oauth.grants,
          },
    bearerToken:
      server.auth === undefined || server.transport === 'stdio' ? undefined : ctx.env[server.auth.token_env],
  };
}

function _mcpSource(s: ConfigFile['mcp_sources'][number], ctx: _NormalizeContext): McpSourceConfig {
  let command: string[] | undefined;
  if (s.transport === 'stdio' && s.command !== undefined) {
    const base =
      typeof s.command === 'string' ? splitCommandLine(s.command) : { ok: true as const, argv: s.command };
    // the cross-checks refused a command that does not split, so this cannot happen
    if (!base.ok)
      throw new Error(`internal: mcp_sources ${s.name}: command reached normalization unsplittable`);
    command = [...base.argv, ...s.args.map(String)];
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(s.env)) env[name] = String(value);
  const tokenEnv = s.auth?.token_env;
  return {
    name: s.name,
    namespace: s.xprotocol_namespace,
    transport: s.transport,
    command,
    env,
    url: s.transport === 'stdio' ? undefined : s.url,
    bearerToken: tokenEnv === undefined || s.auth?.type === 'oauth' ? undefined : ctx.env[tokenEnv],
    oauth: s.auth?.type === 'oauth' && s.transport !== 'stdio' ? _sourceOAuth(s.auth, ctx.env) : undefined,
    mcpRevision: s.mcp_revision,
    connectTimeoutMs: Math.round(s.connect_timeout_seconds * 1000),
    toolAllowlist: s.tool_allowlist === undefined ? undefined : [...s.tool_allowlist],
    ..._catalogSettings(s),
    approvals: { ...s.approvals },
    instructions: s.instructions,
  };
}

function _sourceOAuth(
  auth: NonNullable<ConfigFile['mcp_sources'][number]['auth']>,
  env: Readonly<Record<string, string | undefined>>,
): McpSourceOAuth {
  return {
    grant: auth.grant,
    clientId: auth.client_id,
    clientSecret: auth.client_secret_env === undefined ? undefined : env[auth.client_secret_env],
    scope: auth.scope,
    clientMetadataUrl: auth.client_metadata_url,
    allowInsecureLoopback: auth.allow_insecure_loopback,
  };
}

function _xprotocolSource(s: ConfigFile['xprotocol_sources'][number]): XprotocolSourceConfig {
  return {
    name: s.name,
    endpoint: s.endpoint,
    key: s.key,
    relays: s.relay === undefined ? [] : typeof s.relay === 'string' ? [s.relay] : [...s.relay],
    mcpToolPrefix: s.mcp_tool_prefix,
    schemaFilter: [...s.schema_filter],
    trustRoots:
      s.trust_root === undefined ? [] : typeof s.trust_root === 'string' ? [s.trust_root] : [...s.trust_root],
    dns: s.dns,
    instructions: s.instructions,
  };
}

/** `[::1]` → `::1` (the bind APIs take the bare address). */
function _unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** A `postgres://` (or `postgresql://`) URL: a state database in Postgres, not a file. */
function _isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Replicas (docs/deploy.md): `shared_state`, its database defaulting to a Postgres
 * `state_database`; a Postgres `state_database` alone shares the journal with the default lease.
 * (cross-checks.ts refuses a `shared_state` with neither.)
 */
function _sharedState(file: ConfigFile): AdapterConfig['sharedState'] {
  const postgres =
    file.state_database !== undefined && _isPostgresUrl(file.state_database)
      ? file.state_database
      : undefined;
  const database = file.shared_state?.database ?? postgres;
  if (database === undefined) return undefined;
  return { database, leaseSeconds: file.shared_state?.lease_seconds ?? 15 };
}
