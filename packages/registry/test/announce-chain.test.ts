// The announce's optional `delegation_chain` (docs/protocol.md §10.3, §11.3): the chain file's
// array, disclosed as it is; absent when the adapter has none, so such an announce is unchanged.
// The chain is the valid root → department → adapter chain of the delegation vectors
// (testdata/vectors/xp-delegation.json, case `valid-3-level`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateIdentity } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import {
  buildAnnouncePayload,
  parseAnnouncePayload,
  Registry,
  readAnnounce,
  serializeAnnouncePayload,
  signAnnounce,
} from '../src/index.js';

const VECTORS = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../testdata/vectors/xp-delegation.json'), 'utf8'),
) as { cases: { name: string; chain: unknown[] }[] };
const CHAIN = VECTORS.cases.find((c) => c.name === 'valid-3-level')!.chain;

const identity = generateIdentity();
const INPUT = {
  display_name: 'B',
  adapter_version: '0.1.0',
  x25519: identity.keys.x25519,
  relays: ['ws://127.0.0.1:7000'],
  mcp_sources: [],
  xprotocol_sources: [],
};

describe('delegation_chain in the announce', () => {
  it('is the chain as it is, and absent without one', () => {
    const registry = new Registry();
    const without = buildAnnouncePayload(INPUT, registry);
    expect('delegation_chain' in without).toBe(false);
    const withChain = buildAnnouncePayload({ ...INPUT, delegation_chain: CHAIN }, registry);
    expect(withChain.delegation_chain).toEqual(CHAIN);
    // Only the field is added: the rest of the canonical content is the same.
    const { delegation_chain: _, ...rest } = withChain;
    expect(serializeAnnouncePayload(rest)).toBe(serializeAnnouncePayload(without));
    expect(serializeAnnouncePayload(withChain)).toContain(`"delegation_chain":[{"capabilities"`);
  });

  it('is read back from a signed announce', () => {
    const payload = buildAnnouncePayload({ ...INPUT, delegation_chain: CHAIN }, new Registry());
    const event = signAnnounce(payload, identity, {
      nowSeconds: 1767225600,
      ttlSeconds: 900,
      signatures: nodeSignatures,
    });
    const read = readAnnounce(event, nodeSignatures);
    expect(read.ok && read.announce.payload.delegation_chain).toEqual(CHAIN);
  });

  it.each([
    [{}, 'an object'],
    [[], 'an empty array'],
    [Array.from({ length: 9 }, () => CHAIN[0]), 'an array of 9'],
    [[CHAIN[0], 'link'], 'delegation_chain[1]: expected a delegation (a JSON object), got a string'],
  ])('a chain that is not 1 to 8 objects is refused when built and when read: %#', (chain, got) => {
    expect(() =>
      buildAnnouncePayload({ ...INPUT, delegation_chain: chain as unknown[] }, new Registry()),
    ).toThrow(/^delegation_chain.*expected (an array of 1 to 8 delegations, root first|a delegation)/);
    const payload = { ...buildAnnouncePayload(INPUT, new Registry()), delegation_chain: chain };
    const parsed = parseAnnouncePayload(payload);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(/^announce payload delegation_chain/);
    expect(!parsed.ok && parsed.reason).toContain(got);
  });
});
