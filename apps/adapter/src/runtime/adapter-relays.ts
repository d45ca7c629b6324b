/**
 * The adapter's relays: the configured ones plus those `xprotocol_sources` entries name (at least
 * one, since the adapter reaches everything through relays), opened as one `RelayPool` whose outbox
 * is in the state database. What the relays say and fail at is logged as a warning.
 * @module
 */
import type { StateDatabase } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import type { AdapterConfig } from '../config/index.js';
import type { AdapterLogger } from './logger.js';

/** The configured relays plus those `xprotocol_sources` entries name; throws when there is none. */
export function _relayUrls(config: AdapterConfig): string[] {
  const urls = [...new Set([...config.relay.urls, ...config.xprotocolSources.flatMap((s) => s.relays)])];
  if (urls.length === 0) {
    throw new Error(
      'relay.urls: expected at least one ws:// or wss:// relay URL; the adapter reaches everything through relays',
    );
  }
  return urls;
}

/** Opens the pool over `urls`, reconnecting by `relay.reconnect_interval_seconds`. */
export function _openRelayPool(
  config: AdapterConfig,
  urls: string[],
  state: StateDatabase,
  logger: AdapterLogger,
): Promise<RelayPool> {
  return RelayPool.open({
    urls,
    outbox: state.outbox(),
    reconnect: { initialMs: config.relay.reconnectIntervalSeconds * 1000, maxMs: 60_000 },
    retentionSeconds: config.relay.eventTtlSeconds,
    onNotice: (relay, message) => logger.warn({ relay }, `relay notice: ${message}`),
    onInvalidEvent: (relay, reason) => logger.warn({ relay }, `relay sent an invalid event: ${reason}`),
    onConnectionError: (relay, reason, retryInMs) =>
      logger.warn(
        { relay, retryInSeconds: Math.round(retryInMs / 100) / 10 },
        `cannot reach relay ${relay}: ${reason}; retrying in ${Math.round(retryInMs / 100) / 10} s`,
      ),
  });
}
