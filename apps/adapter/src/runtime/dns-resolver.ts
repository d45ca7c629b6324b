/**
 * The adapter's DNS resolver (docs/config.md, `discovery.dns_servers`): node:dns's `Resolver`,
 * pointed at the configured servers or, without them, the system's. It answers the TXT queries of
 * the DNS step (docs/protocol.md §10.3, "Keys in DNS TXT") and, when servers are configured, the addresses of host
 * names the address policy checks, so one set of servers decides both.
 * @module
 */

import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import type { AdapterConfig } from '../config/index.js';

/** One query's wait for an answer, in ms; with {@link _TRIES}, the bound of a lookup. */
const _TIMEOUT_MS = 2500;
const _TRIES = 2;

/** What the adapter asks DNS. */
export interface _AdapterDns {
  /** TXT records of `name`, each as its character-strings; rejects with node:dns's `E…` code. */
  resolveTxt(name: string): Promise<string[][]>;
  /** An `AddressPolicy` `resolve` on the configured servers; `undefined` without them (`dns.lookup`). */
  readonly resolveAddresses: ((hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>) | undefined;
}

/** The resolver `discovery.dns_servers` configures (the system's servers when it is empty). */
export function _adapterDns(config: AdapterConfig): _AdapterDns {
  const resolver = new Resolver({ timeout: _TIMEOUT_MS, tries: _TRIES });
  const servers = config.discovery.dnsServers;
  if (servers.length > 0) resolver.setServers(servers);
  return {
    resolveTxt: (name) => resolver.resolveTxt(name),
    resolveAddresses:
      servers.length > 0 ? (hostname, family) => _addresses(resolver, hostname, family) : undefined,
  };
}

/**
 * A and/or AAAA records of `hostname`: with `family` 0, both are asked and either may be empty;
 * when neither has an address, the first error that is not "no data" is thrown.
 */
async function _addresses(resolver: Resolver, hostname: string, family: 0 | 4 | 6): Promise<LookupAddress[]> {
  const asked = [
    family !== 6
      ? resolver.resolve4(hostname).then((list) => list.map((address) => ({ address, family: 4 })))
      : [],
    family !== 4
      ? resolver.resolve6(hostname).then((list) => list.map((address) => ({ address, family: 6 })))
      : [],
  ];
  const settled = await Promise.allSettled(asked);
  const found = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
  if (found.length > 0) return found;
  const errors = settled.flatMap((outcome) =>
    outcome.status === 'rejected' ? [outcome.reason as NodeJS.ErrnoException] : [],
  );
  throw (
    errors.find((error) => error.code !== 'ENODATA') ??
    errors[0] ??
    Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' })
  );
}
