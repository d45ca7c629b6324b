/**
 * The adapter's `ready` line and what it tells the truth about: which relays are connected (after
 * each one's first attempt, bounded), which sources serve tools. Relays none of which is reachable
 * yet and a source that serves nothing get a warning each, so the operator knows why no call
 * arrives; a pure MCP gateway has no relay to wait for or warn about.
 * @module
 */
import type { DiscoveryServer, McpFaceServer } from '@xprotocol/mcp-bridge';
import type { RelayPool } from '@xprotocol/relay-client';
import type { AdapterConfig } from '../config/index.js';
import type { AdapterLogger } from './logger.js';
import type { McpSources, SourceStatus } from './mcp-sources.js';

/** What the ready line reports. */
export interface _ReadyFacts {
  readonly config: AdapterConfig;
  readonly logger: AdapterLogger;
  /** The adapter's key; none in a pure MCP gateway. */
  readonly key: string | undefined;
  readonly relayUrls: string[];
  /** The relays; none in a pure MCP gateway, which then neither waits for nor warns about them. */
  readonly pool: RelayPool | undefined;
  readonly statePath: string;
  readonly sources: McpSources;
  readonly faceServer: McpFaceServer | undefined;
  readonly discovery: DiscoveryServer | undefined;
  /** Log `ready` at the logger's level when it is above info (tools wait for the event). */
  readonly alwaysLogReady: boolean | undefined;
}

/** Waits (bounded) for each relay's first attempt, then logs `ready` and the warnings. */
export async function _reportReady(facts: _ReadyFacts): Promise<void> {
  // The ready line tells the truth about the relays: wait (bounded) for each one's first attempt.
  const relayStatus = (await facts.pool?.attempted(5000)) ?? [];
  const openRelays = relayStatus.filter((r) => r.state === 'open').map((r) => r.url);
  const sourceStatus = facts.sources.status();
  _logReady(facts, openRelays, sourceStatus);
  if (facts.pool && openRelays.length === 0) _warnNoRelay(facts.logger, relayStatus);
  _warnIdleSources(facts.logger, sourceStatus);
}

/** The `{"event":"ready",…}` line. */
function _logReady(facts: _ReadyFacts, openRelays: string[], sourceStatus: readonly SourceStatus[]): void {
  const { logger, config } = facts;
  // With alwaysLogReady the event survives a level above info (tools wait for it).
  const raised: 'error' | 'warn' | 'info' =
    logger.level === 'error' ? 'error' : logger.level === 'warn' ? 'warn' : 'info';
  const readyLevel = facts.alwaysLogReady ? raised : 'info';
  logger[readyLevel](
    {
      event: 'ready',
      key: facts.key,
      relays: facts.relayUrls,
      relays_connected: openRelays,
      state: facts.statePath,
      sources: sourceStatus.map((s) => ({
        name: s.name,
        connected: s.connected,
        tools: s.toolCount,
        ...(s.error !== undefined && { error: s.error }),
      })),
      mcp_server: facts.faceServer?.url ?? config.mcpServer?.transport,
      discovery: facts.discovery?.url,
    },
    'adapter ready',
  );
}

/** No relay took the connection yet: nothing is announced and no call can arrive. */
function _warnNoRelay(logger: AdapterLogger, relayStatus: Awaited<ReturnType<RelayPool['attempted']>>): void {
  const why = relayStatus.map((r) => `${r.url}: ${r.lastError || 'no answer yet'}`).join('; ');
  logger.warn(
    { relays: relayStatus.map((r) => ({ url: r.url, error: r.lastError || undefined })) },
    `no relay reachable yet (${why}): the announce is pending and no call can arrive; retrying until a relay accepts`,
  );
}

/** One warning per source that serves no tools yet, with why. */
function _warnIdleSources(logger: AdapterLogger, sourceStatus: readonly SourceStatus[]): void {
  for (const source of sourceStatus) {
    if (!source.connected)
      logger.warn(
        { source: source.name },
        // The first line only: the child's stderr lines were in the source's own warning.
        `MCP source "${source.name}" serves no tools: ${source.error?.split('\n')[0]?.replace(`${source.name}: `, '') ?? 'still connecting'}`,
      );
  }
}
