/**
 * Discovery of the adapter: over HTTP when `discovery.well_known_port` is set (the well-known
 * document, its keys, relays and sources, and the catalog pages of its wrapped servers), and the
 * DNS TXT record the operator publishes when `discovery.publish_dns` is true (docs/protocol.md
 * §10.3, "Keys in DNS TXT"): printed once at start, never sent to a DNS provider.
 * @module
 */
import type { Identity, Rotation } from '@xprotocol/crypto';
import { type DiscoveryServer, dnsRecordName, formatDnsRecord, serveDiscovery } from '@xprotocol/mcp-bridge';
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

/**
 * With `discovery.publish_dns`, logs once the TXT record to publish (name, type, value), at info
 * or at the configured level when that is higher: the operator asked for it, so no level hides it.
 */
export function _logDnsRecord(config: AdapterConfig, identity: Identity, logger: AdapterLogger): void {
  const domain = config.discovery.dnsName;
  if (!config.discovery.publishDns || domain === undefined) return;
  const name = dnsRecordName(domain);
  const value = formatDnsRecord(identity.keys.ed25519);
  const level = logger.level === 'error' ? 'error' : logger.level === 'warn' ? 'warn' : 'info';
  logger[level](
    { event: 'dns_record', name, type: 'TXT', value },
    `publish this DNS record for xp://${domain}: ${name} TXT "${value}"`,
  );
}
