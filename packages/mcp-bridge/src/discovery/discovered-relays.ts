/**
 * Relays learned from an endpoint's well-known document join the relay pool only through the
 * address policy (docs/security.md, "Outbound addresses"): a document is remote input, and the
 * relays it lists are dialled again and again. A relay the pool already has (configured in the
 * config file) is kept as it is; a new one whose host is a refused IP literal or `localhost` is
 * not added, and a new one with a host name is added with the policy's lookup, so every connect
 * resolves, checks and dials only checked addresses.
 * @module
 */
import type { AddressPolicy, RelayPool } from '@xprotocol/relay-client';
import { type BridgeLogger, silentLogger } from '../logger.js';

/** What became of each relay a document listed. */
export interface DiscoveredRelays {
  added: string[];
  /** Already in the pool (configured, or added earlier). */
  known: string[];
  refused: { relay: string; reason: string }[];
}

/** Adds the relays `endpoint`'s document lists to `pool`, as the policy allows. */
export function addDiscoveredRelays(
  pool: RelayPool,
  relays: readonly string[],
  policy: AddressPolicy,
  context: { endpoint: string; logger?: BridgeLogger },
): DiscoveredRelays {
  const logger = context.logger ?? silentLogger;
  const out: DiscoveredRelays = { added: [], known: [], refused: [] };
  const present = new Set(pool.relays().map((r) => r.url));
  for (const relay of relays) {
    if (present.has(relay)) {
      out.known.push(relay);
      continue;
    }
    const decision = policy.checkUrl(relay);
    if (!decision.ok) {
      out.refused.push({ relay, reason: decision.reason });
      logger.warn(
        { endpoint: context.endpoint, relay },
        `not dialling a relay from the discovery document: ${decision.reason}`,
      );
      continue;
    }
    if (pool.addRelay(relay, { lookup: policy.lookup })) {
      out.added.push(relay);
      present.add(relay);
      logger.info({ endpoint: context.endpoint, relay }, 'added a relay from discovery');
    } else out.known.push(relay);
  }
  return out;
}
