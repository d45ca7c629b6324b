/**
 * The commands that read a config file: `validate`, `schemas`, `test-mcp` and `start`, and the
 * serving loop `start` runs ({@link serveConfig}), which `gateway` runs too.
 * @module
 */
import { existsSync } from 'node:fs';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { UpstreamSession } from '@xprotocol/mcp-bridge';
import { MemoryVersionStore, Registry } from '@xprotocol/registry';
import type { Refusal, SchemaContract } from '@xprotocol/translate';
import {
  type AdapterConfig,
  ConfigError,
  formatConfigIssue,
  type LoadedConfig,
  loadConfig,
  type McpSourceConfig,
} from '../config/index.js';
import { _loadAdapterChain } from '../runtime/adapter-chain.js';
import { _loadAdapterRotation } from '../runtime/adapter-rotation.js';
import { startIdleCollector } from '../runtime/idle-collector.js';
import { createLogger } from '../runtime/logger.js';
import {
  listEntries,
  translateConfiguredSource,
  upstreamTransportOf,
} from '../runtime/source-translation.js';
import { type RunningAdapter, startAdapter } from '../runtime/start-adapter.js';
import { CliError, type CliIo, EXIT, listenForStop, usageError } from './cli-shape.js';

/** Loads the config, printing warnings on stderr; turns a ConfigError into a CliError (exit 1). */
export function readConfig(path: string, io: CliIo): LoadedConfig {
  try {
    const loaded = loadConfig(path);
    for (const warning of loaded.warnings) io.err(`warning: ${formatConfigIssue(warning)}\n`);
    return loaded;
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const warning of error.warnings) io.err(`warning: ${formatConfigIssue(warning)}\n`);
      const count = error.issues.length;
      throw new CliError(
        `${error.message}\n${count} problem${count === 1 ? '' : 's'} in ${path}`,
        EXIT.failure,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * `validate --config FILE [--connect]`: exit 0 when the file is valid, its chain file (if any)
 * checks as at start, and, with --connect, every source translates.
 */
export async function validate(options: { config: string; connect?: boolean }, io: CliIo): Promise<void> {
  const { config } = readConfig(options.config, io);
  await _validateChain(config, options.config);
  if (options.connect) {
    const problems: string[] = [];
    for (const source of config.mcpSources) {
      try {
        const { refused } = await translateOne(config, source.name);
        // A prompt or template without a contract is still served (xp.mcp.request): no problem.
        for (const r of refused.filter((r) => r.entry === 'tool'))
          problems.push(`${_sourceLabel(source)}: tool ${r.tool}: ${r.reason}`);
      } catch (error) {
        problems.push(`${_sourceLabel(source)}: ${(error as Error).message}`);
      }
    }
    if (problems.length > 0) throw new CliError(problems.join('\n'));
  }
  const mode = config.mode === 'mcp_gateway' ? ', a pure MCP gateway' : '';
  const openApi = config.mcpSources.filter((s) => s.transport === 'openapi').length;
  const counts = [
    `${config.mcpSources.length - openApi} mcp_sources`,
    ...(openApi > 0 ? [`${openApi} openapi_sources`] : []),
    `${config.xprotocolSources.length} xprotocol_sources`,
  ].join(', ');
  io.err(
    `${config.file}: valid${mode} (${counts}${options.connect ? ', every source reached and translated' : ''})\n`,
  );
}

/** How a message names a source: by the config list it is in (OpenAPI sources run as MCP ones). */
function _sourceLabel(source: McpSourceConfig): string {
  return `${source.transport === 'openapi' ? 'openapi_sources' : 'mcp_sources'} "${source.name}"`;
}

/**
 * Checks the chain file and the rotation file as `start` will (runtime/adapter-chain.ts,
 * runtime/adapter-rotation.ts); the check that they name the adapter's own key needs the key
 * file, so it is skipped while that does not exist yet.
 */
async function _validateChain(config: AdapterConfig, path: string): Promise<void> {
  const { keyFile, parentDelegationEvent, rotatedFrom } = config.identity;
  if (parentDelegationEvent === undefined && rotatedFrom === undefined) return;
  const ownKey =
    keyFile !== undefined && existsSync(keyFile)
      ? (await readKeyFile(keyFile, { signatures: nodeSignatures, cipher: nodeCipher })).keys.ed25519
      : undefined;
  try {
    _loadAdapterChain(config, ownKey, Math.floor(Date.now() / 1000));
    _loadAdapterRotation(config, ownKey);
  } catch (error) {
    if (error instanceof ConfigError)
      throw new CliError(`${error.message}\n1 problem in ${path}`, EXIT.failure, { cause: error });
    throw error;
  }
}

/** Connects to one source, lists and translates its tools. */
async function translateOne(
  config: AdapterConfig,
  name: string,
): Promise<{ contracts: SchemaContract[]; refused: Pick<Refusal, 'tool' | 'entry' | 'reason'>[] }> {
  const source = config.mcpSources.find((s) => s.name === name);
  if (!source)
    throw usageError(
      `--source: no mcp_sources or openapi_sources entry named ${JSON.stringify(name)}; have ${config.mcpSources.map((s) => s.name).join(', ') || 'none'}`,
    );
  const upstream = new UpstreamSession({ name: source.name, transport: upstreamTransportOf(source) });
  try {
    const tools = await upstream.listTools();
    const entries = await listEntries(source, upstream, (what, error) => {
      throw new Error(`${source.name}: ${what} failed: ${(error as Error).message}`);
    });
    const translation = translateConfiguredSource(source, tools, entries);
    return {
      contracts: translation.contracts,
      refused: translation.refused.map((r) => ({ tool: r.tool, entry: r.entry, reason: r.reason })),
    };
  } finally {
    await upstream.close();
  }
}

/** `schemas --config FILE [--json] [--gbnf]`: every contract the adapter would publish, sorted by kind. */
export async function schemas(
  options: { config: string; json?: boolean; gbnf?: boolean },
  io: CliIo,
): Promise<void> {
  const { config } = readConfig(options.config, io);
  const registry = new Registry({ versionStore: new MemoryVersionStore() });
  for (const source of config.mcpSources) {
    const { contracts, refused } = await translateOne(config, source.name);
    for (const r of refused) {
      const entry = r.entry === 'resource_template' ? 'resource template' : r.entry;
      io.err(
        r.entry === 'tool'
          ? `warning: ${_sourceLabel(source)}: tool ${r.tool} not published: ${r.reason}\n`
          : `note: ${_sourceLabel(source)}: ${entry} ${r.tool} has no contract (still served through xp.mcp.request): ${r.reason}\n`,
      );
    }
    await registry.refreshSource(source.name, contracts);
  }
  const contracts = registry.contracts().sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  if (options.json) {
    io.out(`${JSON.stringify(contracts, null, 2)}\n`);
    return;
  }
  if (options.gbnf) {
    for (const contract of contracts) {
      io.out(
        `# ${contract.kind} ${contract.version} (${contract.gbnf_status.state})\n${contract.gbnf_grammar ?? '# no grammar\n'}\n`,
      );
    }
    return;
  }
  for (const contract of contracts) {
    const score = (contract.semantic as { description_quality_score?: number } | undefined)
      ?.description_quality_score;
    io.out(
      `${contract.kind}\t${contract.version}\t${contract.auth.required_capability}\t${score === undefined ? '-' : score.toFixed(2)}\n`,
    );
  }
}

/** `test-mcp --config FILE --source NAME`: connects to one source and prints what it offers. */
export async function testMcp(options: { config: string; source: string }, io: CliIo): Promise<void> {
  const { config } = readConfig(options.config, io);
  const { contracts, refused } = await translateOne(config, options.source);
  io.out(
    `${JSON.stringify({ source: options.source, tools: contracts.length, kinds: contracts.map((c) => c.kind), refused }, null, 2)}\n`,
  );
}

/**
 * `start --config FILE [--log-format auto|pretty|json]`: runs until SIGINT or SIGTERM. When the adapter cannot start (a bad key
 * file, a taken port, …) it throws at once with nothing left running: no signal handler, no
 * timer, no child, no open port.
 */
export async function start(
  options: { config: string; logFormat?: AdapterConfig['logging']['format'] },
  io: CliIo,
): Promise<void> {
  // readConfig already printed the warnings on stderr.
  const { config } = readConfig(options.config, io);
  // --log-format wins over logging.format.
  const logging = { ...config.logging, format: options.logFormat ?? config.logging.format };
  await serveConfig({ ...config, logging });
}

/**
 * Runs the adapter `config` describes until SIGINT or SIGTERM, as `start` does; `onReady` is
 * called once it serves. `gateway` builds its config and runs it here, so both share every check
 * and default. Throws at once, with nothing left running, when the adapter cannot start.
 */
export async function serveConfig(
  config: AdapterConfig,
  onReady?: (adapter: RunningAdapter) => void,
): Promise<void> {
  const logger = createLogger(config.logging);
  // Listen before starting: a signal during startup still ends in a clean stop.
  const stop = listenForStop();
  // Library timers are unref'd; the command itself keeps the process alive until a signal, even
  // when no relay or server is reachable yet (otherwise Node would simply exit).
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    const adapter = await startAdapter(config, { logger, alwaysLogReady: true });
    onReady?.(adapter);
    // The startup's garbage would stay resident in an idle adapter (runtime/heap-collection.ts):
    // collect it once every catalog has been listed and translated (some join after `ready`);
    // later bursts' garbage whenever the process has gone idle (runtime/idle-collector.ts).
    const idle = startIdleCollector({
      onCollected: (before, after) =>
        logger.debug(
          { event: 'heap_collected', heapMiB: [_mib(before.total), _mib(after.total)] },
          `returned spare heap: ${_mib(before.total)} → ${_mib(after.total)} MiB`,
        ),
    });
    void adapter.sources.firstRound().then(() => idle.collectNow());
    const signal = await stop.stopped;
    idle.stop();
    stop.dispose(); // a second Ctrl-C while stopping ends the process at once
    logger.info({ signal }, 'stopping');
    await adapter.stop();
  } finally {
    clearInterval(keepAlive);
    stop.dispose();
  }
}

/** Bytes in MiB, one decimal. */
function _mib(bytes: number): number {
  return Math.round(bytes / 104_857.6) / 10;
}
