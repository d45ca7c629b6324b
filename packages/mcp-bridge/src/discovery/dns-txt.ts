/**
 * The DNS TXT record that publishes an endpoint's key (docs/protocol.md §10.3, "Keys in DNS TXT"): its name
 * (`_xprotocol.<domain>`), its value (`v=xp1; k=ed25519:<64 hex>`) and how a reader parses the
 * records found there. No DNS traffic here: see dns-check.ts.
 * @module
 */
import { isKeyString } from '@xprotocol/crypto';

/** The label under which the records are published. */
const DNS_RECORD_LABEL = '_xprotocol';

/** What a reader found at `_xprotocol.<domain>`. */
export interface ParsedDnsRecords {
  /** Keys of the well-formed `v=xp1` records, in record order, without duplicates. */
  keys: string[];
  /** One line per malformed `v=xp1` record: the record, then why. */
  malformed: string[];
  /** Records of other protocols (not starting with `v=xp1`): ignored. */
  foreign: number;
}

/** `_xprotocol.<domain>`, the domain lowercased and without a trailing dot. */
export function dnsRecordName(domain: string): string {
  return `${DNS_RECORD_LABEL}.${domain.replace(/\.$/, '').toLowerCase()}`;
}

/** The record's value for `key`; throws a `TypeError` when `key` is not `ed25519:<64 hex>`. */
export function formatDnsRecord(key: string): string {
  if (!isKeyString(key, 'ed25519'))
    throw new TypeError(`expected ed25519:<64 lowercase hex>, got ${JSON.stringify(key)}`);
  return `v=xp1; k=${key}`;
}

/**
 * Parses the TXT records of one name, each given as its character-strings (as node:dns returns
 * them); a record's strings are joined without a separator, so a value may be split anywhere.
 */
export function parseDnsRecords(records: readonly (readonly string[])[]): ParsedDnsRecords {
  const parsed: ParsedDnsRecords = { keys: [], malformed: [], foreign: 0 };
  for (const strings of records) {
    const text = strings.join('');
    const fields = text
      .split(';')
      .map((field) => field.trim())
      .filter((field) => field !== '');
    // Only a record whose first field is exactly v=xp1 is ours; others share the name harmlessly.
    if (fields[0] !== 'v=xp1') {
      parsed.foreign += 1;
      continue;
    }
    const problem = _recordProblem(fields.slice(1));
    if (typeof problem === 'string') parsed.malformed.push(`${text}: ${problem}`);
    else if (!parsed.keys.includes(problem.key)) parsed.keys.push(problem.key);
  }
  return parsed;
}

/** The key of one record's fields after `v=xp1`, or why the record is malformed. */
function _recordProblem(fields: string[]): string | { key: string } {
  let key: string | undefined;
  for (const field of fields) {
    const equals = field.indexOf('=');
    if (equals <= 0) return `${JSON.stringify(field)} is not name=value`;
    const name = field.slice(0, equals).trim();
    const value = field.slice(equals + 1).trim();
    if (name === 'v') return 'v appears twice';
    // Unknown fields are ignored: later versions may add some.
    if (name !== 'k') continue;
    if (key !== undefined) return 'k appears twice';
    if (!isKeyString(value, 'ed25519')) return 'k: expected ed25519:<64 lowercase hex>';
    key = value;
  }
  return key === undefined ? 'no k field' : { key };
}
