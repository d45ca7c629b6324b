/**
 * The three serving modes of `xprotocol-devserver` and the demo, loaded by the CLI once its flags
 * are known good (they pull in the adapter, the relay and the bridge).
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  ConfigError,
  type ConfigWarning,
  formatConfigIssue,
  type LoadedConfig,
  loadConfig,
  splitCommandLine,
} from '@xprotocol/mcp-adapter';
import { _UsageError } from './_usage-error.js';
import { formatBanner } from './banner.js';
import { type DevserverCliContext, EXIT } from './cli.js';
import { _statOrUndefined, watchConfigFile } from './config-watch.js';
import { DemoError, runDemo } from './demo.js';
import { inlineConfig } from './inline-config.js';
import { ensureProxyKey, startMcpProxy } from './mcp-proxy.js';
import { DEFAULT_RELAY_PORT, devServerPaths, localRelayUrl } from './paths.js';
import { startDevServer } from './start-dev-server.js';
import { createStyle, type Style } from './style.js';

/** The options the command line accepts. */
export interface _Flags {
  config?: string;
  mcpCommand?: string;
  namespace?: string;
  demo?: boolean;
  mcpProxy?: boolean;
  relayPort?: number;
  db?: string;
  key?: string;
  watch: boolean;
}

function _signals(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

function _warn(ctx: DevserverCliContext, warnings: readonly ConfigWarning[], inline: boolean): void {
  for (const warning of warnings) {
    const text = inline
      ? `${warning.path === '' ? '' : `${warning.path}: `}${warning.message}${warning.code === 'ACCESS_ALLOW_ALL' ? ' (dev only)' : ''}`
      : formatConfigIssue(warning);
    ctx.err(`${(ctx.style ?? createStyle()).bad('warning:')} ${text}\n`);
  }
}

function _configFailure(ctx: DevserverCliContext, error: ConfigError, origin: string): number {
  _warn(ctx, error.warnings, false);
  const count = error.issues.length;
  ctx.err(`xprotocol-devserver: ${error.message}\n${count} problem${count === 1 ? '' : 's'} in ${origin}\n`);
  return EXIT.failure;
}

export async function _serve(
  mode: 'config' | 'mcp-command',
  flags: _Flags,
  ctx: DevserverCliContext,
  style: Style,
): Promise<number> {
  const paths = devServerPaths(ctx.home);
  const keyFile = flags.key ?? paths.adapterKey;
  const database = flags.db ?? paths.events;
  const relayPort = flags.relayPort ?? DEFAULT_RELAY_PORT;
  if (mode === 'mcp-command') {
    const split = splitCommandLine(flags.mcpCommand ?? '');
    if (!split.ok) throw new _UsageError(`--mcp-command: ${split.reason}`);
  }
  // Taken before the file is read, so the watcher sees an edit made while the first load runs.
  const configStat = mode === 'config' ? _statOrUndefined(flags.config ?? '') : undefined;
  let loaded: LoadedConfig;
  try {
    loaded =
      mode === 'config'
        ? loadConfig(flags.config ?? '')
        : inlineConfig({
            command: flags.mcpCommand ?? '',
            namespace: flags.namespace ?? 'com.demo.mcp',
            keyFile,
          });
  } catch (error) {
    if (error instanceof ConfigError) return _configFailure(ctx, error, flags.config ?? '--mcp-command');
    throw error;
  }
  _warn(ctx, loaded.warnings, mode === 'mcp-command');
  mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
  const proxyKey = await ensureProxyKey(paths.proxyKey);
  const dev = await startDevServer({
    config: loaded.config,
    database,
    relayPort,
    keyFile,
    extraGrants: [{ key: proxyKey, capabilities: ['*'] }],
    eventLog: (line) => ctx.err(`${line}\n`),
    style,
  });
  const proxyArgs = ['--mcp-proxy'];
  if (dev.relay.port !== DEFAULT_RELAY_PORT) proxyArgs.push('--relay-port', String(dev.relay.port));
  if (flags.key !== undefined) proxyArgs.push('--key', keyFile);
  const banner = formatBanner(
    {
      adapterKey: dev.adapter.keys.ed25519,
      keyFile,
      relayUrl: dev.relayUrl,
      database,
      sources: dev.adapter.sources.status(),
      proxyArgs,
    },
    style,
  );
  ctx.err(`${banner.join('\n')}\n`);
  ctx.err(`${style.dim(`(the --mcp-proxy key ${proxyKey} is granted every capability; Ctrl-C stops)`)}\n`);

  let unwatch = () => {};
  if (mode === 'config' && flags.watch) {
    const file = dev.config.file;
    unwatch = watchConfigFile(
      file,
      async () => {
        let next: LoadedConfig;
        try {
          next = loadConfig(file);
        } catch (error) {
          if (error instanceof ConfigError) {
            _configFailure(ctx, error, file);
            ctx.err('the running adapter is kept; fix the file to reload\n');
            return;
          }
          throw error;
        }
        _warn(ctx, next.warnings, false);
        try {
          const adapter = await dev.reload(next.config);
          const tools = adapter.sources.status().reduce((sum, s) => sum + s.toolCount, 0);
          ctx.err(`${style.ok('↻')} ${file} changed: adapter restarted (${tools} tools)\n`);
        } catch (error) {
          ctx.err(
            `xprotocol-devserver: reload failed: ${(error as Error).message}; the previous configuration runs\n`,
          );
        }
      },
      { since: configStat },
    );
  }
  const signal = await (ctx.stopped ?? _signals)();
  unwatch();
  ctx.err(`${signal}: stopping\n`);
  await dev.stop();
  ctx.err('stopped\n');
  return EXIT.ok;
}

export async function _proxy(flags: _Flags, ctx: DevserverCliContext): Promise<number> {
  const paths = devServerPaths(ctx.home);
  const adapter = await startMcpProxy({
    adapterKeyFile: flags.key ?? paths.adapterKey,
    proxyKeyFile: paths.proxyKey,
    stateDatabase: paths.proxyState,
    relayUrl: localRelayUrl(flags.relayPort ?? DEFAULT_RELAY_PORT),
  });
  const ended = new Promise<string>((resolve) => process.stdin.once('end', () => resolve('end of input')));
  await Promise.race([(ctx.stopped ?? _signals)(), ended]);
  await adapter.stop();
  return EXIT.ok;
}

export async function _demo(flags: _Flags, ctx: DevserverCliContext, style: Style): Promise<number> {
  const interrupt = new AbortController();
  void (ctx.stopped ?? _signals)().then((signal) => interrupt.abort(signal));
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
    if (error instanceof DemoError) {
      ctx.err(`xprotocol-devserver: ${error.message}\n`);
      return EXIT.failure;
    }
    throw error;
  }
}
