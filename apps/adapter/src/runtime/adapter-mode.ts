/**
 * The one line that says, at start, what kind of adapter runs (config/mode.ts): a pure MCP gateway
 * (no relay, so no XProtocol endpoint and no identity), or an XProtocol adapter and what it serves.
 * @module
 */
import type { AdapterConfig } from '../config/index.js';
import type { AdapterLogger } from './logger.js';

/** Logs `{"event":"mode","mode":…}` with a sentence naming what runs. */
export function _logMode(config: AdapterConfig, relayUrls: readonly string[], logger: AdapterLogger): void {
  const face = config.mcpServer;
  if (config.mode === 'mcp_gateway') {
    logger.info(
      { event: 'mode', mode: config.mode, mcp_sources: config.mcpSources.length },
      `pure MCP gateway: ${_count(config.mcpSources.length, 'mcp_sources entry', 'mcp_sources entries')} on the MCP face (${face?.transport}); no relay, so no XProtocol endpoint, no announce and no identity`,
    );
    return;
  }
  const parts: string[] = [];
  if (config.mcpSources.length > 0) {
    parts.push(
      `${_count(config.mcpSources.length, 'mcp_sources entry', 'mcp_sources entries')} served to XProtocol callers through ${_count(relayUrls.length, 'relay', 'relays')}`,
    );
  }
  if (face) parts.push(`an MCP face (${face.transport}) exposing ${face.expose.join(' and ')}`);
  if (config.xprotocolSources.length > 0)
    parts.push(
      _count(config.xprotocolSources.length, 'xprotocol_sources entry', 'xprotocol_sources entries'),
    );
  logger.info(
    { event: 'mode', mode: config.mode, mcp_sources: config.mcpSources.length },
    `XProtocol adapter: ${parts.join('; ') || 'nothing to serve yet'}`,
  );
}

function _count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
