/**
 * `startAdapter(config)`: the whole adapter in one process — identity, state database, relays,
 * the wrapped MCP servers (Direction 1), the announce, and the MCP face over XProtocol endpoints
 * (Direction 2) when `mcp_server` is configured. It logs `{"event":"ready",…}` once it serves.
 * @module
 */
import type { PublicIdentity } from '@xprotocol/crypto';
import { ensureKeyFile, nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import {
  AccessPolicy,
  Announcer,
  McpFace,
  type McpFaceServer,
  StateDatabase,
  serveMcpFace,
  XpCaller,
  XpEndpoint,
} from '@xprotocol/mcp-bridge';
import { Registry, type VersionStore } from '@xprotocol/registry';
import { RelayPool, SqliteOutbox } from '@xprotocol/relay-client';
import type { AdapterConfig, ConfigWarning } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import { announcePayload } from './announce-payload.js';
import { type AdapterLogger, createLogger } from './logger.js';
import { McpSources } from './mcp-sources.js';
import { stateDatabasePath } from './state-path.js';

/** Options of {@link startAdapter}. */
export interface StartAdapterOptions {
  /** Default: from `config.logging`. */
  logger?: AdapterLogger;
  /** The config loader's warnings, logged at startup. */
  warnings?: readonly ConfigWarning[];
  /** Streams for an MCP face on stdio (default: the process's). */
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream };
}

/** A running adapter. */
export interface RunningAdapter {
  readonly keys: PublicIdentity;
  readonly stateDatabase: string;
  readonly sources: McpSources;
  readonly face: McpFace | undefined;
  readonly faceServer: McpFaceServer | undefined;
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

  const { identity, created } = await ensureKeyFile(config.identity.keyFile, backends);
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
  const statePath = stateDatabasePath(config.stateDatabase, identity.keys.ed25519);
  const state = new StateDatabase(statePath);
  const pool = await RelayPool.open({
    urls: relayUrls,
    outbox: new SqliteOutbox(statePath),
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

  const registry = new Registry({ versionStore: _versionStore(state) });
  let announcer: Announcer | undefined;
  const sources = new McpSources({
    sources: config.mcpSources,
    registry,
    logger,
    onChange: () => {
      announcer
        ?.publish()
        .catch((error: unknown) => logger.warn({ error: (error as Error).message }, 'announce failed'));
    },
  });
  const endpoint = new XpEndpoint({
    identity,
    pool,
    state,
    catalog: sources,
    upstreams: sources.upstreams,
    access: new AccessPolicy(config.access),
    requestsPerMinute: new Map(config.mcpSources.map((s) => [s.name, s.rateLimit.requestsPerMinute])),
    callTimeoutMs: config.callTimeoutMs,
    answerTtlSeconds: config.relay.eventTtlSeconds,
    retentionSeconds: config.relay.eventTtlSeconds,
    logger,
    ...backends,
  });

  let face: McpFace | undefined;
  let faceServer: McpFaceServer | undefined;
  if (config.mcpServer) {
    face = new McpFace({
      caller: new XpCaller({ identity, pool, ...backends }),
      state,
      sources: config.xprotocolSources.map((source) => _faceSource(source)),
      callTimeoutMs: config.callTimeoutMs,
      sha256: nodeCipher.sha256,
      serverInfo: { name: config.identity.displayName, version: ADAPTER_VERSION },
      logger,
    });
  }

  announcer = new Announcer({
    pool,
    identity,
    relays: relayUrls,
    payload: () =>
      announcePayload(
        config,
        registry,
        { x25519: identity.keys.x25519, relays: relayUrls },
        new Map((face?.status() ?? []).map((s) => [s.name, s.tools])),
      ) as unknown as Record<string, unknown>,
    signatures: nodeSignatures,
    logger,
  });

  await sources.start();
  await endpoint.start();
  await announcer.start();
  if (face && config.mcpServer) {
    faceServer = await serveMcpFace(face, config.mcpServer, logger, options.stdio);
    void face.ready().then(() => announcer?.publish().catch(() => {}));
  }
  logger.info(
    {
      event: 'ready',
      key: identity.keys.ed25519,
      relays: relayUrls,
      state: statePath,
      sources: sources.status().map((s) => ({ name: s.name, connected: s.connected, tools: s.toolCount })),
      mcp_server: faceServer?.url ?? config.mcpServer?.transport,
    },
    'adapter ready',
  );

  let stopping: Promise<void> | undefined;
  return {
    keys: identity.keys,
    stateDatabase: statePath,
    sources,
    face,
    faceServer,
    announce: async () => {
      await announcer?.publish();
    },
    stop: () => {
      stopping ??= (async () => {
        announcer?.stop();
        await faceServer?.close();
        await endpoint.stop();
        await sources.stop();
        await pool.close();
        state.close();
        logger.info({ event: 'stopped' }, 'adapter stopped');
      })();
      return stopping;
    },
  };
}

/** The configured relays plus those `xprotocol_sources` entries name. */
function _relayUrls(config: AdapterConfig): string[] {
  return [...new Set([...config.relay.urls, ...config.xprotocolSources.flatMap((s) => s.relays)])];
}

function _faceSource(source: AdapterConfig['xprotocolSources'][number]) {
  if (!source.key) {
    throw new Error(
      `xprotocol_sources "${source.name}": endpoint ${source.endpoint} needs HTTP discovery, which lands with a later issue; give key: and relay: instead`,
    );
  }
  return {
    name: source.name,
    key: source.key,
    label: source.endpoint ?? source.key,
    prefix: source.mcpToolPrefix,
    schemaFilter: source.schemaFilter,
  };
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
