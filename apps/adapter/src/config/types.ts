/**
 * The normalized configuration the runtime works from: camelCase, defaults filled in, `${ENV}`
 * interpolated, paths absolute, commands split, tokens resolved. Produced by `loadConfig` /
 * `parseConfig` from the snake_case YAML (docs/config.md lists every key).
 * @module
 */
import type { ConfigWarning } from './errors.js';
import type { AdapterMode, ExposedList } from './mode.js';

/** The whole adapter configuration. */
export interface AdapterConfig {
  /** Absolute path of the configuration file. */
  file: string;
  /**
   * `mcp_gateway`: a pure MCP gateway (an MCP face over the mcp_sources; no relay, no
   * xprotocol_sources, so no XProtocol endpoint and no identity); `xprotocol` otherwise.
   */
  mode: AdapterMode;
  identity: {
    /**
     * Absolute path of the key file (`~` expanded, relative to the config file's folder);
     * `undefined` only in `mcp_gateway` mode, which loads no key.
     */
    keyFile: string | undefined;
    /** Published in the announce; default `XProtocol MCP Adapter`. */
    displayName: string;
    /**
     * `parent_key`: the key that must have issued the last link of the chain in
     * `parentDelegationEvent` (checked at start; docs/config.md).
     */
    parentKey?: string | undefined;
    /**
     * `parent_delegation_event`: absolute path of the adapter's chain file (what `register
     * --output` writes), loaded and checked at start and disclosed in the announce.
     */
    parentDelegationEvent?: string | undefined;
    /**
     * `rotated_from`: absolute path of the rotation file (what `rotate --output` writes) naming
     * this key as an old key's successor, checked at start and disclosed in the announce.
     */
    rotatedFrom?: string | undefined;
  };
  relay: {
    /** ws:// or wss:// URLs, in the order written (may be empty when nothing needs a relay). */
    urls: string[];
    /** Default 5. */
    reconnectIntervalSeconds: number;
    /** The `expiration` put on published events, in seconds from now; default 3600. */
    eventTtlSeconds: number;
    /**
     * The replay window (docs/protocol.md §4): older requests are dropped as stale, and ids are
     * remembered while inside it; default `eventTtlSeconds`.
     */
    replayWindowSeconds: number;
    /** How far ahead of the adapter's clock a request's `created_at` may be; default 300. */
    maxClockSkewSeconds: number;
    /** Most request ids the dedupe memory keeps; default 1,000,000. */
    replayMemoryMaxIds: number;
  };
  mcpSources: McpSourceConfig[];
  xprotocolSources: XprotocolSourceConfig[];
  /** The MCP face; `undefined` when the file has no `mcp_server` section. */
  mcpServer:
    | {
        transport: 'stdio' | 'streamable_http' | 'sse';
        /** Bind address; default `127.0.0.1` (`sse_host` is an alias). */
        host: string;
        /** Default 8767 (`sse_port` is an alias). */
        port: number;
        /** Default `/mcp`. */
        path: string;
        /** Default `['xprotocol_sources']`; without a relay, the mcp_sources too (config/mode.ts). */
        expose: ExposedList[];
        /** The token HTTP clients must send (from `auth.token_env`); `undefined`: no auth. */
        bearerToken: string | undefined;
        /** `max_sessions`, every principal's together; default 64. */
        maxSessions: number;
        /** `max_sessions_per_principal`; `undefined`: a quarter of `maxSessions`. */
        maxSessionsPerPrincipal: number | undefined;
        /** `max_requests_in_flight` per session (and per principal's 2026-07-28 requests), default 32. */
        maxRequestsInFlight: number;
        /** `max_requests_in_flight_per_principal`; `undefined`: a quarter of `maxRequestsInFlightTotal`. */
        maxRequestsInFlightPerPrincipal: number | undefined;
        /** `max_requests_in_flight_total`, default 256. */
        maxRequestsInFlightTotal: number;
        /** `max_leases`, default 64. */
        maxLeases: number;
        /** `max_leases_per_principal`; `undefined`: a quarter of `maxLeases`. */
        maxLeasesPerPrincipal: number | undefined;
        /** `max_upstream_processes` per stdio source, default 32. */
        maxUpstreamProcesses: number;
        /** `max_upstream_processes_per_principal`; `undefined`: a quarter of `maxUpstreamProcesses`. */
        maxUpstreamProcessesPerPrincipal: number | undefined;
        /** `max_result_bytes`, default 16 MiB. */
        maxResultBytes: number;
        /** `listing`: how much of each tool `tools/list` shows; default `full`. */
        listing: 'full' | 'compact' | 'search';
        /** `result_summary_bytes`: the bound on a result's `content[]` text; 0 off; default 64 KiB. */
        resultSummaryBytes: number;
        /** `idempotency_window_seconds`, default 86400; 0: idempotency keys are ignored. */
        idempotencyWindowSeconds: number;
        /** OAuth 2.1 on the HTTP face (`oauth`); `undefined`: none. */
        oauth:
          | {
              issuer: string;
              resource: string;
              jwksUrl: string | undefined;
              requiredScopes: string[];
              scopesSupported: string[] | undefined;
              grants: { subject: string; capabilities: string[] }[];
            }
          | undefined;
        /** Browser origins allowed besides the face's own (`allowed_origins`), as serialized origins. */
        allowedOrigins: string[];
      }
    | undefined;
  discovery: {
    /** The well-known + catalog HTTP server runs only when this is set. */
    wellKnownPort: number | undefined;
    /** Default `127.0.0.1`. */
    wellKnownHost: string;
    /** `publish_dns`: print the TXT record to publish at start (with `dnsName`). */
    publishDns: boolean;
    /** `dns_name`: the domain callers reach the adapter by, lowercased, no trailing dot. */
    dnsName: string | undefined;
    /** `dns_servers`: asked for TXT records and xp:// hosts' addresses; `[]`: the system's. */
    dnsServers: string[];
  };
  logging: {
    level: 'debug' | 'info' | 'warn' | 'error';
    /**
     * `auto` (the default): readable text when the log goes to a terminal, JSON lines otherwise;
     * `pretty` or `text` (the specification's name): readable text; `json`: JSON lines.
     */
    format: 'auto' | 'pretty' | 'json' | 'text';
    /** Default `stderr`; `stdout` is refused when `mcpServer.transport` is `stdio`. */
    output: 'stderr' | 'stdout' | { file: string };
  };
  access: {
    /** Default `deny`. */
    default: 'deny' | 'allow';
    grants: { key: string; capabilities: string[] }[];
    trustedIssuers: string[];
  };
  /** Absolute path; `undefined` → the runtime derives `~/.xprotocol/state/<ed25519 hex>.db`. */
  stateDatabase: string | undefined;
  /** Replicas of one key: the call journal and outbox in Postgres (docs/deploy.md). */
  sharedState: { database: string; leaseSeconds: number } | undefined;
  /** Default 30000 (from `call_timeout_seconds`, default 30). */
  callTimeoutMs: number;
  network: {
    /** CIDR ranges addresses learned from remote documents may use although special. Default none. */
    allowPrivate: string[];
  };
  limits: {
    /** Default 64. */
    maxArgumentDepth: number;
    /** Default 4194304. */
    maxArgumentBytes: number;
  };
  /** `admin`: the metrics listener (docs/operating.md); absent: none. */
  admin?: AdminConfig | undefined;
  /** `audit`: the audit log (docs/operating.md); absent: none. */
  audit?: AuditConfig | undefined;
  /** `tracing`: spans sent to an OTLP/HTTP collector (docs/operating.md); absent: no tracing. */
  tracing?: TracingConfig | undefined;
}

/** `tracing`, normalized. */
export interface TracingConfig {
  /** The collector's OTLP/HTTP traces URL. */
  url: string;
  /** Default `xprotocol-adapter`. */
  serviceName: string;
}

/** `admin`, normalized. */
export interface AdminConfig {
  /** Default 127.0.0.1 (brackets removed). */
  host: string;
  port: number;
  /** The bearer token read from `token_env`; absent: no token asked. */
  token?: string | undefined;
}

/** `audit`, normalized. */
export interface AuditConfig {
  /** Absolute path. */
  path: string;
  maxBytes: number;
  keep: number;
  includeArguments: boolean;
}

/**
 * One `mcp_sources` entry, or one `openapi_sources` entry (`transport: 'openapi'`, listed after
 * the mcp_sources): an OpenAPI service is served as a wrapped MCP server is.
 */
export interface McpSourceConfig {
  name: string;
  /** `xprotocol_namespace`: a valid kind outside the reserved `xp` namespace. */
  namespace: string;
  transport: 'stdio' | 'sse' | 'streamable_http' | 'openapi';
  /** `openapi`: the document and how its operations are called; `undefined` otherwise. */
  openapi?: OpenApiSourceSettings | undefined;
  /** stdio: argv (`command` split shell-style, then `args` appended); `undefined` otherwise. */
  command: string[] | undefined;
  /** stdio: extra environment for the child (values are secrets: never log them). */
  env: Record<string, string>;
  /** sse / streamable_http: the server URL; `undefined` for stdio. */
  url: string | undefined;
  /** The token read from the variable `auth.token_env` names (a secret: never log it). */
  bearerToken: string | undefined;
  /** `auth` with `type: oauth` (docs/config.md); `undefined` otherwise. */
  oauth: McpSourceOAuth | undefined;
  capabilityInference: 'auto' | 'explicit';
  /** The `capabilities` list (used by `explicit`). */
  capabilities: string[];
  schemaOverrides: Record<
    string,
    { description?: string; title?: string; required_capability?: string; semantic?: Record<string, unknown> }
  >;
  /** Only these tools are exposed; `undefined` exposes all. */
  toolAllowlist: string[] | undefined;
  /** The MCP revision the server speaks; default `2025-11-25`. */
  mcpRevision: '2025-11-25' | '2026-07-28' | 'auto';
  /** From `connect_timeout_seconds` (default 30): the bound on one connection attempt, in ms. */
  connectTimeoutMs: number;
  /** Default 600. */
  rateLimit: { requestsPerMinute: number };
  /** Default 0.40. */
  descriptionQualityThreshold: number;
  /** Default 0.20. */
  descriptionQualityFloor: number;
  /** What happens to a new tool that description linting flags; default `quarantine`. */
  descriptionLint: 'quarantine' | 'warn';
  /** `instructions`: the operator's guidance in place of the server's own (empty: none); absent: the server's. */
  instructions: string | undefined;
  /** Default 300. */
  schemaRefreshIntervalSeconds: number;
  /**
   * From `timeouts`: the call timeout of this source and of single tools, in ms; each absent
   * one falls back to `callTimeoutMs`.
   */
  callTimeouts: { defaultMs: number | undefined; toolsMs: Record<string, number> };
  /**
   * From `approvals`: the approval mode of single tools, keyed by MCP tool name (`confirm` asks
   * the MCP face's client before each call); a tool not named is `auto`. Absent for OpenAPI sources.
   */
  approvals?: Record<string, 'auto' | 'confirm'>;
}

/** What an `openapi_sources` entry adds to a source (docs/config.md, "openapi_sources"). */
export interface OpenApiSourceSettings {
  /** An absolute file path, or the URL as written. */
  document: string;
  /** `operations`: only these operationIds; `undefined`: every operation. */
  operations: string[] | undefined;
  /** `base_url`; `undefined`: the document's first server. */
  baseUrl: string | undefined;
  serverVariables: Record<string, string>;
  /** Credentials by security scheme name, read from the variables `auth` names (secrets: never log them). */
  credentials: Record<string, OpenApiSourceCredential>;
  /** Default 4194304. */
  maxResponseBytes: number;
}

/** One security scheme's credentials. */
export type OpenApiSourceCredential =
  | { type: 'api_key'; value: string }
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  | { type: 'client_credentials'; clientId: string; clientSecret: string; scope?: string };

/** How the adapter gets tokens for one HTTP source as an OAuth 2.1 client. */
export interface McpSourceOAuth {
  grant: 'client_credentials' | 'authorization_code';
  clientId: string | undefined;
  /** Read from the variable `client_secret_env` names (a secret: never log it). */
  clientSecret: string | undefined;
  scope: string | undefined;
  /** A Client ID Metadata Document URL (https, a path, no fragment), the client id where accepted. */
  clientMetadataUrl: string | undefined;
  allowInsecureLoopback: boolean;
}

/** One `xprotocol_sources` entry: either `endpoint`, or `key` with `relays`. */
export interface XprotocolSourceConfig {
  name: string;
  /** `xp://host[:port]`, resolved through the well-known document. */
  endpoint: string | undefined;
  /** The endpoint's `ed25519:` key (given with `relay`). */
  key: string | undefined;
  /** The `relay` URL(s) given with `key`; `[]` with `endpoint`. */
  relays: string[];
  /** Default `''`. */
  mcpToolPrefix: string;
  /** Kinds to expose; `[]` exposes all. */
  schemaFilter: string[];
  /**
   * `trust_root`: keys one of which must root the endpoint's delegation chain (its announce's
   * `delegation_chain`); `[]`: the endpoint is not asked for a chain.
   */
  trustRoots: string[];
  /** `dns` (with `endpoint`): the DNS TXT step's policy (docs/protocol.md §10.3, "Keys in DNS TXT"). */
  dns: 'required' | 'if_published' | 'off';
  /** `instructions`: the operator's guidance in place of the catalog's (empty: none); absent: the catalog's. */
  instructions: string | undefined;
}

/** What `loadConfig` / `parseConfig` return. */
export interface LoadedConfig {
  config: AdapterConfig;
  /** Accepted but noteworthy settings; the runtime logs each at warn level. */
  warnings: ConfigWarning[];
}

/** Options of `loadConfig` / `parseConfig`. */
export interface LoadConfigOptions {
  /** Variables for `${NAME}` and `token_env`; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** What `~` expands to; default `os.homedir()`. */
  homeDir?: string;
  /**
   * Top-level sections to use when the file has none, written as in a file (`{ relay: { urls:
   * ['ws://127.0.0.1:8765'] } }`); a section the file has is the file's. A host that supplies
   * what it replaces anyway (the devserver: `identity` and `relay`) does not make the file carry
   * it. Checked like the file's own; a problem in one is reported at the file's first line.
   */
  sections?: Readonly<Record<string, unknown>>;
}
