/**
 * X25519 (RFC 7748) on both cipher backends: every case of Wycheproof's x25519_test.json
 * (C2SP/wycheproof testvectors_v1, Apache-2.0; vendored in testdata/vectors). XProtocol's policy: a public key whose shared
 * secret is all zero (a low-order point, flag ZeroSharedSecret/LowOrderPublic) is refused with
 * CryptoError INVALID_KEY; every other case — including the "acceptable" twist, non-canonical and
 * small public keys — computes exactly the listed shared secret.
 */
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  type CipherBackend,
  CryptoError,
  hexToBytes,
  isLowOrderX25519,
  nobleCipher,
} from '../src/index.js';
import { nodeCipher } from '../src/node.js';
import { loadVectors } from './_testdata.js';

interface XdhCase {
  tcId: number;
  comment: string;
  flags: string[];
  public: string;
  private: string;
  shared: string;
  result: 'valid' | 'acceptable' | 'invalid';
}
const suite = loadVectors<{ numberOfTests: number; testGroups: { curve: string; tests: XdhCase[] }[] }>(
  'x25519_test.json',
);
const cases = suite.testGroups.flatMap((group) => group.tests);
const ZERO = '00'.repeat(32);

describe.each<CipherBackend>([nobleCipher, nodeCipher])('$name backend', (backend) => {
  it(`computes or refuses every one of the ${suite.numberOfTests} Wycheproof cases`, () => {
    let refused = 0;
    for (const tc of cases) {
      const id = `x25519_test.json tcId ${tc.tcId} (${tc.comment}; ${tc.flags.join(',')})`;
      const secret = hexToBytes(tc.private);
      const pub = hexToBytes(tc.public);
      if (tc.shared === ZERO) {
        let error: unknown;
        try {
          backend.x25519SharedSecret(secret, pub);
        } catch (caught) {
          error = caught;
        }
        expect(error, id).toBeInstanceOf(CryptoError);
        expect((error as CryptoError).code, id).toBe('INVALID_KEY');
        expect((error as CryptoError).message, id).toMatch(/low-order point/);
        refused++;
      } else {
        expect(bytesToHex(backend.x25519SharedSecret(secret, pub)), id).toBe(tc.shared);
      }
    }
    expect(cases).toHaveLength(suite.numberOfTests);
    // Every case flagged ZeroSharedSecret is among the refused ones.
    const flagged = cases.filter((tc) => tc.flags.includes('ZeroSharedSecret'));
    expect(flagged.every((tc) => tc.shared === ZERO)).toBe(true);
    expect(refused).toBe(cases.filter((tc) => tc.shared === ZERO).length);
    expect(refused).toBeGreaterThan(0);
  });

  it("RFC 7748 §6.1: both parties derive the same secret from each other's public keys", () => {
    const alice = hexToBytes('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
    const bob = hexToBytes('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb');
    const alicePub = backend.x25519PublicKey(alice);
    const bobPub = backend.x25519PublicKey(bob);
    expect(bytesToHex(alicePub)).toBe('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
    expect(bytesToHex(bobPub)).toBe('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
    const expected = '4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742';
    expect(bytesToHex(backend.x25519SharedSecret(alice, bobPub))).toBe(expected);
    expect(bytesToHex(backend.x25519SharedSecret(bob, alicePub))).toBe(expected);
  });

  it('refuses keys of the wrong length with a message naming the size', () => {
    expect(() => backend.x25519SharedSecret(new Uint8Array(31), new Uint8Array(32))).toThrow(
      /expected an X25519 secret key as 32 bytes, got 31 bytes/,
    );
    expect(() => backend.x25519PublicKey(new Uint8Array(33))).toThrow(/as 32 bytes, got 33 bytes/);
  });
});

it('both backends derive the same public key for random secrets', () => {
  for (let i = 0; i < 16; i++) {
    const secret = nobleCipher.randomBytes(32);
    expect(nodeCipher.x25519PublicKey(secret)).toEqual(nobleCipher.x25519PublicKey(secret));
  }
});

it('isLowOrderX25519 is true exactly for the Wycheproof public keys whose shared secret is all zero', () => {
  let lowOrder = 0;
  for (const tc of cases) {
    const id = `x25519_test.json tcId ${tc.tcId} (${tc.comment})`;
    expect(isLowOrderX25519(hexToBytes(tc.public)), id).toBe(tc.shared === ZERO);
    if (tc.shared === ZERO) lowOrder++;
  }
  expect(lowOrder).toBeGreaterThan(0);
  expect(isLowOrderX25519(nobleCipher.x25519PublicKey(nobleCipher.randomBytes(32)))).toBe(false);
  expect(isLowOrderX25519(new Uint8Array(31))).toBe(false);
});
