/**
 * HTTP discovery of the adapter, when `discovery.well_known_port` is set: the well-known document
 * (its keys, relays and sources) and the catalog pages of its wrapped servers.
 * @module
 */
import type { Identity, Rotation } from '@xprotocol/crypto';
import { type DiscoveryServer, serveDiscovery } from '@xprotocol/mcp-bridge';
import type { AdapterConfig } from '../config/index.js';
import type { AdapterLogger } from './logger.js';
import type { McpSources } from './mcp-sources.js';

/**
 * Serves discovery, or returns `undefined` when no port is configured. `chain`, the adapter's
 * delegation chain as its file holds it, is disclosed as `delegation_chain`, and `rotatedFrom` as
 * `rotated_from` (as in the announce).
 */
export async function _serveAdapterDiscovery(
  config: AdapterConfig,
  identity: Identity,
  relayUrls: string[],
  sources: McpSources,
  logger: AdapterLogger,
  chain?: readonly unknown[],
  rotatedFrom?: Rotation,
): Promise<DiscoveryServer | undefined> {
  if (config.discovery.wellKnownPort === undefined) return undefined;
  return serveDiscovery({
    host: config.discovery.wellKnownHost,
    port: config.discovery.wellKnownPort,
    document: () => ({
      version: 'xp1',
      public_key: identity.keys.ed25519,
      x25519: identity.keys.x25519,
      relays: relayUrls,
      adapter: true,
      display_name: config.identity.displayName,
      mcp_sources: config.mcpSources.map((s) => s.name),
      xprotocol_sources: config.xprotocolSources.map((s) => s.name),
      ...(chain !== undefined && { delegation_chain: [...chain] }),
      ...(rotatedFrom !== undefined && { rotated_from: rotatedFrom }),
    }),
    page: (request) => sources.page(request),
    logger,
  });
}
