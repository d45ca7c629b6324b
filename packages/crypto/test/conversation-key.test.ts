/**
 * The identity-bound conversation key (docs/protocol.md §5) on both cipher backends.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  type CipherBackend,
  CONVERSATION_KEY_DOMAIN,
  CryptoError,
  conversationKey,
  conversationSalt,
  hexToBytes,
  nobleCipher,
} from '../src/index.js';
import { nodeCipher } from '../src/node.js';

const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });

function party(backend: CipherBackend, x25519Secret: Uint8Array, ed25519Public: Uint8Array) {
  return { secret: x25519Secret, x25519: backend.x25519PublicKey(x25519Secret), ed25519: ed25519Public };
}

describe.each<CipherBackend>([nobleCipher, nodeCipher])('$name backend', (backend) => {
  it('is symmetric: both parties derive the same key, and it is the documented formula', () => {
    fc.assert(
      fc.property(bytes32, bytes32, bytes32, bytes32, (xa, xb, ea, eb) => {
        const a = party(backend, xa, ea);
        const b = party(backend, xb, eb);
        const ab = conversationKey(a.secret, b.x25519, a.ed25519, b.ed25519, backend);
        const ba = conversationKey(b.secret, a.x25519, b.ed25519, a.ed25519, backend);
        expect(ab).toEqual(ba);
        // HKDF-Extract(salt = SHA-256("xp/1/conv" ‖ lower ‖ higher), IKM = X25519(a, B)).
        const [lower, higher] = bytesToHex(ea) <= bytesToHex(eb) ? [ea, eb] : [eb, ea];
        const salt = backend.sha256(new TextEncoder().encode(CONVERSATION_KEY_DOMAIN), lower, higher);
        expect(conversationSalt(eb, ea, backend)).toEqual(salt);
        expect(ab).toEqual(backend.hkdfExtract(salt, backend.x25519SharedSecret(a.secret, b.x25519)));
      }),
      { numRuns: 25, seed: 20261122 },
    );
  });

  it('is bound to the identities: another Ed25519 key gives another conversation key', () => {
    const a = party(backend, hexToBytes('11'.repeat(32)), hexToBytes('aa'.repeat(32)));
    const b = party(backend, hexToBytes('22'.repeat(32)), hexToBytes('bb'.repeat(32)));
    const key = conversationKey(a.secret, b.x25519, a.ed25519, b.ed25519, backend);
    const other = conversationKey(a.secret, b.x25519, a.ed25519, hexToBytes('cc'.repeat(32)), backend);
    expect(key).not.toEqual(other);
    expect(key).toHaveLength(32);
  });

  it('refuses a low-order X25519 public key (all-zero shared secret)', () => {
    // u = 0 and u = 1 are points of order 1/2 and 4 (Wycheproof x25519_test.json, LowOrderPublic).
    for (const u of ['00'.repeat(32), `01${'00'.repeat(31)}`]) {
      expect(() =>
        conversationKey(
          hexToBytes('11'.repeat(32)),
          hexToBytes(u),
          new Uint8Array(32),
          new Uint8Array(32),
          backend,
        ),
      ).toThrow(CryptoError);
    }
  });

  it('refuses Ed25519 public keys of the wrong size', () => {
    expect(() =>
      conversationKey(
        new Uint8Array(32),
        new Uint8Array(32).fill(9),
        new Uint8Array(31),
        new Uint8Array(32),
        backend,
      ),
    ).toThrow(/expected an Ed25519 public key as 32 bytes, got 31 bytes/);
  });
});

it('both backends derive the same conversation key', () => {
  fc.assert(
    fc.property(bytes32, bytes32, bytes32, bytes32, (xa, xb, ea, eb) => {
      const bPub = nobleCipher.x25519PublicKey(xb);
      expect(conversationKey(xa, bPub, ea, eb, nodeCipher)).toEqual(
        conversationKey(xa, bPub, ea, eb, nobleCipher),
      );
    }),
    { numRuns: 25, seed: 7 },
  );
});

describe('conversationKey: the key of a pair is kept', () => {
  const counting = (): CipherBackend & { exchanges: number } => {
    const backend = {
      ...nodeCipher,
      exchanges: 0,
      x25519SharedSecret(secret: Uint8Array, pub: Uint8Array) {
        backend.exchanges++;
        return nodeCipher.x25519SharedSecret(secret, pub);
      },
    };
    return backend;
  };
  const secretOf = (fill: number) => new Uint8Array(32).fill(fill);
  const ed = (fill: number) => new Uint8Array(32).fill(fill);

  it('derives once per pair, returns an equal copy each time, and keeps pairs apart', () => {
    const backend = counting();
    const mine = secretOf(1);
    const bob = nodeCipher.x25519PublicKey(secretOf(2));
    const carol = nodeCipher.x25519PublicKey(secretOf(3));
    const first = conversationKey(mine, bob, ed(7), ed(8), backend);
    first.fill(0); // a caller wiping its copy must not wipe the kept key
    const second = conversationKey(mine, bob, ed(7), ed(8), backend);
    expect(backend.exchanges).toBe(1);
    expect(bytesToHex(second)).toBe(bytesToHex(conversationKey(mine, bob, ed(7), ed(8), nobleCipher)));
    // Another peer, or the same X25519 key under other identities, is another key.
    expect(bytesToHex(conversationKey(mine, carol, ed(7), ed(8), backend))).not.toBe(bytesToHex(second));
    expect(bytesToHex(conversationKey(mine, bob, ed(7), ed(9), backend))).not.toBe(bytesToHex(second));
    expect(backend.exchanges).toBe(3);
  });

  it('derives again when the secret array was changed in place', () => {
    const backend = counting();
    const mine = secretOf(1);
    const bob = nodeCipher.x25519PublicKey(secretOf(2));
    const before = bytesToHex(conversationKey(mine, bob, ed(7), ed(8), backend));
    mine.fill(4);
    const after = bytesToHex(conversationKey(mine, bob, ed(7), ed(8), backend));
    expect(backend.exchanges).toBe(2);
    expect(after).not.toBe(before);
    expect(after).toBe(bytesToHex(conversationKey(secretOf(4), bob, ed(7), ed(8), nobleCipher)));
  });
});
