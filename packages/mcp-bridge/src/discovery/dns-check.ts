/**
 * The caller's DNS step for an `xp://<domain>` endpoint (docs/protocol.md §10.3, "Keys in DNS TXT", docs/security.md
 * "Keys published in DNS"): the key of the well-known document must be one the domain publishes
 * at `_xprotocol.<domain>`, under a per-source policy. The resolver is given (node:dns's
 * `Resolver#resolveTxt`, pointed at the configured servers), so this module holds only the rules.
 * @module
 */
import { isIP } from 'node:net';
import { BridgeError } from '../errors.js';
import { dnsRecordName, parseDnsRecords } from './dns-txt.js';

/**
 * `required`: the domain must publish the key; `if_published`: only a domain that publishes
 * records is held to them; `off`: DNS is not asked.
 */
export type DnsPolicy = 'required' | 'if_published' | 'off';

/** Options of {@link checkDnsKey}. */
export interface DnsCheckOptions {
  policy: DnsPolicy;
  /** node:dns's `resolveTxt`: a record's character-strings per record; rejects with an `E…` code. */
  resolveTxt: (name: string) => Promise<string[][]>;
}

/** What the check did: compared against the published keys, or why it did not ask DNS. */
export type DnsCheckOutcome =
  | { checked: true; keys: string[] }
  | { checked: false; reason: 'off' | 'no DNS name' | 'no record' };

/** node:dns codes meaning "the name has no TXT record" (NXDOMAIN, NODATA), not a failure. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Checks `key`, found in the well-known document of `host`, against the TXT records at
 * `_xprotocol.<host>`. Rejects with `CALL_FAILED` naming the domain and the keys when they differ,
 * when `required` finds no record, when the only xp1 records are malformed, and when DNS fails
 * (a failure is not "no record": it is refused under both policies). An IP literal, `localhost`
 * and `*.localhost` have no records to ask for: the step is skipped.
 */
export async function checkDnsKey(
  host: string,
  key: string,
  options: DnsCheckOptions,
): Promise<DnsCheckOutcome> {
  if (options.policy === 'off') return { checked: false, reason: 'off' };
  const bare = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(bare) !== 0 || bare === 'localhost' || bare.endsWith('.localhost'))
    return { checked: false, reason: 'no DNS name' };
  const name = dnsRecordName(bare);
  let records: string[][];
  try {
    records = await options.resolveTxt(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    if (!NO_RECORD.has(code)) {
      throw new BridgeError(
        'CALL_FAILED',
        `cannot read the TXT record at ${name}: ${code} (dns: ${options.policy} refuses an endpoint whose records cannot be read; retried at the next refresh)`,
        { cause: error },
      );
    }
    records = [];
  }
  const parsed = parseDnsRecords(records);
  if (parsed.keys.length === 0 && parsed.malformed.length > 0) {
    const count = parsed.malformed.length;
    throw new BridgeError(
      'CALL_FAILED',
      `${name} has ${count} xp1 record${count === 1 ? '' : 's'}, none well-formed (${parsed.malformed.join('; ')}): refused`,
    );
  }
  if (parsed.keys.length === 0) {
    if (options.policy === 'required')
      throw new BridgeError('CALL_FAILED', `no TXT record at ${name} (dns: required): refused`);
    return { checked: false, reason: 'no record' };
  }
  if (!parsed.keys.includes(key)) {
    throw new BridgeError(
      'CALL_FAILED',
      `${name} publishes ${parsed.keys.join(', ')}, but the well-known document of ${bare} gives ${key}: refused`,
    );
  }
  return { checked: true, keys: parsed.keys };
}
