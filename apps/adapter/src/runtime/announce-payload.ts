/**
 * The content of `xp.endpoint.announce` (seed §6.3 trust disclosure, §4.6 low-quality flags):
 * what the adapter is and what it wraps, so a client can decide whether to trust it. URLs never
 * carry credentials; commands and environments of stdio sources are not disclosed.
 * @module
 */
import type { AdapterConfig } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import type { SourceStatus } from './mcp-sources.js';

/** Builds the announce payload from the configuration and the sources' current state. */
export function buildAnnouncePayload(
  config: AdapterConfig,
  sources: readonly SourceStatus[],
  faceSources: readonly { name: string; tools: number }[],
): Record<string, unknown> {
  const tools = new Map(faceSources.map((s) => [s.name, s.tools]));
  return {
    display_name: config.identity.displayName,
    adapter: true,
    adapter_version: ADAPTER_VERSION,
    mcp_sources: sources.map((s) => ({
      name: s.name,
      transport: s.transport,
      ...(s.url !== undefined && { url: s.url }),
      namespace: s.namespace,
      tool_count: s.toolCount,
    })),
    xprotocol_sources: config.xprotocolSources.map((s) => ({
      name: s.name,
      endpoint: s.endpoint ?? s.key,
      tool_count: tools.get(s.name) ?? 0,
    })),
    schema_count: sources.reduce((sum, s) => sum + s.toolCount, 0),
    low_quality_schemas: sources.flatMap((s) => s.lowQuality),
  };
}
