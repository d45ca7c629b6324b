/**
 * The node:crypto Ed25519 backend (OpenSSL). OpenSSL's verification is already cofactorless and
 * checks `s < L`; the shared pre-check in front of it adds the canonical and small-order rules, so
 * its verdicts equal `nobleSignatures`' on every input. Node-only: exported from
 * `@xprotocol/crypto/node`.
 * @module
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { ed25519PreCheck } from './ed25519-rule.js';
import { CryptoError } from './errors.js';
import type { SignatureBackend } from './signature-backend.js';

/** DER prefix of a PKCS#8 Ed25519 private key (RFC 8410 §7) before its 32-byte seed. */
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
/** DER prefix of an SPKI Ed25519 public key (RFC 8410 §4) before its 32 bytes. */
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

function der(prefix: Uint8Array, key: Uint8Array): Buffer {
  const out = Buffer.alloc(prefix.length + 32);
  out.set(prefix, 0);
  out.set(key, prefix.length);
  return out;
}

interface PrivateKeyEntry {
  /** A copy of the seed, to notice when the caller reuses its array for another key. */
  readonly seed: Uint8Array;
  readonly key: KeyObject;
  publicKey?: Uint8Array;
}

/**
 * KeyObjects per secret-key array: a signer signs many events with one key, and building the
 * KeyObject costs about as much as the signature. Entries die with the caller's array.
 */
const privateKeys = new WeakMap<Uint8Array, PrivateKeyEntry>();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

function privateKeyEntry(secretKey: Uint8Array): PrivateKeyEntry {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32) {
    throw new CryptoError(
      'INVALID_KEY',
      `expected a 32-byte Ed25519 secret key (seed), got ${secretKey instanceof Uint8Array ? `${secretKey.length} bytes` : typeof secretKey}`,
    );
  }
  const cached = privateKeys.get(secretKey);
  if (cached && sameBytes(cached.seed, secretKey)) return cached;
  const key = createPrivateKey({ key: der(PKCS8_PREFIX, secretKey), format: 'der', type: 'pkcs8' });
  const entry: PrivateKeyEntry = { seed: secretKey.slice(), key };
  privateKeys.set(secretKey, entry);
  return entry;
}

/** Recently used public keys: a verifier sees the same senders again and again. */
const publicKeys = new Map<string, KeyObject>();
const PUBLIC_KEY_CACHE = 256;

function publicKeyObject(publicKey: Uint8Array): KeyObject {
  const cacheKey = Buffer.from(publicKey.buffer, publicKey.byteOffset, 32).toString('hex');
  let key = publicKeys.get(cacheKey);
  if (key === undefined) {
    key = createPublicKey({ key: der(SPKI_PREFIX, publicKey), format: 'der', type: 'spki' });
    if (publicKeys.size >= PUBLIC_KEY_CACHE) {
      const oldest = publicKeys.keys().next();
      if (!oldest.done) publicKeys.delete(oldest.value);
    }
    publicKeys.set(cacheKey, key);
  }
  return key;
}

/**
 * Ed25519 on node:crypto: about 20× faster than `nobleSignatures`, same verdicts.
 * @example
 * import { nodeSignatures, signEvent } from '@xprotocol/crypto/node';
 * const event = signEvent(template, secretKey, nodeSignatures);
 */
export const nodeSignatures: SignatureBackend = Object.freeze({
  name: 'node',
  publicKey(secretKey: Uint8Array): Uint8Array {
    const entry = privateKeyEntry(secretKey);
    if (entry.publicKey === undefined) {
      const spki = createPublicKey(entry.key).export({ format: 'der', type: 'spki' });
      entry.publicKey = new Uint8Array(spki.subarray(spki.length - 32));
    }
    return entry.publicKey.slice();
  },
  sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
    return new Uint8Array(sign(null, message, privateKeyEntry(secretKey).key));
  },
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    if (ed25519PreCheck(signature, publicKey) !== null) return false;
    if (!(message instanceof Uint8Array)) return false;
    try {
      return verify(null, message, publicKeyObject(publicKey), signature);
    } catch {
      return false; // A is not a point on the curve
    }
  },
  verifyAsync(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
    if (ed25519PreCheck(signature, publicKey) !== null) return Promise.resolve(false);
    if (!(message instanceof Uint8Array)) return Promise.resolve(false);
    let key: KeyObject;
    try {
      key = publicKeyObject(publicKey);
    } catch {
      return Promise.resolve(false); // A is not a point on the curve
    }
    // With a callback, node:crypto verifies on libuv's thread pool.
    return new Promise((resolve) => {
      try {
        verify(null, message, key, signature, (error, valid) => resolve(error === null && valid));
      } catch {
        resolve(false);
      }
    });
  },
  sha256(data: Uint8Array): Uint8Array {
    return new Uint8Array(createHash('sha256').update(data).digest());
  },
});
