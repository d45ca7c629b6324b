/**
 * The limits on one tool call, the same for XProtocol callers and the MCP face: the timeout of a
 * source's tool (`mcp_sources[].timeouts`) and the depth and size of its arguments (`limits`).
 * @module
 */
import type { AdapterConfig } from '../config/index.js';

/** The timeout of one tool of a source: per tool, else per source (`mcp_sources[].timeouts`). */
export function _callTimeoutOf(config: AdapterConfig, source: string, tool: string): number | undefined {
  const timeouts = config.mcpSources.find((s) => s.name === source)?.callTimeouts;
  return timeouts?.toolsMs[tool] ?? timeouts?.defaultMs;
}

/** How deep and how large the arguments of a call may be. */
export function _argumentLimits(config: AdapterConfig): { maxDepth: number; maxBytes: number } {
  return {
    maxDepth: config.limits.maxArgumentDepth,
    maxBytes: config.limits.maxArgumentBytes,
  };
}
