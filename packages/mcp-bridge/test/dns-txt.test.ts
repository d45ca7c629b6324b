// The `_xprotocol.<domain>` TXT record (docs/protocol.md §10.3, "Keys in DNS TXT"): formatting, parsing, and the
// caller's check against the key of the well-known document under each `dns` policy.
import { describe, expect, it } from 'vitest';
import { checkDnsKey, dnsRecordName, formatDnsRecord, parseDnsRecords } from '../src/index.js';

const KEY_A = `ed25519:${'a1'.repeat(32)}`;
const KEY_B = `ed25519:${'b2'.repeat(32)}`;

/** A resolver failure with a node:dns code. */
function dnsError(code: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`queryTxt ${code}`);
  error.code = code;
  return error;
}

describe('the record', () => {
  it('is named _xprotocol.<domain> and holds v=xp1 and the key', () => {
    expect(dnsRecordName('Acme.Example.')).toBe('_xprotocol.acme.example');
    expect(formatDnsRecord(KEY_A)).toBe(`v=xp1; k=${KEY_A}`);
  });

  it('refuses to format what is not an ed25519 key', () => {
    expect(() => formatDnsRecord('x25519:00')).toThrow(/expected ed25519:<64 lowercase hex>/);
  });

  it('parses keys from several records, joins character-strings, ignores unknown fields', () => {
    const parsed = parseDnsRecords([
      [`v=xp1; k=${KEY_A}`],
      ['v=xp1; k=', KEY_B.slice(0, 20), `${KEY_B.slice(20)}; note=rotation`],
      ['v=spf1 -all'],
    ]);
    expect(parsed).toEqual({ keys: [KEY_A, KEY_B], malformed: [], foreign: 1 });
  });

  it('counts malformed xp1 records and says why, keeping the good ones', () => {
    const parsed = parseDnsRecords([
      [`v=xp1; k=${KEY_A}`],
      ['v=xp1'],
      [`v=xp1; k=${KEY_A.toUpperCase()}`],
      [`v=xp1; k=${KEY_A}; k=${KEY_B}`],
      [`k=${KEY_B}; v=xp1`],
      [`v=xp1; k=${KEY_B}; junk`],
    ]);
    expect(parsed.keys).toEqual([KEY_A]);
    expect(parsed.malformed).toEqual([
      'v=xp1: no k field',
      `v=xp1; k=${KEY_A.toUpperCase()}: k: expected ed25519:<64 lowercase hex>`,
      `v=xp1; k=${KEY_A}; k=${KEY_B}: k appears twice`,
      `v=xp1; k=${KEY_B}; junk: "junk" is not name=value`,
    ]);
    expect(parsed.foreign).toBe(1);
  });
});

describe('checkDnsKey', () => {
  const answer = (records: string[][]) => async () => records;
  const failing = (code: string) => async () => {
    throw dnsError(code);
  };

  it('passes when a published key is the key found', async () => {
    const outcome = await checkDnsKey('acme.test', KEY_A, {
      policy: 'required',
      resolveTxt: answer([[`v=xp1; k=${KEY_B}`], [`v=xp1; k=${KEY_A}`]]),
    });
    expect(outcome).toEqual({ checked: true, keys: [KEY_B, KEY_A] });
  });

  it('refuses another key, naming the domain, the key found and the keys published', async () => {
    await expect(
      checkDnsKey('acme.test', KEY_A, {
        policy: 'if_published',
        resolveTxt: answer([[`v=xp1; k=${KEY_B}`]]),
      }),
    ).rejects.toThrow(
      `_xprotocol.acme.test publishes ${KEY_B}, but the well-known document of acme.test gives ${KEY_A}: refused`,
    );
  });

  it('no record: refused when required, passes when if_published', async () => {
    for (const code of ['ENOTFOUND', 'ENODATA']) {
      await expect(
        checkDnsKey('acme.test', KEY_A, { policy: 'required', resolveTxt: failing(code) }),
      ).rejects.toThrow('no TXT record at _xprotocol.acme.test (dns: required): refused');
      expect(
        await checkDnsKey('acme.test', KEY_A, { policy: 'if_published', resolveTxt: failing(code) }),
      ).toEqual({
        checked: false,
        reason: 'no record',
      });
    }
    // Only records of other protocols: no record of ours.
    await expect(
      checkDnsKey('acme.test', KEY_A, { policy: 'required', resolveTxt: answer([['v=spf1 -all']]) }),
    ).rejects.toThrow('no TXT record at _xprotocol.acme.test (dns: required): refused');
  });

  it('a DNS failure is refused under both policies, with its code', async () => {
    for (const policy of ['required', 'if_published'] as const) {
      await expect(
        checkDnsKey('acme.test', KEY_A, { policy, resolveTxt: failing('ESERVFAIL') }),
      ).rejects.toThrow(
        `cannot read the TXT record at _xprotocol.acme.test: ESERVFAIL (dns: ${policy} refuses an endpoint whose records cannot be read; retried at the next refresh)`,
      );
    }
  });

  it('only malformed xp1 records are refused under both policies', async () => {
    await expect(
      checkDnsKey('acme.test', KEY_A, { policy: 'if_published', resolveTxt: answer([['v=xp1; k=nope']]) }),
    ).rejects.toThrow(
      '_xprotocol.acme.test has 1 xp1 record, none well-formed (v=xp1; k=nope: k: expected ed25519:<64 lowercase hex>): refused',
    );
  });

  it('skips IP literals, localhost and policy off without asking DNS', async () => {
    const never = async (): Promise<string[][]> => {
      throw new Error('asked');
    };
    for (const host of ['127.0.0.1', '::1', 'localhost', 'api.localhost']) {
      expect(await checkDnsKey(host, KEY_A, { policy: 'required', resolveTxt: never })).toEqual({
        checked: false,
        reason: 'no DNS name',
      });
    }
    expect(await checkDnsKey('acme.test', KEY_A, { policy: 'off', resolveTxt: never })).toEqual({
      checked: false,
      reason: 'off',
    });
  });
});
