// The announce's optional `rotated_from` (docs/protocol.md §10.3, §11.8): the rotation that names
// this endpoint's key as the successor of another, disclosed as it is; absent when the endpoint
// has none, so such an announce is unchanged. The rotation is the example of the rotation vectors
// (testdata/vectors/xp-rotation.json).
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

const ROTATION = (
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../testdata/vectors/xp-rotation.json'), 'utf8'),
  ) as { preimages: { object: Record<string, unknown> }[] }
).preimages[0]!.object;

const identity = generateIdentity();
const INPUT = {
  display_name: 'B',
  adapter_version: '0.1.0',
  x25519: identity.keys.x25519,
  relays: ['ws://127.0.0.1:7000'],
  mcp_sources: [],
  xprotocol_sources: [],
};

describe('rotated_from in the announce', () => {
  it('is the rotation as it is, and absent without one', () => {
    const registry = new Registry();
    const without = buildAnnouncePayload(INPUT, registry);
    expect('rotated_from' in without).toBe(false);
    const withRotation = buildAnnouncePayload({ ...INPUT, rotated_from: ROTATION }, registry);
    expect(withRotation.rotated_from).toEqual(ROTATION);
    const { rotated_from: _, ...rest } = withRotation;
    expect(serializeAnnouncePayload(rest)).toBe(serializeAnnouncePayload(without));
  });

  it('is read back from a signed announce', () => {
    const payload = buildAnnouncePayload({ ...INPUT, rotated_from: ROTATION }, new Registry());
    const event = signAnnounce(payload, identity, {
      nowSeconds: 1767225600,
      ttlSeconds: 900,
      signatures: nodeSignatures,
    });
    const read = readAnnounce(event, nodeSignatures);
    expect(read.ok && read.announce.payload.rotated_from).toEqual(ROTATION);
  });

  it.each([
    [[ROTATION], 'an array'],
    ['rotation', 'a string'],
  ])('a rotated_from that is not an object is refused when built and when read: %#', (value, got) => {
    expect(() => buildAnnouncePayload({ ...INPUT, rotated_from: value }, new Registry())).toThrow(
      `rotated_from: expected a rotation (a JSON object), got ${got}`,
    );
    const parsed = parseAnnouncePayload({
      ...buildAnnouncePayload(INPUT, new Registry()),
      rotated_from: value,
    });
    expect(!parsed.ok && parsed.reason).toBe(
      `announce payload rotated_from: expected a rotation (a JSON object), got ${got}`,
    );
  });
});
