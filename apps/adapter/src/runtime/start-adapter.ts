/**
 * `startAdapter(config)`: the whole adapter in one process — identity, state database, relays,
 * the wrapped MCP servers (Direction 1), the announce, HTTP discovery when
 * `discovery.well_known_port` is set, and the MCP face over XProtocol endpoints (Direction 2) when
 * `mcp_server` is configured. It logs `{"event":"ready",…}` once it serves. When a step fails,
 * what was already started is stopped before the error is thrown.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PublicIdentity } from '@xprotocol/crypto';
import { ensureKeyFile, nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import {
  AccessPolicy,
  Announcer,
  addDiscoveredRelays,
  type DiscoveryServer,
  McpFace,
  type McpFaceServer,
  OAuthFaceAuth,
  resolveXpEndpoint,
  StateDatabase,
  serveDiscovery,
  serveMcpFace,
  XpCaller,
  XpEndpoint,
} from '@xprotocol/mcp-bridge';
import { Registry, type VersionStore } from '@xprotocol/registry';
import { AddressPolicy, RelayPool } from '@xprotocol/relay-client';
import type { AdapterConfig, ConfigWarning } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import { announcePayload } from './announce-payload.js';
import { type AdapterLogger, createLogger } from './logger.js';
import { McpSources } from './mcp-sources.js';
import { upstreamTransportOf } from './source-translation.js';
import { stateDatabasePath } from './state-path.js';

/** Options of {@link startAdapter}. */
export interface StartAdapterOptions {
  /** Default: from `config.logging`. */
  logger?: AdapterLogger;
  /** The config loader's warnings, logged at startup. */
  warnings?: readonly ConfigWarning[];
  /** Streams for an MCP face on stdio (default: the process's). */
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream };
  /**
   * Log the `ready` event even when the level is above info (at that level): `xprotocol-adapter
   * start` sets it because tools wait for the event. Default false.
   */
  alwaysLogReady?: boolean;
}

/** A running adapter. */
export interface RunningAdapter {
  readonly keys: PublicIdentity;
  readonly stateDatabase: string;
  readonly sources: McpSources;
  readonly face: McpFace | undefined;
  readonly faceServer: McpFaceServer | undefined;
  /** The discovery base URL, when served. */
  readonly discoveryUrl: string | undefined;
  /** Publishes the announce now. */
  announce(): Promise<void>;
  /** Stops everything: inbound calls in flight are answered first; children are ended. */
  stop(): Promise<void>;
}

/** Starts the adapter described by `config`. */
export async function startAdapter(
  config: AdapterConfig,
  options: StartAdapterOptions = {},
): Promise<RunningAdapter> {
  const logger = options.logger ?? createLogger(config.logging);
  for (const warning of options.warnings ?? []) logger.warn({ code: warning.code }, warning.message);
  const backends = { signatures: nodeSignatures, cipher: nodeCipher };

  const { identity, created } = await _ensureKeyFile(config.identity.keyFile, backends);
  logger.info(
    { key: identity.keys.ed25519, x25519: identity.keys.x25519, keyFile: config.identity.keyFile },
    created ? 'created a new key file' : 'loaded the key file',
  );
  const relayUrls = _relayUrls(config);
  if (relayUrls.length === 0) {
    throw new Error(
      'relay.urls: expected at least one ws:// or wss:// relay URL; the adapter reaches everything through relays',
    );
  }

  // Everything started so far, stopped in reverse order on failure or stop().
  const cleanups: (() => unknown)[] = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logger.warn({ error: (error as Error).message }, 'a component failed to stop cleanly');
      }
    }
  };

  try {
    const statePath = stateDatabasePath(config.stateDatabase, identity.keys.ed25519);
    const state = new StateDatabase(statePath);
    cleanups.push(() => state.close());
    const pool = await RelayPool.open({
      urls: relayUrls,
      outbox: state.outbox(),
      reconnect: { initialMs: config.relay.reconnectIntervalSeconds * 1000, maxMs: 60_000 },
      retentionSeconds: config.relay.eventTtlSeconds,
      onNotice: (relay, message) => logger.warn({ relay }, `relay notice: ${message}`),
      onInvalidEvent: (relay, reason) => logger.warn({ relay }, `relay sent an invalid event: ${reason}`),
      onConnectionError: (relay, reason, retryInMs) =>
        logger.warn(
          { relay, retryInSeconds: Math.round(retryInMs / 100) / 10 },
          `cannot reach relay ${relay}: ${reason}; retrying`,
        ),
    });
    cleanups.push(() => pool.close());

    const registry = new Registry({ versionStore: _versionStore(state) });
    const addressPolicy = new AddressPolicy({ allow: config.network.allowPrivate });
    const argumentLimits = {
      maxDepth: config.limits.maxArgumentDepth,
      maxBytes: config.limits.maxArgumentBytes,
    };
    const expose = config.mcpServer?.expose ?? [];
    const gateway = expose.includes('mcp_sources');
    let face: McpFace | undefined;
    let announcer: Announcer | undefined;
    const sources = new McpSources({
      sources: config.mcpSources,
      registry,
      logger,
      addressPolicy,
      // Tool definitions are pinned in the state database; changes wait for `approve`.
      pins: state,
      // The first refresh runs before the first announce; only later changes re-announce.
      onChange: () => {
        announcer
          ?.publish()
          .catch((error: unknown) => logger.warn({ error: (error as Error).message }, 'announce failed'));
        if (gateway) face?.refresh().catch(() => {});
      },
      // In gateway mode the face's clients hear of an upstream's changed prompts and resources.
      onListChanged: (list) => {
        if (gateway) face?.listChanged(list);
      },
    });
    cleanups.push(() => sources.stop());
    const endpoint = new XpEndpoint({
      identity,
      pool,
      state,
      catalog: sources,
      upstreams: sources.upstreams,
      // xp.mcp.request: routed among the sources in this order, guarded by <namespace>.mcp.* grants.
      mcpSources: config.mcpSources.map((s) => ({ name: s.name, namespace: s.namespace })),
      access: new AccessPolicy(config.access),
      requestsPerMinute: new Map(config.mcpSources.map((s) => [s.name, s.rateLimit.requestsPerMinute])),
      callTimeoutMs: config.callTimeoutMs,
      argumentLimits,
      callTimeoutFor: (source, tool) => _callTimeoutOf(config, source, tool),
      answerTtlSeconds: config.relay.eventTtlSeconds,
      retentionSeconds: config.relay.eventTtlSeconds,
      logger,
      ...backends,
    });

    face = config.mcpServer
      ? new McpFace({
          caller: new XpCaller({ identity, pool, ...backends }),
          state,
          // Gateway mode: the wrapped servers' own tools, called directly (no relay in between).
          localSources: gateway
            ? config.mcpSources.map((source) => ({
                name: source.name,
                key: identity.keys.ed25519,
                contracts: () => registry.contractsOf(source.name),
                // The same limit as for XProtocol callers, per MCP session of the face.
                requestsPerMinute: source.rateLimit.requestsPerMinute,
                // A quarantined tool refuses arguments its pinned definition does not name.
                checkArguments: (kind: string, args: Record<string, unknown>) =>
                  sources.checkArguments(kind, args),
                call: (kind: string, args: Record<string, unknown>) => {
                  const tool = sources.tool(kind);
                  const upstream = tool && sources.upstreams.get(tool.source);
                  if (!tool || !upstream)
                    throw new Error(`${kind} is not served by ${source.name} right now`);
                  return upstream.callTool(tool.upstreamName, args, {
                    timeoutMs: _callTimeoutOf(config, tool.source, tool.upstreamName) ?? config.callTimeoutMs,
                  });
                },
                // Passthrough: each MCP client gets its own session with the server.
                gateway: {
                  // The adapter's own session's view: with `mcp_revision: auto`, the revision it found.
                  get transport() {
                    return (
                      sources.upstreams.get(source.name)?.transport ??
                      upstreamTransportOf(source, addressPolicy)
                    );
                  },
                  capabilities: () => sources.upstreams.get(source.name)?.serverCapabilities,
                  toolName: (kind: string) => sources.tool(kind)?.upstreamName,
                  definition: (kind: string) => sources.listedTool(kind),
                  // Long tools keep their own timeout through the gateway too.
                  toolTimeoutMs: (tool: string) => _callTimeoutOf(config, source.name, tool),
                  instructions: () => sources.upstreams.get(source.name)?.instructions,
                },
              }))
            : [],
          sources: (expose.includes('xprotocol_sources') ? config.xprotocolSources : []).map((source) => ({
            name: source.name,
            key: source.key,
            endpoint: source.endpoint,
            label: source.endpoint ?? source.key ?? source.name,
            prefix: source.mcpToolPrefix,
            schemaFilter: source.schemaFilter,
          })),
          // xp:// endpoints: the well-known document gives the key; its relays join the pool
          // through the address policy (docs/security.md, "Outbound addresses").
          discover: async (endpointUrl) => {
            const document = await resolveXpEndpoint(endpointUrl, { policy: addressPolicy });
            addDiscoveredRelays(pool, document.relays, addressPolicy, { endpoint: endpointUrl, logger });
            return { key: document.public_key };
          },
          argumentLimits,
          callTimeoutMs: config.callTimeoutMs,
          sha256: nodeCipher.sha256,
          serverInfo: { name: config.identity.displayName, version: ADAPTER_VERSION },
          logger,
        })
      : undefined;

    const newAnnouncer = new Announcer({
      pool,
      identity,
      payload: () =>
        announcePayload(
          config,
          registry,
          { x25519: identity.keys.x25519, relays: relayUrls },
          new Map((face?.status() ?? []).map((s) => [s.name, s.tools])),
          new Map(sources.status().map((s) => [s.name, s.refusals])),
          new Map(sources.status().map((s) => [s.name, s.flagged])),
        ),
      signatures: nodeSignatures,
      logger,
    });

    await sources.start();
    await endpoint.start();
    cleanups.push(() => endpoint.stop());
    await newAnnouncer.start();
    announcer = newAnnouncer;
    cleanups.push(() => newAnnouncer.stop());

    let faceServer: McpFaceServer | undefined;
    if (face && config.mcpServer) {
      const { oauth, ...serve } = config.mcpServer;
      faceServer = await serveMcpFace(
        face,
        {
          ...serve,
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
        options.stdio,
      );
      const served = faceServer;
      cleanups.push(() => served.close());
      void face.ready().then(() => newAnnouncer.publish().catch(() => {}));
    }

    let discovery: DiscoveryServer | undefined;
    if (config.discovery.wellKnownPort !== undefined) {
      discovery = await serveDiscovery({
        host: config.discovery.wellKnownHost,
        port: config.discovery.wellKnownPort,
        document: () => ({
          version: 'xp1',
          public_key: identity.keys.ed25519,
          x25519: identity.keys.x25519,
          relays: relayUrls,
          adapter: true,
          display_name: config.identity.displayName,
          mcp_sources: config.mcpSources.map((s) => s.name),
          xprotocol_sources: config.xprotocolSources.map((s) => s.name),
        }),
        page: (request) => sources.page(request),
        logger,
      });
      const served = discovery;
      cleanups.push(() => served.close());
    }

    // The ready line tells the truth about the relays: wait (bounded) for each one's first attempt.
    const relayStatus = await pool.attempted(5000);
    const openRelays = relayStatus.filter((r) => r.state === 'open').map((r) => r.url);
    // With alwaysLogReady the event survives a level above info (tools wait for it).
    const raised: 'error' | 'warn' | 'info' =
      logger.level === 'error' ? 'error' : logger.level === 'warn' ? 'warn' : 'info';
    const readyLevel = options.alwaysLogReady ? raised : 'info';
    const sourceStatus = sources.status();
    logger[readyLevel](
      {
        event: 'ready',
        key: identity.keys.ed25519,
        relays: relayUrls,
        relays_connected: openRelays,
        state: statePath,
        sources: sourceStatus.map((s) => ({
          name: s.name,
          connected: s.connected,
          tools: s.toolCount,
          ...(s.error !== undefined && { error: s.error }),
        })),
        mcp_server: faceServer?.url ?? config.mcpServer?.transport,
        discovery: discovery?.url,
      },
      'adapter ready',
    );
    if (openRelays.length === 0) {
      const why = relayStatus.map((r) => `${r.url}: ${r.lastError || 'no answer yet'}`).join('; ');
      logger.warn(
        { relays: relayStatus.map((r) => ({ url: r.url, error: r.lastError || undefined })) },
        `no relay reachable yet (${why}): the announce is pending and no call can arrive; retrying until a relay accepts`,
      );
    }
    for (const source of sourceStatus) {
      if (!source.connected)
        logger.warn(
          { source: source.name },
          `MCP source "${source.name}" serves no tools: ${source.error ?? 'still connecting'}`,
        );
    }

    let stopping: Promise<void> | undefined;
    return {
      keys: identity.keys,
      stateDatabase: statePath,
      sources,
      face,
      faceServer,
      discoveryUrl: discovery?.url,
      announce: async () => {
        await newAnnouncer.publish();
      },
      stop: () => {
        stopping ??= stopAll().then(() => logger.info({ event: 'stopped' }, 'adapter stopped'));
        return stopping;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The configured relays plus those `xprotocol_sources` entries name. */
function _relayUrls(config: AdapterConfig): string[] {
  return [...new Set([...config.relay.urls, ...config.xprotocolSources.flatMap((s) => s.relays)])];
}

function _versionStore(state: StateDatabase): VersionStore {
  return {
    get(kind) {
      const record = state.schemaVersion(kind);
      return record && { kind, version: record.version, contract: record.contractJson };
    },
    put(record) {
      state.saveSchemaVersion(record.kind, record.version, record.contract);
    },
  };
}

/**
 * Loads the key file, or creates it when missing. Says which file failed and what to do: a missing
 * folder is created (0700) like the state database's; a folder that cannot be written is named.
 */
async function _ensureKeyFile(
  path: string,
  backends: Parameters<typeof ensureKeyFile>[1],
): Promise<Awaited<ReturnType<typeof ensureKeyFile>>> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return await ensureKeyFile(path, backends);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST'].includes(code)) {
      throw new Error(
        `identity.key_file ${path}: cannot create the key file: ${(error as Error).message}; choose a key_file in a folder you can write`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The timeout of one tool of a source: per tool, else per source (`mcp_sources[].timeouts`). */
function _callTimeoutOf(config: AdapterConfig, source: string, tool: string): number | undefined {
  const timeouts = config.mcpSources.find((s) => s.name === source)?.callTimeouts;
  return timeouts?.toolsMs[tool] ?? timeouts?.defaultMs;
}
