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
import type { DescriptionLintMode } from '../policy/listing-screen.js';
import type { StateDatabase } from '../state/state-database.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';

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
}

/**
 * A wrapped MCP server exposed on the face as it is (gateway mode, `expose: [mcp_sources]`): its
 * published contracts, and a way to call its tools directly.
 */
export interface LocalToolSource {
  name: string;
  /** The adapter's own key (hashed into shortened names). */
  key: string;
  /** The source's published contracts (current at each refresh). */
  contracts: () => readonly ContractLike[];
  /** Calls the upstream tool behind `kind` (arguments already validated). */
  call: (kind: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** `rate_limit.requests_per_minute`: tool calls per MCP session of the face (none when absent). */
  requestsPerMinute?: number;
  /**
   * A check beyond the schema: why `args` are refused for the tool behind `kind`, or `undefined`
   * (a quarantined tool refuses arguments its pinned definition does not name; docs/security.md,
   * "Tool pinning"). Refused like a schema violation.
   */
  checkArguments?: (kind: string, args: Record<string, unknown>) => string | undefined;
  /**
   * `description_lint`: whether the server's instructions, prompts and resources that description
   * linting flags are withheld from clients (`quarantine`, the default) or passed on (`warn`).
   */
  descriptionLint?: DescriptionLintMode;
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
     * listed under its face name instead of the catalog's definition, when given.
     */
    definition?: (kind: string) => Record<string, unknown> | undefined;
    /** The server's `instructions` from its `initialize`, passed on when the face has none of its own. */
    instructions?: () => string | undefined;
    /** The timeout of the server's tool `name`, in ms, when it has its own (`mcp_sources[].timeouts`). */
    toolTimeoutMs?: (name: string) => number | undefined;
  };
}

/** Options of {@link McpFace}. */
export interface McpFaceOptions {
  caller: XpCaller;
  state: StateDatabase;
  sources: readonly XpToolSource[];
  /** Wrapped MCP servers to list as they are (gateway mode). */
  localSources?: readonly LocalToolSource[];
  /** Timeout of one `tools/call` round trip, in ms. */
  callTimeoutMs: number;
  /** How long a catalog fetch (announce + pages) may take, in ms. Default 10000. */
  catalogTimeoutMs?: number;
  /**
   * Resolves an `xp://` endpoint to its key (and makes its relays reachable); required when a
   * source is configured by `endpoint`.
   */
  discover?: (endpoint: string) => Promise<{ key: string }>;
  /** SHA-256 for hashed tool names. */
  sha256: (data: Uint8Array) => Uint8Array;
  serverInfo: { name: string; version: string };
  /** Cross-tool guidance for `initialize` (its first 512 characters should stand alone). */
  instructions?: string;
  /**
   * Add the `search_tools` tool, which finds tools for a task without loading every schema
   * (docs/design.md §7). Default true; skipped (with a warning) when a real tool already has the
   * name.
   */
  searchTool?: boolean;
  /** Depth and size limits on `tools/call` arguments (docs/security.md). Default {@link DEFAULT_ARGUMENT_LIMITS}. */
  argumentLimits?: JsonLimits;
  logger?: BridgeLogger;
}

/** Options of {@link McpFace.createServer}. */
export interface FaceServerOptions {
  /**
   * `caller` leaves the rate limits to the caller (the HTTP face takes the tokens itself, per
   * HTTP session, to answer `429`); by default each server is one session here.
   */
  rateLimits?: 'caller';
  /**
   * `modern`: the server answers one 2026-07-28 request (no session; the client's capabilities
   * come with the request); `legacy` (default): one 2025-11-25 session.
   */
  era?: 'legacy' | 'modern';
  /** Which tools the client may see listed (OAuth grants); every tool when absent. */
  listed?: ((name: string) => boolean) | undefined;
}
