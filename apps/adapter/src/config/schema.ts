/**
 * The shape of the YAML configuration file (docs/config.md; `access` by docs/design.md §4), as a
 * zod schema. It checks each value on its own; rules that relate several values live in
 * `cross-checks.ts`. The same schema generates `config.schema.json` for editors ({@link
 * configJsonSchema}), so every key carries a description and its default.
 *
 * Values are validated after `${ENV}` interpolation. Each leaf schema is registered with the
 * phrase that completes "expected …" in messages (`_expectedPhrase`).
 * @module
 */
import { isKeyString } from '@xprotocol/crypto';
import { parseCidr } from '@xprotocol/relay-client';
import { isContractKind, isValidCapability, isValidGrant } from '@xprotocol/translate';
import { isReservedKind } from '@xprotocol/wire';
import { z } from 'zod';
import { phrased } from './_phrased.js';
import { DNS_SERVER_PHRASE, dnsName, dnsServer } from './dns-values.js';
import { _openApiKeys } from './openapi-schema.js';
import { _adminSchema, _auditSchema, _tracingSchema } from './operate-schema.js';

// ─── Leaf values ────────────────────────────────────────────────────────────────────────────

const ED25519_PATTERN = '^ed25519:[0-9a-f]{64}$';
const ED25519_PHRASE = '"ed25519:" followed by 64 lowercase hex digits';

/** An identity key string (`ed25519:` + 64 lowercase hex), checked with `@xprotocol/crypto`. */
const ed25519Key = () =>
  phrased(
    z
      .string()
      .refine((s) => isKeyString(s, 'ed25519'), { error: `expected ${ED25519_PHRASE}` })
      .meta({ pattern: ED25519_PATTERN }),
    ED25519_PHRASE,
  );

const nonEmpty = (phrase = 'a non-empty string') => phrased(z.string().min(1), phrase);
/** A limit on how many of something the face holds at once. */
const count = () => phrased(z.number().int().min(1).max(10_000), 'an integer from 1 to 10000');

/** A file path: `~` and `~/…` expand to the home directory, relative paths to the config's folder. */
const filePath = () =>
  phrased(
    z
      .string()
      .min(1)
      .refine((s) => !/^~[^/\\]/.test(s), {
        error: 'expected a path ("~" and "~/…" are expanded; "~user" is not supported)',
      }),
    'a file path',
  );

const port = () => phrased(z.number().int().min(1).max(65535), 'a port number from 1 to 65535');

const HOST_PATTERN = /^(\[[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?\]|[A-Za-z0-9._:%-]+)$/;
const host = () => phrased(z.string().regex(HOST_PATTERN), 'a host name or IP address (no scheme, no port)');

function _urlWith(text: string, protocols: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return protocols.includes(url.protocol) && url.hostname !== '';
}

const WS_PHRASE = 'a ws:// or wss:// URL';
const wsUrl = () =>
  phrased(
    z
      .string()
      .refine((s) => _urlWith(s, ['ws:', 'wss:']), { error: `expected ${WS_PHRASE}` })
      .meta({ pattern: '^wss?://', format: 'uri' }),
    WS_PHRASE,
  );

const HTTP_PHRASE = 'an http:// or https:// URL';
const httpUrl = () =>
  phrased(
    z
      .string()
      .refine((s) => _urlWith(s, ['http:', 'https:']), { error: `expected ${HTTP_PHRASE}` })
      .meta({ pattern: '^https?://', format: 'uri' }),
    HTTP_PHRASE,
  );

const ORIGIN_PHRASE = 'an http:// or https:// origin (scheme://host[:port], no path)';
const httpOrigin = () =>
  phrased(
    z
      .string()
      .refine(
        (s) => {
          if (!_urlWith(s, ['http:', 'https:'])) return false;
          const url = new URL(s);
          const bare = url.pathname === '/' && !url.search && !url.hash && !s.endsWith('#');
          return bare && !url.username && !url.password && !/^[a-z]+:\/\/[^/]*\/./i.test(s);
        },
        { error: `expected ${ORIGIN_PHRASE}` },
      )
      .meta({ pattern: '^https?://[^/?#]+/?$', format: 'uri' }),
    ORIGIN_PHRASE,
  );

const XP_ENDPOINT = /^xp:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*)(:(\d{1,5}))?\/?$/;
const XP_PHRASE = 'an xp://host[:port] endpoint';
const xpEndpoint = () =>
  phrased(
    z
      .string()
      .refine(
        (s) => {
          const m = XP_ENDPOINT.exec(s);
          if (!m) return false;
          const p = m[4] === undefined ? 443 : Number(m[4]);
          return p >= 1 && p <= 65535;
        },
        { error: `expected ${XP_PHRASE}` },
      )
      .meta({ pattern: XP_ENDPOINT.source }),
    XP_PHRASE,
  );

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envName = () =>
  phrased(z.string().regex(ENV_NAME), 'an environment variable name ([A-Za-z_][A-Za-z0-9_]*)');

const NAMESPACE_PHRASE =
  'a namespace of dot-separated segments of [A-Za-z0-9_-]+ (for example com.acme.files)';
const namespace = () =>
  phrased(
    z
      .string()
      .refine(isContractKind, { error: `expected ${NAMESPACE_PHRASE}`, abort: true })
      .refine((s) => !isReservedKind(s), {
        error: 'expected a namespace outside "xp", which is reserved for protocol kinds',
      })
      .meta({ pattern: '^(?!xp(\\.|$))[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$' }),
    NAMESPACE_PHRASE,
  );

const KIND_PHRASE = 'a kind of dot-separated segments of [A-Za-z0-9_-]+';
const kind = () =>
  phrased(
    z
      .string()
      .refine(isContractKind, { error: `expected ${KIND_PHRASE}` })
      .meta({ pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$' }),
    KIND_PHRASE,
  );

const CAPABILITY_PHRASE = 'a capability of dot-separated segments of [A-Za-z0-9_-]+';
const capability = () =>
  phrased(
    z
      .string()
      .refine(isValidCapability, { error: `expected ${CAPABILITY_PHRASE}` })
      .meta({ pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$' }),
    CAPABILITY_PHRASE,
  );

const GRANT_PHRASE = 'a capability, a capability ending in ".*", or "*"';
const grant = () =>
  phrased(
    z
      .string()
      .refine(isValidGrant, { error: `expected ${GRANT_PHRASE}` })
      .meta({ pattern: '^(\\*|[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*(\\.\\*)?)$' }),
    GRANT_PHRASE,
  );

const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const sourceName = () =>
  phrased(
    z.string().regex(SOURCE_NAME),
    'a name of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)',
  );

const ratio = () => phrased(z.number().min(0).max(1), 'a number from 0 to 1');

/** A scalar that becomes a string (`DEBUG: 1` and `args: [8080]` are fine in YAML). */
const scalarText = () =>
  phrased(z.union([z.string(), z.number(), z.boolean()]), 'a string (or a number or boolean)');

const stringList = <T extends z.ZodType>(item: T, phrase: string) => phrased(z.array(item), phrase);

// ─── Sections ───────────────────────────────────────────────────────────────────────────────

/** @internal `identity.display_name` when not given (also a pure MCP gateway's name, which has no identity). */
export const _DEFAULT_DISPLAY_NAME = 'XProtocol MCP Adapter';

const identitySchema = z
  .strictObject({
    key_file: filePath().describe(
      'Path of the adapter key file (Ed25519 + X25519, JSON, mode 0600). Created on first start if missing.',
    ),
    display_name: phrased(z.string().min(1).max(128), 'a non-empty string of at most 128 characters')
      .default(_DEFAULT_DISPLAY_NAME)
      .describe('Human-readable name published in xp.endpoint.announce.'),
    parent_key: ed25519Key().describe(
      'The key that issued the last link of the chain in parent_delegation_event (checked at start).',
    ),
    parent_delegation_event: filePath().describe(
      'The chain file xprotocol-adapter register wrote for this key: checked at start, disclosed in the announce.',
    ),
    rotated_from: filePath().describe(
      'The rotation file xprotocol-adapter rotate wrote naming this key as the successor of an old key: checked at start, disclosed in the announce.',
    ),
  })
  .partial({ parent_key: true, parent_delegation_event: true, rotated_from: true })
  .describe('The adapter identity (not needed by a pure MCP gateway: no relay, no xprotocol_sources).');
phrased(identitySchema, 'a mapping with key_file (and display_name)');

/** @internal The `relay` mapping (its keys also tell the cross-checks a misspelt `urls`). */
export const _relaySchema = z
  .strictObject({
    urls: stringList(wsUrl(), 'a list of ws:// or wss:// URLs')
      .default([])
      .describe(
        'Relays to publish to and receive from (ws:// or wss://). The first OK acknowledges a publish.',
      ),
    reconnect_interval_seconds: phrased(
      z.number().gt(0).max(3600),
      'a number of seconds above 0, at most 3600',
    )
      .default(5)
      .describe('Base delay before reconnecting to a relay (backoff and jitter are added).'),
    event_ttl_seconds: phrased(
      z.number().int().min(1).max(86400),
      'a whole number of seconds from 1 to 86400',
    )
      .default(3600)
      .describe('The expiration the adapter puts on what it publishes, in seconds.'),
    replay_window_seconds: phrased(
      z.number().int().min(1).max(86400),
      'a whole number of seconds from 1 to 86400',
    ).describe(
      'Requests created longer ago are dropped as stale; ids are remembered for dedupe while inside it (default: event_ttl_seconds).',
    ),
    max_clock_skew_seconds: phrased(
      z.number().int().min(0).max(3600),
      'a whole number of seconds from 0 to 3600',
    )
      .default(300)
      .describe('How far ahead of the adapter clock a request created_at may be.'),
    replay_memory_max_ids: phrased(
      z.number().int().min(1000).max(100_000_000),
      'a whole number of ids from 1000 to 100000000',
    )
      .default(1_000_000)
      .describe(
        'Most request ids remembered for dedupe; past it the oldest are forgotten and requests created before them dropped as stale.',
      ),
  })
  .partial({ replay_window_seconds: true })
  .describe('XProtocol relay connection.');

const semanticSchema = z
  .strictObject({
    intent_verbs: stringList(nonEmpty(), 'a list of verbs').describe(
      'Verbs an agent would use for this tool.',
    ),
    data_subjects: stringList(nonEmpty(), 'a list of nouns').describe('What the tool acts on.'),
    domain: nonEmpty().describe('The domain (defaults to the last namespace segment).'),
    related_schemas: stringList(kind(), 'a list of kinds').describe('Kinds of related tools.'),
    use_when: nonEmpty().describe('When an agent should use this tool.'),
    do_not_use_when: nonEmpty().describe('When it should not (and what to use instead).'),
    example_inputs: phrased(
      z.array(z.record(z.string(), z.unknown())),
      'a list of argument mappings',
    ).describe('Example arguments.'),
  })
  .partial()
  .describe('Semantic annotations that replace the generated ones (docs/design.md §7).');

const overrideSchema = z
  .strictObject({
    description: nonEmpty().describe('Replaces the tool description.'),
    title: nonEmpty().describe('Replaces the tool title.'),
    required_capability: capability().describe('The capability a caller needs; always wins over inference.'),
    semantic: semanticSchema,
  })
  .partial()
  .describe('Overrides for one tool.');

const authSchema = z
  .strictObject({
    type: phrased(z.literal('bearer'), '"bearer"')
      .default('bearer')
      .describe('Only bearer tokens are supported.'),
    token_env: envName().describe(
      'Name of the environment variable holding the token (never the token itself).',
    ),
  })
  .describe('Authentication to a remote (sse / streamable_http) MCP server.');

const sourceAuthSchema = z
  .strictObject({
    type: phrased(z.enum(['bearer', 'oauth']), '"bearer" | "oauth"')
      .default('bearer')
      .describe(
        'bearer: a fixed token (token_env); oauth: the adapter is an OAuth 2.1 client of the server.',
      ),
    token_env: envName().describe(
      'bearer: name of the environment variable holding the token (never the token itself).',
    ),
    grant: phrased(
      z.enum(['client_credentials', 'authorization_code']),
      '"client_credentials" | "authorization_code"',
    )
      .default('authorization_code')
      .describe(
        'oauth: client_credentials (machine to machine, client_id and client_secret_env) or authorization_code (a user authorizes once with `xprotocol-adapter login <source>`).',
      ),
    client_id: nonEmpty('a client id').describe(
      'oauth: the client id registered at the authorization server (authorization_code without it: dynamic registration).',
    ),
    client_secret_env: envName().describe(
      'oauth: name of the environment variable holding the client secret (a confidential client).',
    ),
    scope: nonEmpty('a space-separated list of scopes').describe(
      'oauth: the scope to ask for (default: the 401 challenge’s, else the server’s scopes_supported).',
    ),
    client_metadata_url: nonEmpty('an https URL').describe(
      'oauth, authorization_code: the https URL of a Client ID Metadata Document you host, used as the client id where the authorization server accepts one (client_id_metadata_document_supported); elsewhere the adapter registers a client.',
    ),
    allow_insecure_loopback: phrased(z.boolean(), 'true or false')
      .default(false)
      .describe('oauth: accept http:// authorization server URLs on loopback (tests and development only).'),
  })
  .partial({
    token_env: true,
    client_id: true,
    client_secret_env: true,
    scope: true,
    client_metadata_url: true,
  })
  .describe('Authentication to a remote (sse / streamable_http) MCP server.');

const mcpSourceSchema = z
  .strictObject({
    name: sourceName().describe('Unique name of the source (used in logs and the announce).'),
    transport: phrased(
      z.enum(['stdio', 'sse', 'streamable_http']),
      '"stdio" | "sse" | "streamable_http"',
    ).describe('How to reach the MCP server.'),
    command: phrased(
      z.union([z.string().min(1), z.array(z.string()).min(1)]),
      'a command line or a non-empty list of arguments',
    ).describe('stdio: the command, split shell-style (never run through a shell), or an argv list.'),
    args: stringList(scalarText(), 'a list of arguments')
      .default([])
      .describe('stdio: arguments appended to the command.'),
    env: phrased(z.record(envName(), scalarText()), 'a mapping of environment variables')
      .default({})
      .describe('stdio: extra environment for the child (added to the SDK safe default environment).'),
    url: httpUrl().describe('sse / streamable_http: the server URL.'),
    auth: sourceAuthSchema,
    mcp_revision: phrased(
      z.enum(['2025-11-25', '2026-07-28', 'auto']),
      '"2025-11-25" | "2026-07-28" | "auto"',
    )
      .default('2025-11-25')
      .describe(
        'The MCP revision the server speaks: 2025-11-25 (sessions, initialize; also serves 2025-06-18 and older), 2026-07-28 (stateless), or auto (asked with server/discover at connect).',
      ),
    connect_timeout_seconds: phrased(z.number().gt(0).max(600), 'a number of seconds above 0, at most 600')
      .default(30)
      .describe(
        'How long one connection attempt to the server may take (the handshake, server/discover included), for the adapter’s own session and every gateway link.',
      ),
    xprotocol_namespace: namespace().describe(
      'Namespace of the generated kinds: tool read_file → {namespace}.read_file.',
    ),
    capability_inference: phrased(z.enum(['auto', 'explicit']), '"auto" | "explicit"')
      .default('auto')
      .describe(
        'auto: {namespace}.{class}; explicit: the listed capability whose last segment is the class.',
      ),
    capabilities: stringList(capability(), 'a list of capabilities')
      .default([])
      .describe(
        'Capabilities for capability_inference: explicit (for example internal.read, internal.write).',
      ),
    schema_overrides: phrased(z.record(nonEmpty('a tool name'), overrideSchema), 'a mapping of tool names')
      .default({})
      .describe('Per-tool overrides, keyed by MCP tool name.'),
    tool_allowlist: stringList(nonEmpty('a tool name'), 'a list of tool names').describe(
      'Expose only these tools (all when absent).',
    ),
    rate_limit: z
      .strictObject({
        requests_per_minute: phrased(
          z.number().int().min(1).max(1_000_000),
          'a whole number from 1 to 1000000',
        )
          .default(600)
          .describe('Token bucket capacity per (caller key, source); refills rpm/60 per second.'),
      })
      .default({ requests_per_minute: 600 })
      .describe('Per-caller rate limit.'),
    description_quality_threshold: ratio()
      .default(0.4)
      .describe('Warn about tools whose description scores below this.'),
    description_lint: phrased(z.enum(['quarantine', 'warn']), '"quarantine" | "warn"')
      .default('quarantine')
      .describe(
        'A new tool that description linting flags (invisible characters, instruction blocks, padding, over 8192 characters): quarantine (not published until approved) or warn (published with its findings).',
      ),
    instructions: phrased(z.string().max(8192), 'a text of at most 8192 characters')
      .optional()
      .describe(
        "Guidance for models about this server, given in place of the server's own instructions (empty: none).",
      ),
    description_quality_floor: ratio()
      .default(0.2)
      .describe('Refuse to publish tools whose description scores below this.'),
    schema_refresh_interval_seconds: phrased(
      z.number().int().min(1).max(86400),
      'a whole number of seconds from 1 to 86400',
    )
      .default(300)
      .describe('How often tools/list is fetched again.'),
    approvals: phrased(
      z.record(nonEmpty('a tool name'), phrased(z.enum(['auto', 'confirm']), '"auto" | "confirm"')),
      'a mapping of tool names to "auto" or "confirm"',
    )
      .default({})
      .describe(
        'Approval mode of single tools, keyed by MCP tool name: confirm asks the MCP face’s client (elicitation) before each call (docs/operating.md).',
      ),
    timeouts: z
      .strictObject({
        default_seconds: phrased(
          z.number().gt(0).max(3600),
          'a number of seconds above 0, at most 3600',
        ).describe('Timeout of a call to this source (instead of call_timeout_seconds).'),
        tools: phrased(
          z.record(
            nonEmpty('a tool name'),
            phrased(z.number().gt(0).max(3600), 'a number of seconds above 0, at most 3600'),
          ),
          'a mapping of tool names to seconds',
        )
          .default({})
          .describe('Timeout of a call to one tool, keyed by MCP tool name.'),
      })
      .partial({ default_seconds: true })
      .describe('Call timeouts of this source and of its tools.'),
  })
  .partial({ command: true, url: true, auth: true, tool_allowlist: true, timeouts: true })
  .describe('An MCP server to expose as an XProtocol endpoint.');

/** An OpenAPI service: its own keys (openapi-schema.ts) and the catalog keys of an MCP source. */
const openApiSourceSchema = mcpSourceSchema
  .pick({
    name: true,
    xprotocol_namespace: true,
    capability_inference: true,
    capabilities: true,
    schema_overrides: true,
    rate_limit: true,
    description_quality_threshold: true,
    description_lint: true,
    description_quality_floor: true,
    schema_refresh_interval_seconds: true,
    timeouts: true,
  })
  .extend(_openApiKeys)
  .describe('An OpenAPI service whose operations become tools, served like an MCP source’s.');

const xprotocolSourceSchema = z
  .strictObject({
    name: sourceName().describe('Unique name of the source.'),
    endpoint: xpEndpoint().describe('xp://host[:port]: resolved through /.well-known/xprotocol-endpoint.'),
    key: ed25519Key().describe('The endpoint key, with relay (instead of endpoint).'),
    relay: phrased(
      z.union([wsUrl(), z.array(wsUrl()).min(1)]),
      'a ws:// or wss:// URL or a non-empty list of them',
    ).describe('Relay(s) where the endpoint listens, with key.'),
    mcp_tool_prefix: phrased(
      z.string().regex(/^[A-Za-z0-9_-]{0,32}$/),
      'at most 32 characters of [A-Za-z0-9_-]',
    )
      .default('')
      .describe('Prefix of the MCP tool names (weather_ + weather.current.get → weather_current_get).'),
    schema_filter: stringList(kind(), 'a list of kinds')
      .default([])
      .describe('Kinds to expose as tools; empty exposes all.'),
    trust_root: phrased(
      z.union([ed25519Key(), z.array(ed25519Key()).min(1)]),
      `${ED25519_PHRASE} or a non-empty list of them`,
    ).describe(
      'Root key(s) whose delegation chain must vouch for the endpoint: without one, or outside its capabilities, nothing is listed.',
    ),
    dns: phrased(z.enum(['required', 'if_published', 'off']), '"required" | "if_published" | "off"')
      .default('if_published')
      .describe(
        'With endpoint: the key must be one _xprotocol.<host> publishes in DNS TXT (required), only when the host publishes records (if_published), or DNS is not asked (off).',
      ),
    instructions: phrased(z.string().max(8192), 'a text of at most 8192 characters').describe(
      'Guidance for models about this endpoint, given in place of the instructions in its catalog (empty: none).',
    ),
  })
  .partial({ endpoint: true, key: true, relay: true, trust_root: true, instructions: true })
  .describe('An XProtocol endpoint to expose as MCP tools.');

const oauthSchema = z
  .strictObject({
    issuer: httpUrl().describe(
      'The authorization server (its issuer identifier): a token’s iss must be exactly this.',
    ),
    resource: httpUrl().describe(
      'This face’s resource identifier, its public URL (e.g. https://mcp.example.com/mcp): a token’s aud must include it.',
    ),
    jwks_url: httpUrl().describe('The authorization server’s JWKS (default: jwks_uri from its metadata).'),
    required_scopes: stringList(nonEmpty(), 'a list of scopes')
      .default([])
      .describe('Scopes every request needs (403 insufficient_scope without them).'),
    scopes_supported: stringList(nonEmpty(), 'a list of scopes').describe(
      'Scopes listed in the protected resource metadata (default: required_scopes).',
    ),
    grants: phrased(
      z.array(
        z.strictObject({
          subject: nonEmpty().describe('A token subject (sub).'),
          capabilities: stringList(grant(), 'a list of capabilities').describe('What that subject may call.'),
        }),
      ),
      'a list of {subject, capabilities}',
    )
      .default([])
      .describe('Capabilities by subject, beyond what the token’s capability-shaped scopes give.'),
  })
  .partial({ jwks_url: true, scopes_supported: true })
  .describe(
    'OAuth 2.1 on the HTTP face: JWT access tokens of one authorization server, tools by scope (instead of auth).',
  );

const mcpServerSchema = z
  .strictObject({
    transport: phrased(
      z.enum(['stdio', 'streamable_http', 'sse']),
      '"stdio" | "streamable_http" | "sse"',
    ).describe('How MCP clients connect to this adapter.'),
    host: host().describe('HTTP bind address (default 127.0.0.1).'),
    sse_host: host().describe('Alias of host.'),
    port: port().describe('HTTP port (default 8767).'),
    sse_port: port().describe('Alias of port.'),
    path: phrased(z.string().regex(/^\/[^\s?#]*$/), 'a URL path starting with "/"').describe(
      'HTTP path (default /mcp).',
    ),
    expose: phrased(
      z.array(z.enum(['xprotocol_sources', 'mcp_sources'])).min(1),
      'a non-empty list of "xprotocol_sources" | "mcp_sources"',
    ).describe(
      'What the MCP face lists as tools (default [xprotocol_sources]; without a relay, the mcp_sources too).',
    ),
    auth: authSchema.describe(
      'A bearer token MCP clients must send over HTTP (Authorization: Bearer …), read from token_env.',
    ),
    oauth: oauthSchema,
    max_sessions: count()
      .default(64)
      .describe(
        "Most MCP sessions at once over HTTP, every principal's together; beyond it a principal's new session ends its own least recently used idle one, or gets 503.",
      ),
    max_sessions_per_principal: count().describe(
      'Most MCP sessions one principal may hold (default a quarter of max_sessions); beyond it its least recently used idle one ends, or the new one gets 429.',
    ),
    max_requests_in_flight: count()
      .default(32)
      .describe(
        "Most requests one session (or one principal's 2026-07-28 requests) may have in flight; more get 429 until some are answered.",
      ),
    max_requests_in_flight_per_principal: count().describe(
      'Most requests one principal may have in flight across its sessions and 2026-07-28 requests (default a quarter of max_requests_in_flight_total); more get 429.',
    ),
    max_requests_in_flight_total: count()
      .default(256)
      .describe("Most requests in flight on the face, every principal's together; more get 503."),
    max_leases: count()
      .default(64)
      .describe(
        '2026-07-28 calls that may ask their client for input, each on a session of its own with the server (leases), at once; more are refused.',
      ),
    max_leases_per_principal: count().describe(
      'Leases one principal may hold at once (default a quarter of max_leases); more are refused.',
    ),
    max_upstream_processes: count()
      .default(32)
      .describe(
        "Processes of each stdio mcp_source that MCP sessions and leases may run at once, every principal's together; a call needing one more is refused.",
      ),
    max_upstream_processes_per_principal: count().describe(
      'Processes of each stdio mcp_source one principal may hold (default a quarter of max_upstream_processes).',
    ),
    idempotency_window_seconds: phrased(
      z.number().int().min(0).max(2_592_000),
      'a whole number of seconds from 0 to 2592000',
    )
      .default(86_400)
      .describe(
        'How long a tools/call made with an idempotency key (_meta "io.xprotocol/idempotency-key") is recorded and its retries answered from the record (default 86400; 0: keys are ignored).',
      ),
    listing: phrased(z.enum(['full', 'compact', 'search']), '"full" | "compact" | "search"')
      .default('full')
      .describe(
        'How much of each tool tools/list shows: full definitions, compact summaries (describe_tool gives the rest), or only search_tools and the tools used lately.',
      ),
    result_summary_bytes: phrased(
      z
        .number()
        .int()
        .min(0)
        .max(256 * 1024 * 1024),
      'an integer from 0 to 268435456',
    )
      .default(64 * 1024)
      .describe(
        'Most bytes of text a tool result carries in content[]; beyond it content[] is a summary pointing to structuredContent, which keeps the whole result (0: off).',
      ),
    max_result_bytes: phrased(
      z
        .number()
        .int()
        .min(1024)
        .max(256 * 1024 * 1024),
      'an integer from 1024 to 268435456',
    )
      .default(16 * 1024 * 1024)
      .describe(
        'Largest answer sent to a client, in bytes of JSON; a bigger one becomes an error (TOO_LARGE).',
      ),
    allowed_origins: stringList(httpOrigin(), 'a list of http:// or https:// origins')
      .default([])
      .describe(
        'Browser origins allowed besides the face’s own (scheme://host[:port], compared exactly), e.g. http://localhost:6274.',
      ),
  })
  .partial({
    host: true,
    sse_host: true,
    port: true,
    sse_port: true,
    path: true,
    expose: true,
    auth: true,
    oauth: true,
    max_sessions_per_principal: true,
    max_requests_in_flight_per_principal: true,
    max_leases_per_principal: true,
    max_upstream_processes_per_principal: true,
  })
  .describe('The MCP face of the adapter (none when absent).');

const discoverySchema = z
  .strictObject({
    publish_dns: phrased(z.boolean(), 'true or false').describe(
      'Print at start the DNS TXT record to publish at _xprotocol.<dns_name> (needs dns_name).',
    ),
    dns_name: dnsName().describe('The domain callers reach this adapter by (xp://<dns_name>).'),
    dns_servers: phrased(z.array(dnsServer()).min(1), `a non-empty list of ${DNS_SERVER_PHRASE}`).describe(
      'DNS servers asked for TXT records and for the addresses of xp:// hosts (default: the system resolver).',
    ),
    well_known_port: port().describe(
      'Serve /.well-known/xprotocol-endpoint and /xp/schemas on this port (off when absent).',
    ),
    well_known_host: host().describe('Bind address of the discovery server (default 127.0.0.1).'),
  })
  .partial()
  .describe('HTTP discovery.');

const loggingSchema = z
  .strictObject({
    level: phrased(z.enum(['debug', 'info', 'warn', 'error']), '"debug" | "info" | "warn" | "error"')
      .default('info')
      .describe('Lowest level logged.'),
    format: phrased(z.enum(['auto', 'pretty', 'json', 'text']), '"auto" | "pretty" | "json" | "text"')
      .default('auto')
      .describe(
        'auto: readable text on a terminal, JSON lines otherwise; pretty (or text): readable text; json: JSON lines.',
      ),
    output: phrased(filePath(), '"stderr", "stdout" or a file path')
      .default('stderr')
      .describe('stderr (default), stdout (not with mcp_server.transport: stdio) or a file path.'),
  })
  .describe('Logging.');

const accessSchema = z
  .strictObject({
    default: phrased(z.enum(['deny', 'allow']), '"deny" | "allow"')
      .default('deny')
      .describe('deny: only granted keys may call; allow: anyone may (warned).'),
    grants: phrased(
      z.array(
        z.strictObject({
          key: ed25519Key().describe('The caller key.'),
          capabilities: phrased(z.array(grant()).min(1), 'a non-empty list of capabilities').describe(
            'Capabilities granted: exact, a.b.* (a.b.x and deeper) or * (everything).',
          ),
        }),
      ),
      'a list of grants',
    )
      .default([])
      .describe('Keys allowed to call, with their capabilities.'),
    trusted_issuers: stringList(ed25519Key(), 'a list of ed25519 keys')
      .default([])
      .describe(
        "Roots whose delegation chains callers may present: a caller without a grant of its own holds what both its chain and the root's own grant in grants cover (docs/config.md).",
      ),
  })
  .describe('Who may call the wrapped MCP servers.');

const sharedStateSchema = z
  .strictObject({
    database: phrased(
      z.string().regex(/^postgres(ql)?:\/\/[^/\s]+\/[^/\s?#]+/, {
        error: 'expected a postgres://user:password@host:port/database URL',
      }),
      'a postgres://user:password@host:port/database URL',
    )
      .optional()
      .describe(
        'Postgres database the adapter replicas of one key share: which requests were claimed, the answers waiting for a relay (docs/deploy.md). Default: state_database, when that is a postgres:// URL.',
      ),
    lease_seconds: phrased(z.number().int().min(2).max(3600), 'an integer number of seconds from 2 to 3600')
      .default(15)
      .describe(
        'A replica that does not renew its lease for this long is taken for dead: another replica sends its answers and answers its interrupted calls.',
      ),
  })
  .describe('Replicas: the call journal and outbox shared in Postgres (docs/deploy.md).');

const networkSchema = z
  .strictObject({
    allow_private: stringList(
      phrased(
        z.string().refine((s) => parseCidr(s) !== undefined, {
          error: 'expected a CIDR range such as 10.0.0.0/8 or fd00::/8, or one IP address',
        }),
        'a CIDR range such as 10.0.0.0/8 or fd00::/8, or one IP address',
      ),
      'a list of CIDR ranges',
    )
      .default([])
      .describe(
        'Private, loopback, link-local and other special ranges that addresses learned from remote documents (relays in a well-known document, the host of an xp:// endpoint) may use; empty refuses them all (docs/security.md).',
      ),
  })
  .describe('Outbound connections to addresses learned at run time.');

const limitsSchema = z
  .strictObject({
    max_argument_depth: phrased(z.number().int().min(1).max(10_000), 'an integer from 1 to 10000')
      .default(64)
      .describe('Deepest nesting of objects and arrays accepted in tool-call arguments.'),
    max_argument_bytes: phrased(
      z
        .number()
        .int()
        .min(1024)
        .max(64 * 1024 * 1024),
      'an integer from 1024 to 67108864',
    )
      .default(4 * 1024 * 1024)
      .describe('Largest JSON size of tool-call arguments, in bytes.'),
  })
  .describe('Limits on what clients send (docs/security.md).');

/** The zod schema of the YAML configuration file (snake_case keys, as written). */
export const configFileSchema = phrased(
  z
    .strictObject({
      identity: identitySchema,
      relay: _relaySchema.default({
        urls: [],
        reconnect_interval_seconds: 5,
        event_ttl_seconds: 3600,
        max_clock_skew_seconds: 300,
        replay_memory_max_ids: 1_000_000,
      }),
      mcp_sources: phrased(z.array(mcpSourceSchema), 'a list of MCP sources')
        .default([])
        .describe('MCP servers to expose as XProtocol endpoints.'),
      openapi_sources: phrased(z.array(openApiSourceSchema), 'a list of OpenAPI sources')
        .default([])
        .describe('OpenAPI services whose operations are served as tools, like the mcp_sources’.'),
      xprotocol_sources: phrased(z.array(xprotocolSourceSchema), 'a list of XProtocol sources')
        .default([])
        .describe('XProtocol endpoints to expose as MCP tools.'),
      mcp_server: mcpServerSchema,
      discovery: discoverySchema.default({}),
      logging: loggingSchema.default({ level: 'info', format: 'auto', output: 'stderr' }),
      access: accessSchema,
      state_database: filePath().describe(
        'State database (dedupe, outbox, tool pins, assigned names, schema versions): a file, default ~/.xprotocol/state/<ed25519 hex>.db, or a postgres://user:password@host:port/database URL that adapter replicas of one key share (docs/deploy.md).',
      ),
      shared_state: sharedStateSchema.optional(),
      call_timeout_seconds: phrased(z.number().gt(0).max(3600), 'a number of seconds above 0, at most 3600')
        .default(30)
        .describe('Timeout of calls to XProtocol endpoints.'),
      network: networkSchema.default({ allow_private: [] }),
      limits: limitsSchema.default({ max_argument_depth: 64, max_argument_bytes: 4 * 1024 * 1024 }),
      admin: _adminSchema,
      audit: _auditSchema,
      tracing: _tracingSchema,
    })
    // identity: required unless the file is a pure MCP gateway (cross-checks.ts, config/mode.ts).
    .partial({
      identity: true,
      mcp_server: true,
      access: true,
      state_database: true,
      admin: true,
      audit: true,
      tracing: true,
    })
    .describe('XProtocol MCP Adapter configuration (docs/config.md).'),
  'a mapping of settings (identity, relay, mcp_sources, …)',
);

/** The configuration file as written (input side: defaults may be left out). */
export type ConfigFileInput = z.input<typeof configFileSchema>;
/** The configuration file after validation, with defaults filled in. */
export type ConfigFile = z.output<typeof configFileSchema>;
