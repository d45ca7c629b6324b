/**
 * Property tests (fast-check, fixed seeds): both backends agree on random keys and messages, any
 * flipped bit of the signature, id or public key is refused, and the id does not depend on member
 * order inside JSON carried in content or tags.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  canonicalJson,
  computeEventId,
  formatKey,
  hexToBytes,
  nobleSignatures,
  parseKey,
  signEvent,
  verifyEvent,
  type XpEvent,
} from '../src/index.js';
import { nodeSignatures } from '../src/node.js';

const secret = fc.uint8Array({ minLength: 32, maxLength: 32 });
const kind = fc
  .array(fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 4 })
  .map((segments) => segments.join('.'));
const template = fc.record({
  created_at: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  kind,
  tags: fc
    .array(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 3 }), {
      maxLength: 4,
    })
    .map((tags) => tags.filter((tag) => tag[0] !== 'expiration')),
  content: fc.string({ unit: 'grapheme', maxLength: 200 }),
});

function flipBit(hex: string, bit: number): string {
  const bytes = hexToBytes(hex);
  bytes[bit >> 3]! ^= 1 << (bit & 7);
  return bytesToHex(bytes);
}

describe('backends', () => {
  it('sign identically and verify each other on random keys and messages', () => {
    fc.assert(
      fc.property(secret, fc.uint8Array({ maxLength: 300 }), (key, message) => {
        const pub = nobleSignatures.publicKey(key);
        expect(bytesToHex(nodeSignatures.publicKey(key))).toBe(bytesToHex(pub));
        const sig = nobleSignatures.sign(message, key);
        expect(bytesToHex(nodeSignatures.sign(message, key))).toBe(bytesToHex(sig));
        expect(nobleSignatures.verify(sig, message, pub)).toBe(true);
        expect(nodeSignatures.verify(sig, message, pub)).toBe(true);
      }),
      { numRuns: 60, seed: 25519 },
    );
  });
  it('agree on random (mostly invalid) signature, message and key bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (sig, message, pub) => {
          expect(nodeSignatures.verify(sig, message, pub)).toBe(nobleSignatures.verify(sig, message, pub));
        },
      ),
      { numRuns: 200, seed: 8032 },
    );
  });
});

describe('events', () => {
  it('sign+verify round-trips on both backends; any flipped bit of sig, id or pubkey is refused', () => {
    fc.assert(
      fc.property(secret, template, fc.nat(), (key, tpl, pick) => {
        const event = signEvent(tpl, key, nodeSignatures);
        expect(verifyEvent(event, nobleSignatures).ok).toBe(true);
        expect(verifyEvent(event, nodeSignatures).ok).toBe(true);
        const sigBit = pick % 512;
        const idBit = pick % 256;
        const keyBit = (pick >> 9) % 256;
        const pubHex = bytesToHex(parseKey(event.pubkey, 'ed25519').bytes);
        const tampered: [string, XpEvent, string][] = [
          ['sig', { ...event, sig: flipBit(event.sig, sigBit) }, 'signature'],
          ['id', { ...event, id: flipBit(event.id, idBit) }, 'id'],
          ['pubkey', { ...event, pubkey: formatKey('ed25519', hexToBytes(flipBit(pubHex, keyBit))) }, 'id'],
        ];
        for (const [field, bad, code] of tampered) {
          for (const backend of [nobleSignatures, nodeSignatures]) {
            expect({ field, backend: backend.name, verdict: verifyEvent(bad, backend) }).toMatchObject({
              field,
              backend: backend.name,
              verdict: { ok: false, code },
            });
          }
        }
        // With the id recomputed for the flipped key, the signature check is what refuses it.
        const rekeyed = { ...event, pubkey: tampered[2]![1].pubkey };
        rekeyed.id = computeEventId(rekeyed);
        expect(verifyEvent(rekeyed, nodeSignatures)).toMatchObject({ ok: false, code: 'signature' });
        expect(verifyEvent(rekeyed, nobleSignatures)).toMatchObject({ ok: false, code: 'signature' });
      }),
      { numRuns: 40, seed: 1 },
    );
  });
  it('refuses every single-bit flip of sig, id and pubkey of one event, on both backends', () => {
    const event = signEvent(
      {
        created_at: 1_700_000_000,
        kind: 'com.test.echo',
        tags: [['p', `ed25519:${'11'.repeat(32)}`]],
        content: 'x',
      },
      Uint8Array.from({ length: 32 }, (_, i) => 255 - i),
      nodeSignatures,
    );
    const pubHex = bytesToHex(parseKey(event.pubkey, 'ed25519').bytes);
    const accepted: string[] = [];
    for (const backend of [nobleSignatures, nodeSignatures]) {
      for (let bit = 0; bit < 512; bit++) {
        if (verifyEvent({ ...event, sig: flipBit(event.sig, bit) }, backend).ok)
          accepted.push(`${backend.name} sig bit ${bit}`);
      }
      for (let bit = 0; bit < 256; bit++) {
        if (verifyEvent({ ...event, id: flipBit(event.id, bit) }, backend).ok)
          accepted.push(`${backend.name} id bit ${bit}`);
        const pubkey = formatKey('ed25519', hexToBytes(flipBit(pubHex, bit)));
        if (verifyEvent({ ...event, pubkey }, backend).ok) accepted.push(`${backend.name} pubkey bit ${bit}`);
      }
    }
    expect(accepted).toEqual([]);
  });
  it('gives the same id whatever the member order of JSON in content and tags', () => {
    const shuffled = (value: unknown, order: number): unknown => {
      if (Array.isArray(value)) return value.map((item) => shuffled(item, order));
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value);
      const rotated = entries.map((_, i) => entries[(i + order) % entries.length]!);
      return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffled(v, order + 1)]));
    };
    const pubkey = formatKey('ed25519', nobleSignatures.publicKey(new Uint8Array(32).fill(1)));
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 2, maxKeys: 6 }),
        fc.nat(20),
        (payload, order) => {
          let canonical: string;
          try {
            canonical = canonicalJson(payload);
          } catch {
            return; // lone surrogates or unsafe integers: refused, tested in canonical-json.test.ts
          }
          const again = canonicalJson(shuffled(payload, order));
          const a = { pubkey, created_at: 1, kind: 'x.y', tags: [['d', canonical]], content: canonical };
          const b = { pubkey, created_at: 1, kind: 'x.y', tags: [['d', again]], content: again };
          expect(computeEventId(b)).toBe(computeEventId(a));
          // The member order of the event object itself does not matter either.
          const reordered = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
          expect(computeEventId(reordered)).toBe(computeEventId(a));
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});
