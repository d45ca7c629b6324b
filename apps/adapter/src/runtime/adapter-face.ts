/**
 * The adapter's MCP face (Direction 2), when `mcp_server` is configured: XProtocol endpoints'
 * schemas as MCP tools (`expose: [xprotocol_sources]`), and in gateway mode (`expose:
 * [mcp_sources]`) the wrapped servers' own tools, called directly with a session of their own per
 * MCP client. Served over stdio or HTTP, with one static token or OAuth 2.1.
 * @module
 */
import type { Identity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import {
  addDiscoveredRelays,
  type CallObserver,
  type LocalToolSource,
  McpFace,
  type McpFaceServeOptions,
  type McpFaceServer,
  OAuthFaceAuth,
  resolveXpEndpoint,
  type StateDatabase,
  serveMcpFace,
  type Tracer,
  XpCaller,
  type XpToolSource,
} from '@xprotocol/mcp-bridge';
import type { Registry } from '@xprotocol/registry';
import type { AddressPolicy, RelayPool } from '@xprotocol/relay-client';
import type { AdapterConfig, McpSourceConfig } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import { _callTimeoutOf } from './call-limits.js';
import type { _AdapterDns } from './dns-resolver.js';
import type { AdapterLogger } from './logger.js';
import type { McpSources } from './mcp-sources.js';
import { upstreamTransportOf } from './source-translation.js';

/** What the face is built from. */
export interface _FaceParts {
  readonly config: AdapterConfig;
  /** The XProtocol side: none in a pure MCP gateway (no relay, no identity). */
  readonly xprotocol: { readonly identity: Identity; readonly pool: RelayPool } | undefined;
  /** The adapter's delegation chain, presented when the face calls an XProtocol source. */
  readonly ownChain?: readonly { id: string }[] | undefined;
  /** Hashed into shortened names of the gateway's tools: the adapter's key, or its state file's stem. */
  readonly localKey: string;
  readonly logger: AdapterLogger;
  readonly state: StateDatabase;
  readonly registry: Registry;
  readonly sources: McpSources;
  readonly addressPolicy: AddressPolicy;
  /** Asked for the `_xprotocol.<host>` TXT records of xp:// endpoints (docs/protocol.md §10.3, "Keys in DNS TXT"). */
  readonly dns: _AdapterDns;
  readonly argumentLimits: { maxDepth: number; maxBytes: number };
  /** Told about every `tools/call` (metrics, the audit log); absent when neither is on. */
  readonly observer?: CallObserver | undefined;
  /** Makes the spans of `tools/call` (docs/operating.md, "Traces"); absent without `tracing`. */
  readonly tracer?: Tracer | undefined;
}

/** True when `mcp_server.expose` lists `what`. */
export function _exposes(config: AdapterConfig, what: 'mcp_sources' | 'xprotocol_sources'): boolean {
  return (config.mcpServer?.expose ?? []).includes(what);
}

/** The face, or `undefined` without `mcp_server`. */
export function _createFace(parts: _FaceParts): McpFace | undefined {
  const { config, xprotocol, logger, addressPolicy } = parts;
  if (!config.mcpServer) return undefined;
  return new McpFace({
    // Only XProtocol sources are called through relays; a pure MCP gateway has none.
    caller:
      xprotocol &&
      new XpCaller({
        identity: xprotocol.identity,
        pool: xprotocol.pool,
        signatures: nodeSignatures,
        cipher: nodeCipher,
        // An endpoint that trusts the adapter's root serves it on the strength of its chain.
        ...(parts.ownChain && { delegation: parts.ownChain }),
      }),
    state: parts.state,
    observer: parts.observer,
    tracer: parts.tracer,
    // Gateway mode: the wrapped servers' own tools, called directly (no relay in between).
    localSources: _exposes(config, 'mcp_sources')
      ? config.mcpSources.map((source) => _gatewaySource(source, parts))
      : [],
    sources: (_exposes(config, 'xprotocol_sources') ? config.xprotocolSources : []).map(
      (source): XpToolSource => ({
        name: source.name,
        key: source.key,
        endpoint: source.endpoint,
        label: source.endpoint ?? source.key ?? source.name,
        prefix: source.mcpToolPrefix,
        schemaFilter: source.schemaFilter,
        // An endpoint must be vouched for by one of these roots; its chain limits its tools.
        trustRoots: source.trustRoots,
        // The operator's guidance replaces the catalog's in the face's instructions.
        instructions: source.instructions,
      }),
    ),
    // xp:// endpoints: the well-known document gives the key, checked against the host's DNS TXT
    // records under the source's `dns` policy; its relays join the pool through the address
    // policy (docs/security.md, "Outbound addresses" and "Keys published in DNS").
    ...(xprotocol && {
      discover: async (endpointUrl: string, sourceName: string) => {
        const source = config.xprotocolSources.find((s) => s.name === sourceName);
        const document = await resolveXpEndpoint(endpointUrl, {
          policy: addressPolicy,
          dns: { policy: source?.dns ?? 'if_published', resolveTxt: parts.dns.resolveTxt },
        });
        addDiscoveredRelays(xprotocol.pool, document.relays, addressPolicy, {
          endpoint: endpointUrl,
          logger,
        });
        return { key: document.public_key };
      },
    }),
    argumentLimits: parts.argumentLimits,
    // What the face's clients may hold beyond a request, shared between principals (docs/security.md).
    limits: {
      maxLeases: config.mcpServer.maxLeases,
      maxLeasesPerPrincipal: config.mcpServer.maxLeasesPerPrincipal,
      maxUpstreamProcesses: config.mcpServer.maxUpstreamProcesses,
      maxUpstreamProcessesPerPrincipal: config.mcpServer.maxUpstreamProcessesPerPrincipal,
    },
    callTimeoutMs: config.callTimeoutMs,
    // How much of each tool tools/list shows (docs/architecture.md, "Listing modes").
    listing: config.mcpServer.listing,
    // Results over the bound are summarized in content[], whole in structuredContent (docs/architecture.md, "Honest results").
    resultSummaryBytes: config.mcpServer.resultSummaryBytes,
    idempotencyWindowSeconds: config.mcpServer.idempotencyWindowSeconds,
    sha256: nodeCipher.sha256,
    serverInfo: { name: config.identity.displayName, version: ADAPTER_VERSION },
    logger,
  });
}

/** One wrapped server as the gateway lists it: its contracts, called directly or passed through. */
function _gatewaySource(source: McpSourceConfig, parts: _FaceParts): LocalToolSource {
  const { config, localKey, registry, sources } = parts;
  return {
    name: source.name,
    // Its resources, prompts, completions and log level need `<namespace>.mcp.…`, as over XProtocol.
    namespace: source.namespace,
    key: localKey,
    // Its prompts and resource templates reach the face by passthrough, not as tools.
    contracts: () => registry.contractsOf(source.name).filter((c) => 'mcp_tool' in c.source),
    // A server speaking both revisions may offer its 2026-07-28 clients other tools.
    modernContracts: () => sources.modernContracts(source.name),
    // The same limit as for XProtocol callers, per principal of the face.
    requestsPerMinute: source.rateLimit.requestsPerMinute,
    // Flagged instructions, prompts and resources are withheld unless `description_lint: warn`.
    descriptionLint: source.descriptionLint,
    // The operator's guidance replaces the server's own in the face's instructions.
    instructions: source.instructions,
    // A server that cannot be reached: an unknown tool's error says why (the server's own error).
    unreachable: () => {
      const status = sources.status().find((s) => s.name === source.name);
      return status && !status.connected ? status.error : undefined;
    },
    // Waiting for a person to authorize a new grant: a face client that can open a URL is asked.
    authorize: () => sources.authorize(source.name),
    // A quarantined tool refuses arguments its pinned definition does not name.
    checkArguments: (kind: string, args: Record<string, unknown>, modern?: boolean) =>
      sources.checkArguments(kind, args, modern),
    call: (kind: string, args: Record<string, unknown>) => {
      const tool = sources.tool(kind);
      const upstream = tool && sources.upstreams.get(tool.source);
      if (!tool || !upstream) throw new Error(`${kind} is not served by ${source.name} right now`);
      return upstream.callTool(tool.upstreamName, args, {
        timeoutMs: _callTimeoutOf(config, tool.source, tool.upstreamName) ?? config.callTimeoutMs,
      });
    },
    // `approvals`: a `confirm` tool runs once the face's client said yes (elicitation).
    approval: (kind: string) => {
      const tool = sources.tool(kind);
      return (tool && source.approvals?.[tool.upstreamName]) ?? 'auto';
    },
    // Passthrough: each MCP client gets its own session with the server.
    gateway: _passthrough(source, parts),
  };
}

/** How the gateway passes an MCP client through to the server, in a session of its own. */
function _passthrough(source: McpSourceConfig, parts: _FaceParts): NonNullable<LocalToolSource['gateway']> {
  const { config, sources, addressPolicy } = parts;
  return {
    // The adapter's own session's view: with `mcp_revision: auto`, the revision it found.
    get transport() {
      return sources.upstreams.get(source.name)?.transport ?? upstreamTransportOf(source, addressPolicy);
    },
    capabilities: () => sources.upstreams.get(source.name)?.serverCapabilities,
    toolName: (kind: string) => sources.upstreamToolName(kind),
    definition: (kind: string, modern?: boolean) => sources.listedTool(kind, modern),
    // Long tools keep their own timeout through the gateway too.
    toolTimeoutMs: (tool: string) => _callTimeoutOf(config, source.name, tool),
    instructions: () => sources.upstreams.get(source.name)?.instructions,
  };
}

/**
 * Serves the face by `mcp_server` (stdio or HTTP; OAuth 2.1 when `oauth` is set); HTTP refusals
 * before a request is served go to `onHttpRefused` when given (the metrics).
 */
export function _serveFace(
  face: McpFace,
  mcpServer: NonNullable<AdapterConfig['mcpServer']>,
  logger: AdapterLogger,
  stdio: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream } | undefined,
  onHttpRefused?: McpFaceServeOptions['onHttpRefused'],
): Promise<McpFaceServer> {
  // Leases and upstream processes are the face's own limits (_createFace), not the server's.
  const {
    oauth,
    maxLeases: _leases,
    maxLeasesPerPrincipal: _leasesPerPrincipal,
    maxUpstreamProcesses: _processes,
    maxUpstreamProcessesPerPrincipal: _processesPerPrincipal,
    listing: _listing,
    resultSummaryBytes: _resultSummaryBytes,
    ...serve
  } = mcpServer;
  return serveMcpFace(
    face,
    {
      ...serve,
      onHttpRefused,
      // OAuth 2.1 tokens of one authorization server instead of one static token.
      ...(oauth && {
        auth: new OAuthFaceAuth({
          issuer: oauth.issuer,
          resource: oauth.resource,
          requiredScopes: oauth.requiredScopes,
          grants: oauth.grants,
          ...(oauth.jwksUrl && { jwksUrl: oauth.jwksUrl }),
          ...(oauth.scopesSupported && { scopesSupported: oauth.scopesSupported }),
        }),
      }),
    },
    logger,
    stdio,
  );
}
