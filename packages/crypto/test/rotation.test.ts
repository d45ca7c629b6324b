/**
 * Key rotations (docs/protocol.md §11.8): signing, the refusals of `verifyRotation` in their
 * order, and the grace period.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import {
  CryptoError,
  formatKey,
  nobleSignatures,
  parseRotation,
  ROTATION_DOMAIN,
  rotationInGrace,
  rotationPreimage,
  signRotation,
  verifyRotation,
} from '../src/index.js';
import { nodeSignatures } from '../src/node.js';

const secret = (name: string) => sha256(new TextEncoder().encode(`rotation test: ${name}`));
const OLD = secret('old');
const NEW = secret('new');
const OTHER = secret('other');
const T0 = 1_767_225_600;
const pub = (s: Uint8Array) => formatKey('ed25519', nobleSignatures.publicKey(s));

describe('signRotation / verifyRotation', () => {
  const rotation = signRotation({ created_at: T0, grace_until: T0 + 7 * 86_400 }, OLD, NEW);

  it('signs with both keys and verifies on both backends', () => {
    expect(rotation.kind).toBe('xp.key.rotate');
    expect(rotation.old_key).toBe(pub(OLD));
    expect(rotation.new_key).toBe(pub(NEW));
    expect(rotationPreimage(rotation)).toBe(
      JSON.stringify([ROTATION_DOMAIN, pub(OLD), pub(NEW), T0, T0 + 7 * 86_400]),
    );
    for (const backend of [nobleSignatures, nodeSignatures])
      expect(verifyRotation(rotation, backend)).toEqual({ ok: true, rotation });
  });

  it('refuses a malformed object as shape, naming the field', () => {
    const extra = verifyRotation({ ...rotation, new_x25519: 'x' });
    expect(extra).toMatchObject({ ok: false, code: 'shape' });
    expect(!extra.ok && extra.message).toContain('rotation.new_x25519: unexpected field');
    const early = verifyRotation({ ...rotation, grace_until: T0 - 1 });
    expect(!early.ok && early.message).toContain('rotation.grace_until');
    expect(verifyRotation({ ...rotation, successor_sig: null })).toMatchObject({ code: 'shape' });
    expect(() => parseRotation([])).toThrow(CryptoError);
  });

  it('refuses a rotation to the same key', () => {
    expect(() => signRotation({ created_at: T0, grace_until: T0 }, OLD, OLD)).toThrow(/same key/);
    const same = { ...rotation, new_key: rotation.old_key };
    expect(verifyRotation(same)).toMatchObject({ ok: false, code: 'same_key' });
  });

  it('refuses a wrong id, a wrong old-key signature, a wrong successor signature, in that order', () => {
    expect(verifyRotation({ ...rotation, grace_until: rotation.grace_until + 1 })).toMatchObject({
      code: 'id',
    });
    const byOther = signRotation({ created_at: T0, grace_until: T0 }, OTHER, NEW);
    expect(verifyRotation({ ...rotation, sig: byOther.sig })).toMatchObject({ code: 'signature' });
    // An old key naming someone else's key as its successor cannot get that key's signature.
    const claimed = signRotation({ created_at: T0, grace_until: T0 }, OLD, OTHER);
    expect(verifyRotation({ ...claimed, new_key: pub(NEW), ...resign(claimed, pub(NEW)) })).toMatchObject({
      code: 'successor_signature',
    });
  });

  it('holds the old key until grace_until, inclusive', () => {
    expect(rotationInGrace(rotation, rotation.grace_until)).toBe(true);
    expect(rotationInGrace(rotation, rotation.grace_until + 1)).toBe(false);
  });
});

/** The id and old-key signature of `claimed` with `new_key` replaced, keeping its successor signature. */
function resign(claimed: ReturnType<typeof signRotation>, newKey: string) {
  const preimage = rotationPreimage({ ...claimed, new_key: newKey as typeof claimed.new_key });
  const idBytes = sha256(new TextEncoder().encode(preimage));
  const id = Buffer.from(idBytes).toString('hex');
  return { id, sig: Buffer.from(nobleSignatures.sign(idBytes, OLD)).toString('hex') };
}
