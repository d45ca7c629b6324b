/**
 * What the XProtocol endpoint is made of (its identity, relays, state, catalog, upstreams, access
 * policy and limits), the defaults of its limits, and what becomes of each inbound event.
 * @module
 */
import type { CipherBackend, Identity, SignatureBackend, XpEvent } from '@xprotocol/crypto';
import type { RelayPool } from '@xprotocol/relay-client';
import { DEFAULT_ARGUMENT_LIMITS, type JsonLimits } from '@xprotocol/translate';
import type { XpErrorCode } from '@xprotocol/wire';
import type { BridgeLogger } from '../logger.js';
import type { CallObserver } from '../observe/call-observer.js';
import type { Tracer } from '../observe/tracer.js';
import type { AccessPolicy } from '../policy/access.js';
import type { ApprovalMode } from '../policy/approval-mode.js';
import type { StateDatabase } from '../state/state-database.js';
import type { EndpointCatalog } from './endpoint-catalog.js';
import { DEFAULT_REVOCATION_REQUERY_SECONDS, DEFAULT_REVOCATION_WAIT_MS } from './revocation-watch.js';
import type { ToolProvider } from './tool-provider.js';
import type { _XpMcpSource } from './xp-mcp-router.js';
import type { McpSessionLimits } from './xp-mcp-sessions.js';

/** Options of {@link XpEndpoint}. */
export interface XpEndpointOptions {
  identity: Identity;
  pool: RelayPool;
  state: StateDatabase;
  catalog: EndpointCatalog;
  /**
   * What runs each source's tools, by source name: the upstream sessions by `mcp_sources[].name`,
   * or in-process handlers ({@link ToolProvider}).
   */
  upstreams: ReadonlyMap<string, ToolProvider>;
  access: AccessPolicy;
  /**
   * The wrapped servers in configuration order with their XProtocol namespaces: `xp.mcp.request`
   * (resources, prompts, completion; docs/protocol.md §10.4) is routed among them and guarded by
   * `<namespace>.mcp.*` capabilities. Default: every upstream, its name as its namespace.
   */
  mcpSources?: readonly _XpMcpSource[];
  /** `rate_limit.requests_per_minute` by source name; default 600. */
  requestsPerMinute?: ReadonlyMap<string, number>;
  /** Longest an upstream call may run, in ms (also bounded by the request's expiration). Default 30000. */
  callTimeoutMs?: number;
  /**
   * The timeout of one tool of one source, in ms, when it has its own (`undefined`: use
   * `callTimeoutMs`). Still bounded by the request's expiration.
   */
  callTimeoutFor?: (source: string, tool: string) => number | undefined;
  /** Clock skew allowed for `created_at`: later is dropped as from the future, in s. Default 300. */
  maxFutureSeconds?: number;
  /**
   * How often the subscription to revocations (docs/protocol.md §11.2) is made again, in s: the
   * bound on honouring one a relay did not deliver live. Default 60.
   */
  revocationRequerySeconds?: number;
  /** How long a call under a chain with an issuer not watched yet waits for its stored revocations, in ms. Default 5000. */
  revocationWaitMs?: number;
  /**
   * The replay window: a request whose `created_at` is older is dropped as stale, and ids are
   * remembered for dedupe while their `created_at` is inside it, in s. Default 3600.
   */
  retentionSeconds?: number;
  /**
   * Most request ids the dedupe memory keeps (docs/protocol.md §4). Past it the oldest are
   * forgotten and every request created at or before them is refused as stale. Default 1,000,000.
   */
  maxRememberedIds?: number;
  /** Lifetime of the answers the endpoint publishes when the request had no expiration, in s. Default 3600. */
  answerTtlSeconds?: number;
  /** Calls run at once; more wait in line. Default 32. */
  maxConcurrentCalls?: number;
  /** Depth and size limits on a call's payload (docs/security.md). Default {@link DEFAULT_ARGUMENT_LIMITS}. */
  argumentLimits?: JsonLimits;
  /** Limits of the callers' MCP sessions (docs/protocol.md §10.5). */
  mcpSessions?: McpSessionLimits;
  /** The `clientInfo` the endpoint's sessions with the servers give when the caller gave none. */
  clientInfo?: { name: string; version: string };
  signatures: SignatureBackend;
  cipher: CipherBackend;
  logger?: BridgeLogger;
  /**
   * Hears what became of each event the relays delivered or `handleEvent` was given, once it is
   * settled; `request` is the event once its shape, id and signature were verified. For counts
   * and status: it must return quickly, and what it throws is ignored.
   */
  /** Told about every tool call once it was answered (metrics, the audit log; docs/operating.md). */
  observer?: CallObserver | undefined;
  /**
   * Makes a span of every tool call, a child of the caller's span named in the request's `trace`
   * tag (docs/protocol.md §10.12), and one of its upstream request, whose `traceparent` goes to the
   * server in `params._meta`; absent: no tracing at all (docs/operating.md, "Traces").
   */
  tracer?: Tracer | undefined;
  /**
   * The approval mode of a source's tool (by its name at the server): `confirm` asks the caller's
   * MCP client across XProtocol before the call runs (docs/operating.md, "Approvals"). Absent:
   * every tool is `auto`.
   */
  approvalOf?: ((source: string, tool: string) => ApprovalMode) | undefined;
  onOutcome?: (outcome: InboundOutcome, request: XpEvent | undefined) => void;
  /** The clock, in ms. */
  now?: () => number;
}

/** What became of one inbound event (returned for tests and logs). */
export type InboundOutcome =
  | { action: 'dropped'; reason: string }
  | { action: 'ignored'; reason: string }
  | {
      action: 'answered';
      kind: string;
      /** The `xp.error` code of a refusal; `undefined` for a result. */
      code: XpErrorCode | undefined;
      /** The `xp.error` message of a refusal. */
      message?: string;
      answer: XpEvent;
    };

/** The options with every default filled in. */
export type _ResolvedOptions = Required<
  Omit<
    XpEndpointOptions,
    | 'requestsPerMinute'
    | 'logger'
    | 'now'
    | 'mcpSources'
    | 'mcpSessions'
    | 'clientInfo'
    | 'onOutcome'
    | 'observer'
    | 'tracer'
  >
>;

/** `options` with the defaults of what it leaves out. */
export function _resolveOptions(options: XpEndpointOptions): _ResolvedOptions {
  return {
    callTimeoutMs: 30_000,
    revocationRequerySeconds: DEFAULT_REVOCATION_REQUERY_SECONDS,
    revocationWaitMs: DEFAULT_REVOCATION_WAIT_MS,
    maxFutureSeconds: 300,
    retentionSeconds: 3600,
    maxRememberedIds: 1_000_000,
    answerTtlSeconds: 3600,
    maxConcurrentCalls: 32,
    argumentLimits: DEFAULT_ARGUMENT_LIMITS,
    ...options,
  } as _ResolvedOptions;
}
