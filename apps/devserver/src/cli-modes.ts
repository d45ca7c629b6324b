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
  type ConfigWarning,
  EXIT,
  formatConfigIssue,
  type LoadedConfig,
  listenForStop,
  loadConfig,
  selfCommand,
  splitCommandLine,
  usageError,
} from '@xprotocol/mcp-adapter';
import type { RelayRefusal } from '@xprotocol/relay';
import { _quoteCommandLine } from './_command-quote.js';
import type { AdapterLogRecord } from './adapter-log-tap.js';
import { formatBanner } from './banner.js';
import type { _Flags, DevserverCliContext } from './cli-context.js';
import { _statOrUndefined, watchConfigFile } from './config-watch.js';
import { ConsoleCaller } from './console-caller.js';
import { ConsoleCatalog } from './console-catalog.js';
import { ConsoleEvents } from './console-events.js';
import { type ReloadReport, type RunningConsole, startConsole } from './console-server.js';
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
import { createStyle, type Style } from './style.js';
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

function _warn(ctx: DevserverCliContext, warnings: readonly ConfigWarning[], inline: boolean): void {
  for (const warning of warnings) {
    const text = inline
      ? `${warning.path === '' ? '' : `${warning.path}: `}${warning.message}${warning.code === 'ACCESS_ALLOW_ALL' ? ' (dev only)' : ''}`
      : formatConfigIssue(warning);
    ctx.err(`${(ctx.style ?? createStyle()).bad('warning:')} ${text}\n`);
  }
}

/** Prints the warnings of a failed load; returns the error the CLI reports (exit 1). */
function _configFailure(ctx: DevserverCliContext, error: ConfigError, origin: string): CliError {
  _warn(ctx, error.warnings, false);
  const count = error.issues.length;
  return new CliError(
    `${error.message}\n${count} problem${count === 1 ? '' : 's'} in ${origin}`,
    EXIT.failure,
    {
      cause: error,
    },
  );
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
        ? loadConfig(flags.config ?? '')
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

async function _serveLoaded(
  mode: 'config' | 'mcp-command' | 'demo-server',
  flags: _Flags,
  ctx: DevserverCliContext,
  style: Style,
  prepared: {
    loaded: LoadedConfig;
    configStat: ReturnType<typeof _statOrUndefined>;
    origin: string;
    demo: { dir: string; file: string } | undefined;
  },
): Promise<number> {
  const { loaded, configStat, origin, demo } = prepared;
  const paths = devServerPaths(ctx.home);
  const keyFile = flags.key ?? paths.adapterKey;
  const database = flags.db ?? paths.events;
  const relayPort = flags.relayPort ?? DEFAULT_RELAY_PORT;
  // The demo server's grants are the devserver's own clients (console, --mcp-proxy), added at start.
  _warn(
    ctx,
    loaded.warnings.filter((w) => !(demo && w.code === 'ACCESS_NO_GRANTS')),
    mode !== 'config',
  );
  mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
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
  let warnings = loaded.warnings;
  let lastReload: ReloadReport | undefined;
  return _untilStopped(ctx, async (stopped) => {
    dev = await startDevServer({
      config: loaded.config,
      database,
      relayPort,
      keyFile,
      extraGrants: [
        { key: proxyKey, capabilities: ['*'] },
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
    const running = dev;
    let webConsole: RunningConsole | undefined;
    if (caller) {
      try {
        webConsole = await startConsole({
          port: flags.consolePort ?? 0,
          catalog: new ConsoleCatalog(() => running.adapter),
          events,
          caller,
          configSource: {
            origin,
            config: () => running.config,
            warnings: () => warnings,
            lastReload: () => lastReload,
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
    // `--mcp-proxy` finds a relay on a port picked at run time (--relay-port 0) in this file, so
    // the pasted snippet never carries a port that changes every run.
    writeRunningRelay(paths, running.relayUrl);
    const proxyArgs = ['--mcp-proxy'];
    if (relayPort !== DEFAULT_RELAY_PORT && relayPort !== 0)
      proxyArgs.push('--relay-port', String(relayPort));
    if (flags.key !== undefined) proxyArgs.push('--key', resolve(keyFile));
    const banner = formatBanner(
      {
        adapterKey: running.adapter.keys.ed25519,
        keyFile,
        relayUrl: running.relayUrl,
        database,
        discoveryUrl: running.adapter.discoveryUrl,
        sources: running.adapter.sources.status(),
        self: ctx.self ?? selfCommand(),
        proxyArgs,
        consoleUrl: webConsole?.url,
        demoFile: demo?.file,
      },
      style,
    );
    ctx.err(`${banner.join('\n')}\n`);
    ctx.err(`${style.dim(`(the --mcp-proxy key ${proxyKey} is granted every capability; Ctrl-C stops)`)}\n`);

    let unwatch = () => {};
    if (mode === 'config' && flags.watch) {
      const file = running.config.file;
      unwatch = watchConfigFile(
        file,
        async () => {
          let next: LoadedConfig;
          try {
            next = loadConfig(file);
          } catch (error) {
            if (error instanceof ConfigError) {
              ctx.err(`xprotocol-devserver: ${_configFailure(ctx, error, file).message}\n`);
              ctx.err('the running adapter is kept; fix the file to reload\n');
              lastReload = {
                at: Date.now(),
                ok: false,
                message: `${file} changed but is invalid: the running adapter is kept`,
                issues: error.issues,
              };
              return;
            }
            throw error;
          }
          _warn(ctx, next.warnings, false);
          try {
            const adapter = await running.reload(next.config);
            const tools = adapter.sources.status().reduce((sum, s) => sum + s.toolCount, 0);
            ctx.err(`${style.ok('↻')} ${file} changed: adapter restarted (${tools} tools)\n`);
            warnings = next.warnings;
            lastReload = {
              at: Date.now(),
              ok: true,
              message: `adapter restarted (${tools} tools)`,
              issues: [],
            };
          } catch (error) {
            const message = `reload failed: ${(error as Error).message}; the previous configuration runs`;
            ctx.err(`xprotocol-devserver: ${message}\n`);
            lastReload = { at: Date.now(), ok: false, message, issues: [] };
          }
        },
        { since: configStat },
      );
    }
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
