/**
 * What an MCP face is made of: its XProtocol sources (`xprotocol_sources`), the wrapped MCP
 * servers it lists as they are (gateway mode), its options, and the options of each server it
 * makes.
 * @module
 */
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { ContractLike, JsonLimits } from '@xprotocol/translate';
import type { XpCaller } from '../caller/xp-caller.js';
import type { BridgeLogger } from '../logger.js';
import type { CallObserver } from '../observe/call-observer.js';
import type { Tracer } from '../observe/tracer.js';
import type { ApprovalMode } from '../policy/approval-mode.js';
import type { DescriptionLintMode } from '../policy/listing-screen.js';
import type { StateDatabase } from '../state/state-database.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';
import type { ListingMode } from './listing-modes.js';
import type { FaceMayUse } from './request-scopes.js';

/** One `xprotocol_sources` entry: a key, or an `xp://` endpoint resolved through discovery. */
export interface XpToolSource {
  name: string;
  /** The endpoint's identity key (`ed25519:…`), when configured by key. */
  key?: string | undefined;
  /** `xp://host[:port]`, when configured by endpoint (needs {@link McpFaceOptions.discover}). */
  endpoint?: string | undefined;
  /** How the provenance note names the endpoint (`xp://host` or the key). */
  label: string;
  /** `mcp_tool_prefix`. */
  prefix: string;
  /** `schema_filter`: kinds to expose; empty exposes all. */
  schemaFilter: readonly string[];
  /**
   * `trust_root`: the endpoint's announce must carry a delegation chain from one of these keys
   * that vouches for it (caller/endpoint-vouching.ts), checked at each catalog fetch and each
   * call; only tools whose capability the chain grants are listed and called. Absent or empty:
   * no chain is asked for.
   */
  trustRoots?: readonly string[] | undefined;
  /**
   * `xprotocol_sources[].instructions`: the operator's guidance for this endpoint, given to
   * clients in place of the `instructions` of its catalog (empty: none at all). Absent: the
   * catalog's.
   */
  instructions?: string | undefined;
}

/**
 * A wrapped MCP server exposed on the face as it is (gateway mode, `expose: [mcp_sources]`): its
 * published contracts, and a way to call its tools directly.
 */
export interface LocalToolSource {
  name: string;
  /**
   * Its `xprotocol_namespace`: the capabilities of its resources, prompts, completions and log
   * level are named under it (`<namespace>.mcp.resources.read`, …), as for XProtocol callers.
   * Default: the namespace its contracts were translated under; with neither, only a client that
   * may use everything (`*`) uses them.
   */
  namespace?: string | undefined;
  /** The adapter's own key (hashed into shortened names). */
  key: string;
  /** The source's published contracts (current at each refresh). */
  contracts: () => readonly ContractLike[];
  /**
   * The source's tool contracts as its server offers them to 2026-07-28 clients, when it offers
   * those other tools than `contracts` (a server speaking both revisions, read in 2025-11-25 for
   * `contracts`): the face's 2026-07-28 clients list and call these, its 2025-11-25 clients
   * `contracts`. Undefined: every client gets `contracts`. A kind in both whose contracts differ
   * is checked and listed for 2026-07-28 clients by this one (the server's definition in that
   * revision), for 2025-11-25 clients by `contracts`' one.
   */
  modernContracts?: () => readonly ContractLike[] | undefined;
  /** Calls the upstream tool behind `kind` (arguments already validated). */
  call: (kind: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /**
   * The approval mode of the tool behind `kind` (docs/operating.md, "Approvals"): `confirm` asks
   * the face's client through elicitation before each call. Absent: every tool is `auto`.
   */
  approval?: (kind: string) => ApprovalMode;
  /**
   * Lists the server again when it serves no tools because it waits for a person to authorize a
   * new grant (a new authorization server; docs/security.md, "OAuth to upstream servers"); run in
   * a face `tools/list` whose client can open the URL. True when it lists its tools now.
   */
  authorize?: () => Promise<boolean>;
  /** `rate_limit.requests_per_minute`: tool calls per principal of the face (none when absent). */
  requestsPerMinute?: number;
  /**
   * Why the server serves no tools now (it cannot be reached: the last connection error, the
   * server's own when it gave one), or `undefined` while it is connected. A call of an unknown
   * tool says it: that tool may be one of this server's.
   */
  unreachable?: () => string | undefined;
  /**
   * A check beyond the schema: why `args` are refused for the tool behind `kind`, or `undefined`
   * (a quarantined tool refuses arguments its pinned definition does not name; docs/security.md,
   * "Tool pinning"). Refused like a schema violation. `modern`: the caller is a 2026-07-28 client
   * (that revision's definition is the one checked).
   */
  checkArguments?: (kind: string, args: Record<string, unknown>, modern?: boolean) => string | undefined;
  /**
   * `description_lint`: whether the server's instructions, prompts and resources that description
   * linting flags are withheld from clients (`quarantine`, the default) or passed on (`warn`).
   */
  descriptionLint?: DescriptionLintMode;
  /**
   * `mcp_sources[].instructions`: the operator's guidance for this source, given to clients in
   * place of the server's own `instructions` (empty: none at all). Absent: the server's own.
   */
  instructions?: string | undefined;
  /**
   * Passthrough: how each MCP client of the face gets its own session with the server, and the
   * server's capabilities. With it the face forwards everything MCP carries (tools with progress,
   * logging, sampling, elicitation and roots; resources; prompts; completions; cancellation;
   * the server's JSON-RPC errors) instead of calling `call` (docs/architecture.md, "The MCP
   * gateway").
   */
  gateway?: {
    transport: UpstreamTransport;
    capabilities: () => ServerCapabilities | undefined;
    /** The server's own name of the tool behind `kind`. */
    toolName: (kind: string) => string | undefined;
    /**
     * The tool behind `kind` as the server listed it (icons, `_meta`, description as written):
     * listed under its face name instead of the catalog's definition, when given. `modern`: as
     * the server lists it to 2026-07-28 clients.
     */
    definition?: (kind: string, modern?: boolean) => Record<string, unknown> | undefined;
    /** The server's `instructions` from its `initialize`, screened and passed on in the face's (face-instructions.ts). */
    instructions?: () => string | undefined;
    /** The timeout of the server's tool `name`, in ms, when it has its own (`mcp_sources[].timeouts`). */
    toolTimeoutMs?: (name: string) => number | undefined;
  };
}

/** Options of {@link McpFace}. */
export interface McpFaceOptions {
  /**
   * Calls the XProtocol sources; required when `sources` is not empty. A face over
   * `localSources` only (a pure MCP gateway: no relay, no identity) has none.
   */
  caller?: XpCaller | undefined;
  state: StateDatabase;
  sources: readonly XpToolSource[];
  /** Wrapped MCP servers to list as they are (gateway mode). */
  localSources?: readonly LocalToolSource[];
  /** Timeout of one `tools/call` round trip, in ms. */
  callTimeoutMs: number;
  /** Told about every `tools/call` once it ended (metrics, the audit log; docs/operating.md). */
  observer?: CallObserver | undefined;
  /**
   * Makes a span of every `tools/call`, a child of the client's `_meta.traceparent`, and sends
   * the trace on to XProtocol endpoints (docs/operating.md, "Traces"); absent: no tracing at all.
   */
  tracer?: Tracer | undefined;
  /**
   * How long a call made with an idempotency key (`_meta["io.xprotocol/idempotency-key"]`) is
   * recorded, and its retries answered from the record, in seconds (docs/operating.md,
   * "Idempotency and replay"). Default 86400; 0 turns idempotency off (keys are then ignored).
   */
  idempotencyWindowSeconds?: number | undefined;
  /** How long a catalog fetch (announce + pages) may take, in ms. Default 10000. */
  catalogTimeoutMs?: number;
  /**
   * Resolves an `xp://` endpoint to its key (and makes its relays reachable); required when a
   * source is configured by `endpoint`. `source` names the source, whose own checks (its DNS
   * policy) apply.
   */
  discover?: (endpoint: string, source: string) => Promise<{ key: string }>;
  /** SHA-256 for hashed tool names. */
  sha256: (data: Uint8Array) => Uint8Array;
  serverInfo: { name: string; version: string };
  /**
   * The whole `instructions` of `initialize`, in place of the ones the face composes from its
   * sources (face-instructions.ts); its first 512 characters should stand alone.
   */
  instructions?: string;
  /**
   * Add the `search_tools` tool, which finds tools for a task without loading every schema
   * (docs/design.md §7). Default true; skipped (with a warning) when a real tool already has the
   * name.
   */
  searchTool?: boolean;
  /**
   * How much of each tool `tools/list` shows (listing-modes.ts): `full` (default), `compact` or
   * `search`; the last two add `describe_tool`.
   */
  listing?: ListingMode | undefined;
  /**
   * The most bytes of text a tool result's `content[]` carries (result-summary.ts): beyond it,
   * `content[]` is a summary within the bound pointing to `structuredContent`, which keeps the
   * whole result. 0 leaves results as they are. Default 65,536 (`DEFAULT_RESULT_SUMMARY_BYTES`).
   */
  resultSummaryBytes?: number | undefined;
  /** Depth and size limits on `tools/call` arguments (docs/security.md). Default {@link DEFAULT_ARGUMENT_LIMITS}. */
  argumentLimits?: JsonLimits;
  /** How much of the face's leases and upstream processes its clients may hold (docs/security.md). */
  limits?: FaceLimits;
  logger?: BridgeLogger;
}

/**
 * The face's shares between principals of what its servers hold beyond a request (docs/security.md,
 * "Fair shares between principals"). Each `…PerPrincipal` defaults to a quarter of its ceiling; the
 * face's one principal (no authentication, or the static token) is held to the ceiling only.
 */
export interface FaceLimits {
  /**
   * Leases at once (2026-07-28 calls on a 2025 server that may ask their client for input, each on
   * a session of its own with the server; docs/architecture.md, "Two MCP revisions"). Default 64.
   */
  maxLeases?: number | undefined;
  /** Leases one principal may hold at once. Default a quarter of `maxLeases`. */
  maxLeasesPerPrincipal?: number | undefined;
  /**
   * Upstream processes per stdio source that clients' sessions and leases may run at once (each
   * MCP session in gateway mode starts its own child of a stdio source on first use). Default 32.
   * The adapter's own session with each source and the one the 2026-07-28 requests share are not
   * counted.
   */
  maxUpstreamProcesses?: number | undefined;
  /** Upstream processes per stdio source one principal may hold at once. Default a quarter of `maxUpstreamProcesses`. */
  maxUpstreamProcessesPerPrincipal?: number | undefined;
}

/** Options of {@link McpFace.createServer}. */
export interface FaceServerOptions {
  /**
   * `caller` leaves the rate limits to the caller (the HTTP face takes the tokens itself, per
   * principal, to answer `429`); by default each server is one client here (the stdio face).
   */
  rateLimits?: 'caller';
  /**
   * `modern`: the server answers one 2026-07-28 request (no session; the client's capabilities
   * come with the request); `legacy` (default): one 2025-11-25 session.
   */
  era?: 'legacy' | 'modern';
  /**
   * What the client of each request may use (the HTTP face's OAuth scopes and grants): its
   * listings and `search_tools` show only that, and any other request is refused. Everything when
   * absent (the static token, stdio).
   */
  mayUse?: FaceMayUse | undefined;
  /**
   * The principal the server answers, for its share of the face's leases and upstream processes
   * ({@link FaceLimits}); absent: the face's one principal, held to the ceilings only.
   */
  principal?: string | undefined;
}

/**
 * The face's caller, for work that only XProtocol sources bring; the face refuses to be made with
 * sources and no caller, so this throwing is a bug in the face.
 */
export function _callerOf(options: McpFaceOptions): XpCaller {
  if (!options.caller) throw new Error('internal: an XProtocol source reached a face made without a caller');
  return options.caller;
}
