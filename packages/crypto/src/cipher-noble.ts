/**
 * The portable cipher backend: `@noble/curves` X25519, `@noble/hashes` SHA-256/HMAC/HKDF and
 * `@noble/ciphers` ChaCha20. Runs in browsers, workers and Node.
 * @module
 */
import { chacha20 } from '@noble/ciphers/chacha.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { expand, extract } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/hashes/utils.js';
import {
  _assertBytes,
  _assertHkdfLength,
  _isAllZero,
  _lowOrderError,
  type CipherBackend,
} from './cipher-backend.js';

/** {@link CipherBackend} on the audited pure-JavaScript `@noble/*` libraries. */
export const nobleCipher: CipherBackend = Object.freeze({
  name: 'noble' as const,
  x25519PublicKey(secretKey: Uint8Array): Uint8Array {
    _assertBytes(secretKey, 32, 'an X25519 secret key');
    return x25519.getPublicKey(secretKey);
  },
  x25519SharedSecret(secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array {
    _assertBytes(secretKey, 32, 'an X25519 secret key');
    _assertBytes(publicKey, 32, 'an X25519 public key');
    let shared: Uint8Array;
    try {
      // noble refuses the five low-order u-coordinates (mod p) before running the ladder.
      shared = x25519.getSharedSecret(secretKey, publicKey);
    } catch (error) {
      throw _lowOrderError(error);
    }
    if (_isAllZero(shared)) throw _lowOrderError();
    return shared;
  },
  sha256(...parts: Uint8Array[]): Uint8Array {
    const h = sha256.create();
    for (const part of parts) h.update(part);
    return h.digest();
  },
  hmacSha256(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
    const h = hmac.create(sha256, key);
    for (const part of parts) h.update(part);
    return h.digest();
  },
  hkdfExtract(salt: Uint8Array, ikm: Uint8Array): Uint8Array {
    return extract(sha256, ikm, salt);
  },
  hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array {
    _assertHkdfLength(length);
    return expand(sha256, prk, info, length);
  },
  chacha20(key: Uint8Array, nonce: Uint8Array, data: Uint8Array): Uint8Array {
    _assertBytes(key, 32, 'a ChaCha20 key');
    _assertBytes(nonce, 12, 'a ChaCha20 nonce');
    return chacha20(key, nonce, data);
  },
  randomBytes(length: number): Uint8Array {
    return randomBytes(length);
  },
});
