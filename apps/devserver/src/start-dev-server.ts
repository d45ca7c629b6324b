/**
 * `startDevServer(options)`: the local dev bundle in one process — a relay on loopback with a
 * SQLite event store, the adapter (the `@xprotocol/mcp-adapter` programmatic API) pointed at it,
 * and the pretty event log of the relay's traffic.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import {
  type AdapterConfig,
  type AdapterLogger,
  createLogger,
  type RunningAdapter,
  startAdapter,
} from '@xprotocol/mcp-adapter';
import { type Relay, type RelayRefusal, SqliteEventStore, startRelay } from '@xprotocol/relay';
import { type AdapterLogRecord, tapAdapterLogger } from './adapter-log-tap.js';
import {
  type EventLogEntry,
  formatEventLine,
  formatRefusalLine,
  ObservedEventStore,
  watchRefusalCount,
} from './event-log.js';
import { DEFAULT_RELAY_PORT, RELAY_HOST } from './paths.js';
import { createStyle, type Style } from './style.js';

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** The adapter configuration (from `loadConfig`, `parseConfig` or `inlineConfig`). */
  config: AdapterConfig;
  /** The relay's SQLite event store file (its folder is created), or `:memory:`. */
  database: string;
  /** The relay's port on 127.0.0.1; 0 picks a free one. Default 8765. */
  relayPort?: number;
  /** Replaces `config.identity.keyFile` (the dev key file; created when missing). */
  keyFile?: string;
  /** Replaces `config.stateDatabase`. */
  stateDatabase?: string;
  /**
   * Serves the well-known document and `/xp/schemas` on this port of 127.0.0.1 (0: any free
   * port), in place of `config.discovery` (an inline configuration has none).
   */
  wellKnownPort?: number;
  /** Grants added to `config.access.grants` (e.g. for the `--mcp-proxy` key). */
  extraGrants?: readonly { key: string; capabilities: string[] }[];
  /** The adapter's logger. Default: `createLogger(config.logging)`. */
  logger?: AdapterLogger;
  /** Where event log lines go (one call per line, no newline). Default: stderr. `false`: no log. */
  eventLog?: ((line: string) => void) | false;
  /** Called with every event the relay stored (after the log line). */
  onEvent?: (entry: EventLogEntry) => void;
  /** Called with how many events the relay refused before its store (polled every 250 ms). */
  onRefused?: (count: number) => void;
  /** Called with each event the relay refuses, with the reason its sender was told. */
  onRelayRefusal?: (refusal: RelayRefusal) => void;
  /** Called with every record the adapter logs, whatever the logger's level. */
  onAdapterLog?: (record: AdapterLogRecord) => void;
  /** Decorations for the event log. Default: colour when stderr is a TTY and `NO_COLOR` is unset. */
  style?: Style;
  /** Streams for an MCP face on stdio, passed to `startAdapter`. */
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream };
}

/** An adapter with relays, and so with keys (a pure MCP gateway has none). */
type _DevAdapter = RunningAdapter & { readonly keys: NonNullable<RunningAdapter['keys']> };

/** A running devserver. */
export interface DevServer {
  /** `ws://127.0.0.1:<port>`. */
  readonly relayUrl: string;
  readonly relay: Relay;
  /**
   * The current adapter (replaced by {@link DevServer.reload}). It runs on the devserver's relay,
   * so it always has an identity: its `keys` are set.
   */
  readonly adapter: _DevAdapter;
  /** The configuration the current adapter runs, with the devserver's replacements applied. */
  readonly config: AdapterConfig;
  /** Stops the adapter and starts one with `config` (same relay, key and replacements). */
  reload(config: AdapterConfig): Promise<RunningAdapter>;
  /** Stops the adapter (ending its MCP server children), then the relay (closing the store). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts the relay, then the adapter on it. If the adapter cannot start, the relay is closed and
 * the error is rethrown.
 * @example
 * const { config } = inlineConfig({ command: 'node server.js', namespace: 'com.demo.x', keyFile: '/tmp/a.key' });
 * const dev = await startDevServer({ config, database: ':memory:', relayPort: 0 });
 * dev.relayUrl; // 'ws://127.0.0.1:39217'
 * await dev.stop();
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const style = options.style ?? createStyle();
  const write = options.eventLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  const port = options.relayPort ?? DEFAULT_RELAY_PORT;
  if (options.database !== ':memory:') mkdirSync(dirname(options.database), { recursive: true, mode: 0o700 });
  const store = new ObservedEventStore(new SqliteEventStore({ path: options.database }), (entry) => {
    if (write) write(formatEventLine(entry, style));
    options.onEvent?.(entry);
  });
  let relay: Relay;
  try {
    // The relay's WebSocket server re-emits a listen error nobody handles (an uncaught exception):
    // find a taken port first, so the user gets this message instead.
    await _assertPortFree(port);
    relay = await startRelay({
      host: RELAY_HOST,
      port,
      store,
      // Each refusal, with the reason its sender was told: a line of the event log, and the caller's hook.
      onRefused: (refusal: RelayRefusal) => {
        if (write) write(formatRefusalLine(refusal, style));
        options.onRelayRefusal?.(refusal);
      },
    });
  } catch (error) {
    await store.close();
    if (_errorCode(error) === 'EADDRINUSE') {
      throw new Error(
        `cannot start the local relay: ${RELAY_HOST}:${port} is already in use (another devserver?); choose another with --relay-port, or 0 for any free port`,
        { cause: error },
      );
    }
    throw error;
  }
  const onRefused = options.onRefused;
  const stopRefusals = onRefused ? watchRefusalCount(relay, onRefused) : () => {};
  const relayUrl = relay.url;

  const prepare = (config: AdapterConfig): AdapterConfig => ({
    ...config,
    // On the devserver's relay every configuration is an XProtocol adapter, a relay-less gateway file too.
    mode: 'xprotocol',
    identity: { ...config.identity, keyFile: options.keyFile ?? config.identity.keyFile },
    relay: { ...config.relay, urls: [relayUrl] },
    stateDatabase: options.stateDatabase ?? config.stateDatabase,
    discovery:
      options.wellKnownPort === undefined
        ? config.discovery
        : { ...config.discovery, wellKnownPort: options.wellKnownPort, wellKnownHost: RELAY_HOST },
    access: { ...config.access, grants: [...config.access.grants, ...(options.extraGrants ?? [])] },
  });
  const launch = async (config: AdapterConfig): Promise<_DevAdapter> => {
    const logger = options.logger ?? createLogger(config.logging);
    const onLog = options.onAdapterLog;
    const started = await startAdapter(config, {
      logger: onLog ? tapAdapterLogger(logger, onLog) : logger,
      ...(options.stdio && { stdio: options.stdio }),
    });
    if (_hasKeys(started)) return started;
    await started.stop();
    throw new Error('internal: the devserver started an adapter without an identity');
  };

  let config = prepare(options.config);
  let adapter: _DevAdapter;
  try {
    adapter = await launch(config);
  } catch (error) {
    stopRefusals();
    await relay.close();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    relayUrl,
    relay,
    get adapter() {
      return adapter;
    },
    get config() {
      return config;
    },
    async reload(next: AdapterConfig) {
      const prepared = prepare(next);
      await adapter.stop();
      try {
        adapter = await launch(prepared);
      } catch (error) {
        // Keep serving: bring the previous configuration back, then report the failure.
        adapter = await launch(config);
        throw error;
      }
      config = prepared;
      return adapter;
    },
    stop() {
      stopping ??= (async () => {
        try {
          await adapter.stop();
        } finally {
          stopRefusals();
          await relay.close();
        }
      })();
      return stopping;
    },
  };
}

/** Rejects with the listen error when `port` cannot be bound on the relay's host (0 always can). */
function _assertPortFree(port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, RELAY_HOST, () => probe.close(() => resolve()));
  });
}

/** The `code` of an error or of its cause. */
function _errorCode(error: unknown): unknown {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: unknown };
  return code ?? (cause as { code?: unknown } | undefined)?.code;
}

/** Whether `adapter` has keys: always, since `prepare` makes every configuration an XProtocol adapter. */
function _hasKeys(adapter: RunningAdapter): adapter is _DevAdapter {
  return adapter.keys !== undefined;
}
