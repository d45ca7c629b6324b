/**
 * The catalog keys an `mcp_sources` entry and an `openapi_sources` entry share (namespace aside):
 * capability inference, overrides, rate limit, description quality, refresh and timeouts,
 * normalized once for both, so an OpenAPI service's tools are published by the same settings.
 * @module
 */
import type { ConfigFile } from './schema.js';
import type { McpSourceConfig } from './types.js';

/** The catalog keys `mcp_sources` and `openapi_sources` share, normalized. */
export function _catalogSettings(
  s: Pick<
    ConfigFile['mcp_sources'][number],
    | 'capability_inference'
    | 'capabilities'
    | 'schema_overrides'
    | 'rate_limit'
    | 'description_quality_threshold'
    | 'description_quality_floor'
    | 'description_lint'
    | 'schema_refresh_interval_seconds'
    | 'timeouts'
  >,
): Pick<
  McpSourceConfig,
  | 'capabilityInference'
  | 'capabilities'
  | 'schemaOverrides'
  | 'rateLimit'
  | 'descriptionQualityThreshold'
  | 'descriptionQualityFloor'
  | 'descriptionLint'
  | 'schemaRefreshIntervalSeconds'
  | 'callTimeouts'
> {
  const overrides: McpSourceConfig['schemaOverrides'] = {};
  for (const [tool, o] of Object.entries(s.schema_overrides)) {
    const entry: McpSourceConfig['schemaOverrides'][string] = {};
    if (o.description !== undefined) entry.description = o.description;
    if (o.title !== undefined) entry.title = o.title;
    if (o.required_capability !== undefined) entry.required_capability = o.required_capability;
    if (o.semantic !== undefined) entry.semantic = { ...o.semantic };
    overrides[tool] = entry;
  }
  return {
    capabilityInference: s.capability_inference,
    capabilities: [...s.capabilities],
    schemaOverrides: overrides,
    rateLimit: { requestsPerMinute: s.rate_limit.requests_per_minute },
    descriptionQualityThreshold: s.description_quality_threshold,
    descriptionQualityFloor: s.description_quality_floor,
    descriptionLint: s.description_lint,
    schemaRefreshIntervalSeconds: s.schema_refresh_interval_seconds,
    callTimeouts: {
      defaultMs:
        s.timeouts?.default_seconds === undefined ? undefined : Math.round(s.timeouts.default_seconds * 1000),
      toolsMs: Object.fromEntries(
        Object.entries(s.timeouts?.tools ?? {}).map(([tool, seconds]) => [tool, Math.round(seconds * 1000)]),
      ),
    },
  };
}
