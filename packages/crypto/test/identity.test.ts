/**
 * Identities on every combination of backends.
 */
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  type CipherBackend,
  generateIdentity,
  hexToBytes,
  identityFromSecretKeys,
  isKeyString,
  nobleCipher,
  nobleSignatures,
  parseKey,
  type SignatureBackend,
} from '../src/index.js';
import { nodeCipher, nodeSignatures } from '../src/node.js';

const combos: [SignatureBackend, CipherBackend][] = [
  [nobleSignatures, nobleCipher],
  [nodeSignatures, nodeCipher],
  [nobleSignatures, nodeCipher],
  [nodeSignatures, nobleCipher],
];

describe.each(combos)('signatures %s + cipher %s', (signatures, cipher) => {
  it('generates a fresh identity whose key strings name its public keys', () => {
    const a = generateIdentity({ signatures, cipher });
    const b = generateIdentity({ signatures, cipher });
    expect(isKeyString(a.keys.ed25519, 'ed25519')).toBe(true);
    expect(isKeyString(a.keys.x25519, 'x25519')).toBe(true);
    expect(parseKey(a.keys.ed25519).bytes).toEqual(a.ed25519.publicKey);
    expect(parseKey(a.keys.x25519).bytes).toEqual(a.x25519.publicKey);
    expect(a.ed25519.secretKey).toHaveLength(32);
    expect(a.x25519.secretKey).toHaveLength(32);
    expect(a.keys.ed25519).not.toBe(b.keys.ed25519);
    // The public keys are the ones the secrets derive, and the identity signs and agrees.
    expect(signatures.publicKey(a.ed25519.secretKey)).toEqual(a.ed25519.publicKey);
    const message = new TextEncoder().encode('hello');
    expect(
      signatures.verify(signatures.sign(message, a.ed25519.secretKey), message, a.ed25519.publicKey),
    ).toBe(true);
    expect(cipher.x25519SharedSecret(a.x25519.secretKey, b.x25519.publicKey)).toEqual(
      cipher.x25519SharedSecret(b.x25519.secretKey, a.x25519.publicKey),
    );
  });
});

it('rebuilds the same identity from its secrets on either backend (RFC 8032 §7.1 TEST 1, RFC 7748 §6.1 Alice)', () => {
  const secrets = {
    ed25519: hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'),
    x25519: hexToBytes('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'),
  };
  const noble = identityFromSecretKeys(secrets);
  const node = identityFromSecretKeys(secrets, { signatures: nodeSignatures, cipher: nodeCipher });
  expect(noble.keys).toEqual(node.keys);
  expect(noble.keys.ed25519).toBe('ed25519:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  expect(noble.keys.x25519).toBe('x25519:8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
  // The identity holds copies: changing the input afterwards does not change it.
  secrets.ed25519.fill(0);
  expect(bytesToHex(noble.ed25519.secretKey)).toBe(
    '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
  );
});

it('refuses secrets of the wrong size', () => {
  expect(() => identityFromSecretKeys({ ed25519: new Uint8Array(31), x25519: new Uint8Array(32) })).toThrow(
    /expected an Ed25519 secret key as 32 bytes, got 31 bytes/,
  );
});
