/**
 * The caller's check of an endpoint's delegation chain (docs/protocol.md §10.3, §11.4;
 * docs/security.md, "Trust roots"): the chain in the endpoint's signed announce must check with
 * the caller's trust roots at the caller's time, and vouch for the key that signed the announce.
 * Each refusal names the chain check's code, the link and what was expected. The keys and the
 * valid root → department → adapter chain are the delegation vectors'
 * (testdata/vectors/xp-delegation.json, case `valid-3-level`, checked there at 1769817600).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DelegationChainChecker,
  generateIdentity,
  type Identity,
  identityFromSecretKeys,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { type Announce, readAnnounce, signAnnounce } from '@xprotocol/registry';
import { describe, expect, it } from 'vitest';
import { vouchForEndpoint } from '../src/index.js';
import { testAnnouncePayload } from './support/announce.js';

const VECTORS = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../testdata/vectors/xp-delegation.json'), 'utf8'),
) as {
  keys: Record<string, { secret: string; public: string }>;
  cases: { name: string; chain: { capabilities: string[] }[]; at: number }[];
};
const VALID = VECTORS.cases.find((c) => c.name === 'valid-3-level')!;
const CHAIN = VALID.chain;
const AT = VALID.at;
const ROOT = VECTORS.keys.root!.public;
const OUTSIDER = VECTORS.keys.outsider!.public;
const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
/** The adapter of the vectors, the key the chain vouches for. */
const adapter = identityFromSecretKeys({
  ed25519: hex(VECTORS.keys.adapter!.secret),
  x25519: hex('02'.repeat(32)),
});

/** `signer`'s announce carrying `chain` (none when undefined), read back as a caller reads it. */
function announceOf(signer: Identity, chain?: unknown[]): Announce {
  const payload = {
    ...testAnnouncePayload(signer, ['ws://127.0.0.1:7000'], 'B'),
    ...(chain !== undefined && { delegation_chain: chain }),
  };
  const event = signAnnounce(payload, signer, {
    nowSeconds: AT,
    ttlSeconds: 900,
    signatures: nodeSignatures,
  });
  const read = readAnnounce(event, nodeSignatures);
  if (!read.ok) throw new Error(read.reason);
  return read.announce;
}

const vouch = (announce: Announce, trustRoots: string[], at = AT) =>
  vouchForEndpoint(announce, { trustRoots, at, rootsLabel: '--trust-root' });

describe('vouchForEndpoint', () => {
  it('accepts a chain from a trusted root that vouches for the announce signer', () => {
    const verdict = vouch(announceOf(adapter, CHAIN), [OUTSIDER, ROOT]);
    expect(verdict).toMatchObject({
      ok: true,
      chain: { root: ROOT, delegatedKey: adapter.keys.ed25519, capabilities: CHAIN[1]!.capabilities },
    });
  });

  it('refuses a chain whose link is revoked by the revocations it is given, naming the link', () => {
    const revoked = VECTORS.cases.find((c) => c.name === 'revoked') as unknown as {
      at: number;
      revocations: unknown[];
    };
    const announce = announceOf(adapter, CHAIN);
    const options = { trustRoots: [ROOT], at: revoked.at, rootsLabel: '--trust-root' };
    expect(vouchForEndpoint(announce, options).ok).toBe(true);
    expect(vouchForEndpoint(announce, { ...options, revocations: revoked.revocations })).toMatchObject({
      ok: false,
      refusal: 'revoked',
      link: 1,
      message: expect.stringContaining('is not vouched for by a trusted root (revoked, link 1)'),
    });
  });

  it('refuses an announce without a chain', () => {
    expect(vouch(announceOf(adapter), [ROOT])).toEqual({
      ok: false,
      refusal: 'no_chain',
      message: `endpoint ${adapter.keys.ed25519} is not vouched for by a trusted root: its announce has no delegation_chain, expected a chain from one of --trust-root ${ROOT}`,
    });
  });

  it('refuses a chain from another root, naming where it starts and the roots expected', () => {
    expect(vouch(announceOf(adapter, CHAIN), [OUTSIDER])).toEqual({
      ok: false,
      refusal: 'untrusted_root',
      link: 0,
      message: `endpoint ${adapter.keys.ed25519} is not vouched for by a trusted root (untrusted_root, link 0): its chain starts at ${ROOT}, not one of --trust-root ${OUTSIDER}`,
    });
  });

  it("refuses a chain expired at the caller's time, naming the link", () => {
    const verdict = vouch(announceOf(adapter, CHAIN), [ROOT], 1782777601);
    expect(verdict).toMatchObject({ ok: false, refusal: 'expired', link: 1 });
    expect(!verdict.ok && verdict.message).toMatch(
      new RegExp(
        `^endpoint ${adapter.keys.ed25519} is not vouched for by a trusted root \\(expired, link 1\\): link 1 \\(.*\\): expired at 1782777600`,
      ),
    );
  });

  it('refuses a link changed after it was signed', () => {
    const widened = [CHAIN[0], { ...CHAIN[1], capabilities: ['com.acme.docs.*'] }];
    expect(vouch(announceOf(adapter, widened), [ROOT])).toMatchObject({ ok: false, refusal: 'id', link: 1 });
  });

  it('refuses a valid chain presented by another key', () => {
    const other = generateIdentity();
    expect(vouch(announceOf(other, CHAIN), [ROOT])).toEqual({
      ok: false,
      refusal: 'not_the_signer',
      link: 1,
      message: `endpoint ${other.keys.ed25519} is not vouched for by a trusted root (not_the_signer, link 1): its chain vouches for ${adapter.keys.ed25519}, expected the key that signed the announce, ${other.keys.ed25519}`,
    });
  });

  it('gives the same verdicts through a remembering checker', () => {
    const checker = new DelegationChainChecker({ backend: nodeSignatures });
    const announce = announceOf(adapter, CHAIN);
    const options = { trustRoots: [ROOT], rootsLabel: '--trust-root', checker };
    expect(vouchForEndpoint(announce, { ...options, at: AT }).ok).toBe(true);
    expect(vouchForEndpoint(announce, { ...options, at: 1782777601 })).toMatchObject({
      ok: false,
      refusal: 'expired',
    });
    expect(checker.size).toBe(1);
  });
});
