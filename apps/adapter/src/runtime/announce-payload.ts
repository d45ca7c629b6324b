/**
 * The content of `xp.endpoint.announce` (docs/protocol.md §10.3: trust disclosure, low-quality
 * flags), built by the registry from the configuration and the live catalog. URLs never carry
 * credentials; stdio commands and environments are not disclosed.
 * @module
 */
import type { Rotation } from '@xprotocol/crypto';
import { type AnnouncePayload, buildAnnouncePayload, type Registry } from '@xprotocol/registry';
import type { Refusal } from '@xprotocol/translate';
import type { AdapterConfig } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';

/**
 * The announce payload for this adapter right now. `refusals` holds each source's refusals from
 * its last translation, `flagged` its linted and quarantined tools (by source name), `chain` the
 * links of its delegation chain as the chain file holds them (none: no `delegation_chain`),
 * `rotatedFrom` the rotation naming this key as an old key's successor (none: no `rotated_from`).
 */
export function announcePayload(
  config: AdapterConfig,
  registry: Registry,
  keys: { x25519: string; relays: readonly string[] },
  faceTools: ReadonlyMap<string, number>,
  refusals: ReadonlyMap<string, readonly Refusal[]> = new Map(),
  flagged: ReadonlyMap<string, readonly { kind: string; issue: string }[]> = new Map(),
  chain?: readonly unknown[],
  rotatedFrom?: Rotation,
): AnnouncePayload {
  return buildAnnouncePayload(
    {
      display_name: config.identity.displayName,
      adapter_version: ADAPTER_VERSION,
      x25519: keys.x25519,
      relays: keys.relays,
      // `mcp_sources` lists MCP servers, whose transports docs/protocol.md names; an OpenAPI
      // service is disclosed in `served_sources` with its own transport, counted and flagged alike.
      mcp_sources: config.mcpSources
        .flatMap((source) =>
          source.transport === 'openapi' ? [] : [{ ...source, transport: source.transport }],
        )
        .map((source) => ({
          name: source.name,
          transport: source.transport,
          url: source.url,
          namespace: source.namespace,
          description_quality_threshold: source.descriptionQualityThreshold,
          description_quality_floor: source.descriptionQualityFloor,
          // Tools refused for their description are flagged too, so the announce says why they are missing.
          refused: refusals.get(source.name) ?? [],
          // Description-lint findings and tool-pinning quarantines (docs/security.md, "Tool pinning").
          flagged: flagged.get(source.name) ?? [],
        })),
      served_sources: config.mcpSources
        .filter((source) => source.transport === 'openapi')
        .map((source) => ({
          name: source.name,
          transport: 'openapi' as const,
          url: source.openapi?.baseUrl,
          namespace: source.namespace,
          description_quality_threshold: source.descriptionQualityThreshold,
          description_quality_floor: source.descriptionQualityFloor,
          refused: refusals.get(source.name) ?? [],
          flagged: flagged.get(source.name) ?? [],
        })),
      xprotocol_sources: config.xprotocolSources.map((source) => ({
        name: source.name,
        endpoint: source.endpoint,
        key: source.key,
        tool_count: faceTools.get(source.name) ?? 0,
      })),
      delegation_chain: chain,
      rotated_from: rotatedFrom,
    },
    registry,
  );
}
