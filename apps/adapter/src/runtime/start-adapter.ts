/**
 * `startAdapter(config)`: the whole adapter in one process — identity, state database, relays,
 * the wrapped MCP servers (Direction 1), the announce, HTTP discovery when
 * `discovery.well_known_port` is set, and the MCP face over XProtocol endpoints (Direction 2) when
 * `mcp_server` is configured. A pure MCP gateway (`config.mode` `mcp_gateway`: no relay, no
 * xprotocol_sources) starts only the state database, the wrapped servers and the face: no
 * identity, relay, endpoint, announce or discovery. It logs which mode runs first, and
 * `{"event":"ready",…}` once it serves. From the moment its state database is open it keeps its
 * status there for `xprotocol-adapter status` (status-reporter.ts): every warning and error it
 * logs and every inbound call's outcome go into it. When a step fails, what was already started is
 * stopped (in reverse order) before the error is thrown. Each step that is a concern of its own has
 * its file: `adapter-mode.ts`, `adapter-identity.ts`, `identity-json-file.ts`, `adapter-relays.ts`, `adapter-face.ts`,
 * `adapter-discovery.ts`, `ready-report.ts`, `started-components.ts`, `status-reporter.ts`,
 * `admin-metrics.ts` (metrics, the audit log and the admin listener).
 * @module
 */
import type { Identity, PublicIdentity, Rotation } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import {
  AccessPolicy,
  Announcer,
  type CallObserver,
  type DiscoveryServer,
  type McpFace,
  type McpFaceServer,
  SharedJournal,
  type StateDatabase,
  type Tracer,
  XpEndpoint,
} from '@xprotocol/mcp-bridge';
import { Registry, type VersionStore } from '@xprotocol/registry';
import { AddressPolicy, type RelayPool } from '@xprotocol/relay-client';
import type { AdapterConfig, ConfigWarning } from '../config/index.js';
import { _chainExpiryWarning, _loadAdapterChain, type AdapterChain } from './adapter-chain.js';
import { _logDnsRecord, _serveAdapterDiscovery } from './adapter-discovery.js';
import { _createFace, _exposes, _serveFace } from './adapter-face.js';
import { _loadIdentity } from './adapter-identity.js';
import { _logMode } from './adapter-mode.js';
import { _openRelayPool, _relayUrls } from './adapter-relays.js';
import { _checkedRotation } from './adapter-rotation.js';
import { _AdapterOperate } from './admin-metrics.js';
import { announcePayload } from './announce-payload.js';
import { _argumentLimits, _callTimeoutOf } from './call-limits.js';
import { _adapterDns } from './dns-resolver.js';
import { type AdapterLogger, createLogger } from './logger.js';
import { tapProblems } from './logger-tap.js';
import { McpSources } from './mcp-sources.js';
import { _reportReady } from './ready-report.js';
import { _StartedComponents } from './started-components.js';
import { openStateDatabase, stateFileStem } from './state-path.js';
import { StatusReporter } from './status-reporter.js';
import { upstreamGrantStore } from './upstream-oauth.js';

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
  /** The adapter's public keys; `undefined` in a pure MCP gateway, which has no identity. */
  readonly keys: PublicIdentity | undefined;
  readonly stateDatabase: string;
  readonly sources: McpSources;
  readonly face: McpFace | undefined;
  readonly faceServer: McpFaceServer | undefined;
  /** The discovery base URL, when served. */
  readonly discoveryUrl: string | undefined;
  /** Publishes the announce now (a pure MCP gateway announces nothing). */
  announce(): Promise<void>;
  /** Stops everything: inbound calls in flight are answered first; children are ended. */
  stop(): Promise<void>;
}

/** Starts the adapter described by `config`. */
export async function startAdapter(
  config: AdapterConfig,
  options: StartAdapterOptions = {},
): Promise<RunningAdapter> {
  const baseLogger = options.logger ?? createLogger(config.logging);
  const status = new StatusReporter({ mode: config.mode, logger: baseLogger });
  // Every warning and error, from here on, is also kept for `xprotocol-adapter status`.
  const logger = tapProblems(baseLogger, (level, fields, message) => status.problem(level, fields, message));
  for (const warning of options.warnings ?? []) logger.warn({ code: warning.code }, warning.message);
  // A pure MCP gateway signs nothing and reaches no relay: no key is loaded or created.
  const gateway = config.mode === 'mcp_gateway';
  const relayUrls = gateway ? [] : _relayUrls(config);
  _logMode(config, relayUrls, logger);
  const identity = gateway ? undefined : await _loadIdentity(config, logger);
  // Checked before anything starts: an adapter whose chain callers would refuse does not run.
  const chain = identity && _checkedChain(config, identity, logger);
  const rotation = identity && _checkedRotation(config, identity.keys.ed25519, logger);
  if (identity) _logDnsRecord(config, identity, logger);
  // Everything started so far, stopped in reverse order on failure or stop().
  const started = new _StartedComponents(logger);
  try {
    return await _startComponents({
      config,
      options,
      logger,
      identity,
      chain,
      rotation,
      relayUrls,
      started,
      status,
    });
  } catch (error) {
    await started.stopAll();
    throw error;
  }
}

/** What every step of the start shares. */
interface _Start {
  readonly config: AdapterConfig;
  readonly options: StartAdapterOptions;
  readonly logger: AdapterLogger;
  /** None in a pure MCP gateway. */
  readonly identity: Identity | undefined;
  /** The adapter's delegation chain, when `identity.parent_delegation_event` names one. */
  readonly chain: AdapterChain | undefined;
  /** The rotation naming this key as a successor, when `identity.rotated_from` names one. */
  readonly rotation: Rotation | undefined;
  readonly relayUrls: string[];
  readonly started: _StartedComponents;
  /** The status `xprotocol-adapter status` reads. */
  readonly status: StatusReporter;
}

/** The XProtocol side of a start: the identity and its relays (none in a pure MCP gateway). */
interface _Xp {
  readonly identity: Identity;
  readonly pool: RelayPool;
}

/**
 * Parts that call each other back before all of them exist: a source change re-announces and
 * refreshes the gateway face, which are made after the sources.
 */
interface _LateParts {
  face?: McpFace | undefined;
  announcer?: Announcer | undefined;
  /** Read by the status from its first write, before the sources exist. */
  sources?: McpSources | undefined;
}

/**
 * Starts writing the status into the state database: the key, and what the relays, the sources
 * and the face's XProtocol endpoints report at each write (nothing while they do not exist yet).
 */
async function _startStatus(
  start: _Start,
  state: StateDatabase,
  pool: RelayPool | undefined,
  late: _LateParts,
): Promise<void> {
  const endpoints = new Set(start.config.xprotocolSources.map((s) => s.name));
  await start.status.start({
    state,
    key: start.identity?.keys.ed25519,
    chain: start.chain && {
      root: start.chain.verdict.root,
      links: start.chain.links.length,
      capabilities: start.chain.verdict.capabilities,
      expiresAt: start.chain.verdict.expiresAt,
    },
    health: () => ({
      sources: late.sources?.status() ?? [],
      xprotocolSources: (late.face?.status() ?? []).filter((s) => endpoints.has(s.name)),
      relays: pool?.relays() ?? [],
    }),
  });
  // Stopped after everything else (it was started before them): its last write says when.
  start.started.add(() => start.status.stop());
}

/**
 * The start after the identity, in order: state database, relay pool, sources, endpoint, face,
 * announcer; then the sources, the endpoint and the announcer start, the face and discovery are
 * served, and `ready` is logged. Each started component is recorded in `start.started`. A pure
 * MCP gateway skips the relay pool, the endpoint, the announcer and discovery.
 */
async function _startComponents(start: _Start): Promise<RunningAdapter> {
  const { config, logger, identity, relayUrls, started } = start;
  const stateStem = stateFileStem(config, identity?.keys.ed25519);
  const state = openStateDatabase(config.stateDatabase, stateStem);
  // A file's path, or the Postgres URL with its password hidden.
  const statePath = state.path;
  started.add(() => state.close());
  if (identity && config.sharedState)
    await _shareState(state, config.sharedState, identity.keys.ed25519, logger);
  const xp = identity && { identity, pool: await _openRelayPool(config, relayUrls, state, logger) };
  if (xp) started.add(() => xp.pool.close());
  const late: _LateParts = {};
  await _startStatus(start, state, xp?.pool, late);
  // Metrics and the audit log (docs/operating.md): no observer at all when neither is configured.
  const operate = new _AdapterOperate(config, logger);
  started.add(() => operate.close());
  const observer = operate.observer;
  const tracer = operate.tracer;

  const registry = new Registry({ versionStore: _versionStore(state) });
  const dns = _adapterDns(config);
  // With discovery.dns_servers, host names resolve through them too (docs/config.md).
  const addressPolicy = new AddressPolicy({
    allow: config.network.allowPrivate,
    ...(dns.resolveAddresses && { resolve: dns.resolveAddresses }),
  });
  const argumentLimits = _argumentLimits(config);
  const sources = _createSources(start, { registry, addressPolicy, state }, late);
  late.sources = sources;
  started.add(() => sources.stop());
  const endpoint = xp && _createEndpoint(start, xp, { state, sources, argumentLimits, observer, tracer });
  const face = _createFace({
    config,
    xprotocol: xp,
    // Links the chain check accepted at start: each is a delegation, with its id.
    ownChain: start.chain?.links as readonly { id: string }[] | undefined,
    localKey: identity?.keys.ed25519 ?? stateStem,
    logger,
    state,
    registry,
    sources,
    addressPolicy,
    dns,
    argumentLimits,
    observer,
    tracer,
  });
  late.face = face;
  const announcer = xp && _createAnnouncer(start, xp, { registry, sources, face });

  await sources.start();
  if (endpoint) {
    await endpoint.start();
    started.add(() => endpoint.stop());
  }
  if (announcer) {
    await announcer.start();
    late.announcer = announcer;
    started.add(() => announcer.stop());
  }
  const faceServer = await _startFace(start, face, announcer, operate.httpRefused);
  const discovery =
    xp &&
    (await _serveAdapterDiscovery(
      config,
      xp.identity,
      relayUrls,
      sources,
      logger,
      start.chain?.links,
      start.rotation,
    ));
  if (discovery) started.add(() => discovery.close());
  await operate.serve({ pool: xp?.pool, sources, face });

  await _reportReady({
    config,
    logger,
    key: identity?.keys.ed25519,
    relayUrls,
    pool: xp?.pool,
    statePath,
    sources,
    faceServer,
    discovery,
    alwaysLogReady: start.options.alwaysLogReady,
  });
  start.status.ready();
  return _runningAdapter(start, { statePath, sources, face, faceServer, discovery, announcer });
}

/**
 * Replicas: hands the call journal and the outbox to the Postgres database they share
 * (docs/deploy.md). Logged with the URL's password hidden.
 */
async function _shareState(
  state: StateDatabase,
  shared: NonNullable<AdapterConfig['sharedState']>,
  key: string,
  logger: AdapterLogger,
): Promise<void> {
  const journal = await SharedJournal.open({
    url: shared.database,
    endpoint: key,
    leaseSeconds: shared.leaseSeconds,
    logger,
  });
  state.share(journal);
  logger.info(
    { database: journal.shown, replica: journal.replica, leaseSeconds: shared.leaseSeconds },
    'sharing the call journal and outbox with the other replicas of this key',
  );
}

/**
 * The adapter's delegation chain, loaded and checked (a configuration error otherwise), logged
 * with its root and window, and warned about when it ends within 7 days.
 */
function _checkedChain(
  config: AdapterConfig,
  identity: Identity,
  logger: AdapterLogger,
): AdapterChain | undefined {
  const now = Math.floor(Date.now() / 1000);
  const chain = _loadAdapterChain(config, identity.keys.ed25519, now);
  if (chain === undefined) return undefined;
  const { root, capabilities, expiresAt } = chain.verdict;
  logger.info(
    { chain: chain.file, root, links: chain.links.length, capabilities, expiresAt },
    `loaded the delegation chain: ${chain.links.length} link${chain.links.length === 1 ? '' : 's'} from root ${root}`,
  );
  const warning = _chainExpiryWarning(chain, now);
  if (warning !== undefined)
    logger.warn({ code: 'CHAIN_EXPIRES_SOON', chain: chain.file, expiresAt }, warning);
  return chain;
}

/** The wrapped MCP servers; their changes re-announce and, in gateway mode, refresh the face. */
function _createSources(
  start: _Start,
  parts: { registry: Registry; addressPolicy: AddressPolicy; state: StateDatabase },
  late: _LateParts,
): McpSources {
  const { config, logger } = start;
  const gateway = _exposes(config, 'mcp_sources');
  return new McpSources({
    sources: config.mcpSources,
    registry: parts.registry,
    logger,
    addressPolicy: parts.addressPolicy,
    // OAuth grants of HTTP sources, sealed with a key derived from the adapter's own.
    ...(start.identity && {
      oauthStore: upstreamGrantStore(parts.state, start.identity.x25519.secretKey),
    }),
    // Tool definitions are pinned in the state database; changes wait for `approve`.
    pins: parts.state,
    // The first refresh runs before the first announce; only later changes re-announce.
    onChange: () => {
      late.announcer
        ?.publish()
        .catch((error: unknown) => logger.warn({ error: (error as Error).message }, 'announce failed'));
      if (gateway) late.face?.refresh().catch(() => {});
    },
    // In gateway mode the face's clients hear of an upstream's changed prompts and resources.
    onListChanged: (list) => {
      if (gateway) late.face?.listChanged(list);
    },
    // Only the tools offered to 2026-07-28 clients changed: the face lists them again.
    onModernChange: () => {
      if (gateway) late.face?.refresh().catch(() => {});
    },
  });
}

/** The inbound XProtocol endpoint over the sources (Direction 1). */
function _createEndpoint(
  start: _Start,
  xp: _Xp,
  parts: {
    state: StateDatabase;
    sources: McpSources;
    argumentLimits: { maxDepth: number; maxBytes: number };
    observer: CallObserver | undefined;
    tracer: Tracer | undefined;
  },
): XpEndpoint {
  const { config, logger } = start;
  const { sources } = parts;
  return new XpEndpoint({
    identity: xp.identity,
    pool: xp.pool,
    state: parts.state,
    catalog: sources,
    upstreams: sources.upstreams,
    // xp.mcp.request: routed among the sources in this order, guarded by <namespace>.mcp.* grants.
    mcpSources: config.mcpSources.map((s) => ({
      name: s.name,
      namespace: s.namespace,
      descriptionLint: s.descriptionLint,
    })),
    access: new AccessPolicy(config.access),
    requestsPerMinute: new Map(config.mcpSources.map((s) => [s.name, s.rateLimit.requestsPerMinute])),
    callTimeoutMs: config.callTimeoutMs,
    argumentLimits: parts.argumentLimits,
    callTimeoutFor: (source, tool) => _callTimeoutOf(config, source, tool),
    // `approvals`: a `confirm` tool asks the caller's MCP client across XProtocol first.
    approvalOf: (source, tool) =>
      config.mcpSources.find((s) => s.name === source)?.approvals?.[tool] ?? 'auto',
    answerTtlSeconds: config.relay.eventTtlSeconds,
    // docs/protocol.md §4: the freshness window and the dedupe memory that covers it.
    retentionSeconds: config.relay.replayWindowSeconds,
    maxFutureSeconds: config.relay.maxClockSkewSeconds,
    maxRememberedIds: config.relay.replayMemoryMaxIds,
    logger,
    onOutcome: (outcome, request) => start.status.outcome(outcome, request),
    observer: parts.observer,
    tracer: parts.tracer,
    signatures: nodeSignatures,
    cipher: nodeCipher,
  });
}

/** The announcer, whose payload is built afresh from the registry and the face at each publish. */
function _createAnnouncer(
  start: _Start,
  xp: _Xp,
  parts: { registry: Registry; sources: McpSources; face: McpFace | undefined },
): Announcer {
  const { config, logger, relayUrls } = start;
  const { identity } = xp;
  const { registry, sources, face } = parts;
  return new Announcer({
    pool: xp.pool,
    identity,
    payload: () =>
      announcePayload(
        config,
        registry,
        { x25519: identity.keys.x25519, relays: relayUrls },
        new Map((face?.status() ?? []).map((s) => [s.name, s.tools])),
        new Map(sources.status().map((s) => [s.name, s.refusals])),
        new Map(sources.status().map((s) => [s.name, s.flagged])),
        start.chain?.links,
        start.rotation,
      ),
    signatures: nodeSignatures,
    logger,
  });
}

/**
 * Serves the face, when there is one (its `401`/`403` refusals told to `onHttpRefused`, the
 * metrics); once its catalogs are in, the announce counts its tools.
 */
async function _startFace(
  start: _Start,
  face: McpFace | undefined,
  announcer: Announcer | undefined,
  onHttpRefused: _AdapterOperate['httpRefused'],
): Promise<McpFaceServer | undefined> {
  const mcpServer = start.config.mcpServer;
  if (!face || !mcpServer) return undefined;
  const served = await _serveFace(face, mcpServer, start.logger, start.options.stdio, onHttpRefused);
  start.started.add(() => served.close());
  if (announcer) void face.ready().then(() => announcer.publish().catch(() => {}));
  return served;
}

/** The running adapter: its parts, announce now, and stop (once, whoever asks). */
function _runningAdapter(
  start: _Start,
  parts: {
    statePath: string;
    sources: McpSources;
    face: McpFace | undefined;
    faceServer: McpFaceServer | undefined;
    discovery: DiscoveryServer | undefined;
    announcer: Announcer | undefined;
  },
): RunningAdapter {
  const { identity, logger, started } = start;
  let stopping: Promise<void> | undefined;
  return {
    keys: identity?.keys,
    stateDatabase: parts.statePath,
    sources: parts.sources,
    face: parts.face,
    faceServer: parts.faceServer,
    discoveryUrl: parts.discovery?.url,
    announce: async () => {
      await parts.announcer?.publish();
    },
    stop: () => {
      start.status.stopping();
      stopping ??= started.stopAll().then(() => logger.info({ event: 'stopped' }, 'adapter stopped'));
      return stopping;
    },
  };
}

/** The registry's schema versions, kept in the state database. */
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
