/**
 * The three serving modes of `xprotocol-devserver` and the demo, loaded by the CLI once its flags
 * are known good (they pull in the adapter, the relay and the bridge).
 * @module
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  CliError,
  ConfigError,
  EXIT,
  type LoadedConfig,
  listenForStop,
  selfCommand,
  splitCommandLine,
  usageError,
} from '@xprotocol/mcp-adapter';
import type { RelayRefusal } from '@xprotocol/relay';
import { _quoteCommandLine } from './_command-quote.js';
import type { AdapterLogRecord } from './adapter-log-tap.js';
import { formatBanner } from './banner.js';
import type { _Flags, DevserverCliContext } from './cli-context.js';
import { _loadConfigFile } from './config-file.js';
import { type _ReloadState, _watchForReload } from './config-reload.js';
import { _configFailure, _printConfigWarnings } from './config-report.js';
import { _statOrUndefined } from './config-watch.js';
import { ConsoleCaller } from './console-caller.js';
import { ConsoleCatalog } from './console-catalog.js';
import { ConsoleEvents } from './console-events.js';
import { type RunningConsole, startConsole } from './console-server.js';
import { DEMO_NAMESPACE, DEMO_TEXT, DemoError, filesystemServerEntry, runDemo } from './demo.js';
import type { EventLogEntry } from './event-log.js';
import { inlineConfig } from './inline-config.js';
import { ensureProxyKey, startMcpProxy } from './mcp-proxy.js';
import {
  DEFAULT_RELAY_PORT,
  devServerPaths,
  localRelayUrl,
  readRunningRelay,
  removeRunningRelay,
  writeRunningRelay,
} from './paths.js';
import { type DevServer, startDevServer } from './start-dev-server.js';
import type { Style } from './style.js';
import { DEVSERVER_VERSION } from './version.js';

/**
 * Runs `work` until `ctx.stopped` (default: the first SIGINT or SIGTERM) resolves; the signal
 * handlers are removed on every way out, so a failed start leaves no process that ignores Ctrl-C.
 */
async function _untilStopped<T>(
  ctx: DevserverCliContext,
  work: (stopped: Promise<string>) => Promise<T>,
): Promise<T> {
  if (ctx.stopped) return work(ctx.stopped());
  const stop = listenForStop();
  try {
    return await work(stop.stopped.finally(() => stop.dispose()));
  } finally {
    stop.dispose();
  }
}

export async function _serve(
  mode: 'config' | 'mcp-command' | 'demo-server',
  flags: _Flags,
  ctx: DevserverCliContext,
  style: Style,
): Promise<number> {
  const paths = devServerPaths(ctx.home);
  const keyFile = flags.key ?? paths.adapterKey;
  if (mode === 'mcp-command') {
    const split = splitCommandLine(flags.mcpCommand ?? '');
    if (!split.ok) throw usageError(`--mcp-command: ${split.reason}`);
  }
  // Taken before the file is read, so the watcher sees an edit made while the first load runs.
  const configStat = mode === 'config' ? _statOrUndefined(flags.config ?? '') : undefined;
  const origin =
    mode === 'config'
      ? resolve(flags.config ?? '')
      : mode === 'mcp-command'
        ? '--mcp-command'
        : 'the demo server';
  const demo = mode === 'demo-server' ? _demoFolder() : undefined;
  let loaded: LoadedConfig;
  try {
    loaded =
      mode === 'config'
        ? _loadConfigFile(flags.config ?? '', keyFile)
        : demo
          ? inlineConfig({
              command: _quoteCommandLine([process.execPath, filesystemServerEntry(), demo.dir]),
              namespace: DEMO_NAMESPACE,
              sourceName: 'fs',
              keyFile,
              // Only the devserver's own clients (the console, --mcp-proxy) are granted: a key no
              // grant names is refused, which the console's "fresh key" signer shows.
              access: { default: 'deny' },
              origin,
            })
          : inlineConfig({
              command: flags.mcpCommand ?? '',
              namespace: flags.namespace ?? 'com.demo.mcp',
              keyFile,
              // Deny by default here too: the relay listens on a local port any program (or, through
              // a browser, any page) can reach, so only the devserver's own clients are granted.
              access: { default: 'deny' },
            });
  } catch (error) {
    demo?.remove();
    if (error instanceof ConfigError) throw _configFailure(ctx, error, flags.config ?? origin);
    throw error;
  }
  try {
    return await _serveLoaded(mode, flags, ctx, style, { loaded, configStat, origin, demo });
  } finally {
    demo?.remove();
  }
}

/** A temporary folder holding `hello.txt` for the demo server, and how to remove it. */
function _demoFolder(): { dir: string; file: string; remove: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'xprotocol-devserver-demo-')));
  const file = join(dir, 'hello.txt');
  writeFileSync(file, DEMO_TEXT);
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What `_serve` prepared: the loaded configuration and where it came from. */
interface _Prepared {
  loaded: LoadedConfig;
  /** The file's stat before it was read (`--config`), where `--watch` starts comparing. */
  configStat: ReturnType<typeof _statOrUndefined>;
  origin: string;
  demo: { dir: string; file: string } | undefined;
}

/** Where this run keeps its key and events, and the relay's port. */
interface _Places {
  keyFile: string;
  database: string;
  relayPort: number;
}

/**
 * Serves a loaded configuration until stopped: the relay and the adapter, the web console (unless
 * `--no-console`), the banner, and `--watch`'s reload; then stops them in reverse order.
 */
async function _serveLoaded(
  mode: 'config' | 'mcp-command' | 'demo-server',
  flags: _Flags,
  ctx: DevserverCliContext,
  style: Style,
  prepared: _Prepared,
): Promise<number> {
  const { loaded, demo } = prepared;
  const paths = devServerPaths(ctx.home);
  const places: _Places = {
    keyFile: flags.key ?? paths.adapterKey,
    database: flags.db ?? paths.events,
    relayPort: flags.relayPort ?? DEFAULT_RELAY_PORT,
  };
  // An inline server's grants are the devserver's own clients (console, --mcp-proxy), added at start.
  _printConfigWarnings(
    ctx,
    loaded.warnings.filter((w) => !(mode !== 'config' && w.code === 'ACCESS_NO_GRANTS')),
    mode !== 'config',
  );
  mkdirSync(dirname(places.keyFile), { recursive: true, mode: 0o700 });
  const proxyKey = await ensureProxyKey(paths.proxyKey);
  // The web console's feed and its dev client exist before the adapter, which grants that client.
  const events = new ConsoleEvents();
  let dev: DevServer | undefined;
  const caller = flags.console
    ? new ConsoleCaller({
        relayUrl: () => dev?.relayUrl ?? '',
        adapterKey: () => dev?.adapter.keys.ed25519 ?? '',
      })
    : undefined;
  const reloads: _ReloadState = { warnings: loaded.warnings, lastReload: undefined };
  return _untilStopped(ctx, async (stopped) => {
    const wellKnownPort = mode === 'config' ? undefined : _wellKnownPort(places.relayPort);
    dev = await _startServing(ctx, style, loaded, places, { proxyKey, caller, events, wellKnownPort }).catch(
      (error: unknown) => {
        throw _wellKnownTaken(error, wellKnownPort) ?? error;
      },
    );
    const running = dev;
    const webConsole = caller
      ? await _startWebConsole(flags, running, {
          caller,
          events,
          origin: prepared.origin,
          generated: _generated(mode, demo),
          reloads,
        })
      : undefined;
    // `--mcp-proxy` finds a relay on a port picked at run time (--relay-port 0) in this file, so
    // the pasted snippet never carries a port that changes every run.
    writeRunningRelay(paths, running.relayUrl);
    _printBanner(ctx, style, flags, places, { running, proxyKey, webConsole, demo });
    const unwatch =
      mode === 'config' && flags.watch
        ? _watchForReload(ctx, style, running, reloads, prepared.configStat)
        : () => {};
    const signal = await stopped;
    unwatch();
    ctx.err(`${signal}: stopping\n`);
    removeRunningRelay(paths, running.relayUrl);
    await webConsole?.close();
    await running.stop();
    ctx.err('stopped\n');
    return EXIT.ok;
  });
}

/**
 * The port of an inline configuration's well-known document: the one after the relay's (8766
 * beside 8765, as in docs/design.md §14), any free one when the relay's is picked at run time.
 */
function _wellKnownPort(relayPort: number): number {
  return relayPort === 0 || relayPort >= 65535 ? 0 : relayPort + 1;
}

/** What the Config page says of a configuration the devserver generated (`undefined`: a file). */
function _generated(
  mode: 'config' | 'mcp-command' | 'demo-server',
  demo: { dir: string } | undefined,
): string | undefined {
  if (mode === 'config') return undefined;
  return demo
    ? `generated by the devserver, no file on disk: server-filesystem over ${demo.dir} (removed when the devserver stops)`
    : 'generated by the devserver from --mcp-command, no file on disk';
}

/** The error to report when the well-known port was taken, with what to do; else `undefined`. */
function _wellKnownTaken(error: unknown, port: number | undefined): CliError | undefined {
  const message = error instanceof Error ? error.message : '';
  if (port === undefined || port === 0 || !message.includes(`:${port}`) || !message.includes('EADDRINUSE'))
    return undefined;
  return new CliError(
    `cannot serve the well-known document: 127.0.0.1:${port} is already in use (the port after the relay's); choose another --relay-port, or 0 for any free ports`,
    EXIT.failure,
    { cause: error },
  );
}

/**
 * The relay and the adapter, granting every capability to the `--mcp-proxy` key and the console's
 * dev client; with the console, its feed hears every relayed event and refusal.
 */
function _startServing(
  ctx: DevserverCliContext,
  style: Style,
  loaded: LoadedConfig,
  places: _Places,
  clients: {
    proxyKey: string;
    caller: ConsoleCaller | undefined;
    events: ConsoleEvents;
    wellKnownPort: number | undefined;
  },
): Promise<DevServer> {
  const { caller, events } = clients;
  return startDevServer({
    config: loaded.config,
    database: places.database,
    relayPort: places.relayPort,
    keyFile: places.keyFile,
    ...(clients.wellKnownPort !== undefined && { wellKnownPort: clients.wellKnownPort }),
    extraGrants: [
      { key: clients.proxyKey, capabilities: ['*'] },
      ...(caller ? [{ key: caller.dev.keys.ed25519, capabilities: ['*'] }] : []),
    ],
    eventLog: (line) => ctx.err(`${line}\n`),
    ...(caller && {
      onEvent: (entry: EventLogEntry) => events.relayed(entry),
      // Every refusal with the reason its sender was told, the console's own publishes included.
      onRelayRefusal: (refusal: RelayRefusal) =>
        events.refusedByRelay(refusal.reason, refusal.kind, refusal.pubkey),
      onAdapterLog: (record: AdapterLogRecord) => _noteRefusal(events, record),
    }),
    style,
  });
}

/**
 * The web console over the running devserver. When it cannot start, the devserver is stopped and
 * the error says what to do (a port in use: another `--console-port`, or `--no-console`).
 */
async function _startWebConsole(
  flags: _Flags,
  running: DevServer,
  parts: {
    caller: ConsoleCaller;
    events: ConsoleEvents;
    origin: string;
    generated: string | undefined;
    reloads: _ReloadState;
  },
): Promise<RunningConsole> {
  const { caller, reloads } = parts;
  try {
    return await startConsole({
      port: flags.consolePort ?? 0,
      catalog: new ConsoleCatalog(() => running.adapter),
      events: parts.events,
      caller,
      configSource: {
        origin: parts.origin,
        ...(parts.generated !== undefined && { generated: parts.generated }),
        config: () => running.config,
        warnings: () => reloads.warnings,
        lastReload: () => reloads.lastReload,
      },
      identity: {
        relayUrl: () => running.relayUrl,
        endpoints: () => [
          { name: 'the adapter', key: running.adapter.keys.ed25519 },
          ...running.config.xprotocolSources.flatMap((s) => (s.key ? [{ name: s.name, key: s.key }] : [])),
        ],
        trustRoots: () => [
          ...new Set([
            ...running.config.access.trustedIssuers,
            ...running.config.xprotocolSources.flatMap((s) => s.trustRoots),
          ]),
        ],
      },
      status: () => ({
        adapterKey: running.adapter.keys.ed25519,
        relayUrl: running.relayUrl,
        version: DEVSERVER_VERSION,
      }),
    });
  } catch (error) {
    await caller.close();
    await running.stop();
    const taken = (error as { code?: unknown }).code === 'EADDRINUSE';
    throw new CliError(
      taken
        ? `cannot start the web console: 127.0.0.1:${flags.consolePort} is already in use; choose another with --console-port, 0 for any free port, or --no-console`
        : `cannot start the web console: ${(error as Error).message}`,
      EXIT.failure,
      { cause: error },
    );
  }
}

/** Prints the banner (keys, URLs, sources, MCP client snippets) and how to stop. */
function _printBanner(
  ctx: DevserverCliContext,
  style: Style,
  flags: _Flags,
  places: _Places,
  serving: {
    running: DevServer;
    proxyKey: string;
    webConsole: RunningConsole | undefined;
    demo: { file: string } | undefined;
  },
): void {
  const { running, proxyKey } = serving;
  const { keyFile, relayPort } = places;
  const proxyArgs = ['--mcp-proxy'];
  if (relayPort !== DEFAULT_RELAY_PORT && relayPort !== 0) proxyArgs.push('--relay-port', String(relayPort));
  if (flags.key !== undefined) proxyArgs.push('--key', resolve(keyFile));
  const banner = formatBanner(
    {
      adapterKey: running.adapter.keys.ed25519,
      keyFile,
      relayUrl: running.relayUrl,
      database: places.database,
      discoveryUrl: running.adapter.discoveryUrl,
      sources: running.adapter.sources.status(),
      self: ctx.self ?? selfCommand(),
      proxyArgs,
      consoleUrl: serving.webConsole?.url,
      demoFile: serving.demo?.file,
    },
    style,
  );
  ctx.err(`${banner.join('\n')}\n`);
  ctx.err(`${style.dim(`(the --mcp-proxy key ${proxyKey} is granted every capability; Ctrl-C stops)`)}\n`);
}

/** An `xp.error` the adapter is about to seal: its code and message, for the answer's row. */
function _noteRefusal(events: ConsoleEvents, record: AdapterLogRecord): void {
  const { id, code } = record.fields;
  if (typeof id === 'string' && /^[0-9a-f]{64}$/.test(id) && typeof code === 'string') {
    events.refusedByAdapter(id, code, record.message);
  }
}

export async function _proxy(flags: _Flags, ctx: DevserverCliContext): Promise<number> {
  const paths = devServerPaths(ctx.home);
  const adapter = await startMcpProxy({
    adapterKeyFile: flags.key ?? paths.adapterKey,
    proxyKeyFile: paths.proxyKey,
    stateDatabase: paths.proxyState,
    relayUrl:
      flags.relayPort !== undefined
        ? localRelayUrl(flags.relayPort)
        : (readRunningRelay(paths) ?? localRelayUrl(DEFAULT_RELAY_PORT)),
  });
  return _untilStopped(ctx, async (stopped) => {
    const ended = new Promise<string>((done) => process.stdin.once('end', () => done('end of input')));
    await Promise.race([stopped, ended]);
    await adapter.stop();
    return EXIT.ok;
  });
}

export async function _demo(flags: _Flags, ctx: DevserverCliContext, style: Style): Promise<number> {
  return _untilStopped(ctx, async (stopped) => {
    const interrupt = new AbortController();
    void stopped.then((signal) => interrupt.abort(signal));
    try {
      const result = await runDemo({
        write: (line) => ctx.err(`${line}\n`),
        style,
        signal: interrupt.signal,
        ...(flags.relayPort !== undefined && { relayPort: flags.relayPort }),
      });
      ctx.out(`${JSON.stringify(result.payload)}\n`);
      return EXIT.ok;
    } catch (error) {
      if (error instanceof DemoError) throw new CliError(error.message, EXIT.failure, { cause: error });
      throw error;
    }
  });
}
