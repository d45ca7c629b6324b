/**
 * The Node cipher backend: the same primitives as {@link nobleCipher} on node:crypto (OpenSSL),
 * many times faster. Node-only: exported from `@xprotocol/crypto/node`.
 * @module
 */
import {
  createCipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import {
  _assertBytes,
  _assertHkdfLength,
  _isAllZero,
  _lowOrderError,
  type CipherBackend,
} from './cipher-backend.js';

// DER prefixes of an X25519 key (RFC 8410): PKCS#8 private key and SubjectPublicKeyInfo, each
// followed by the 32 raw key bytes.
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20,
]);
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00]);

function withPrefix(prefix: Uint8Array, key: Uint8Array): Buffer {
  const der = Buffer.allocUnsafe(prefix.length + key.length);
  der.set(prefix, 0);
  der.set(key, prefix.length);
  return der;
}

function privateKey(secretKey: Uint8Array): KeyObject {
  return createPrivateKey({ key: withPrefix(PKCS8_PREFIX, secretKey), format: 'der', type: 'pkcs8' });
}

function view(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** {@link CipherBackend} on node:crypto. */
export const nodeCipher: CipherBackend = Object.freeze({
  name: 'node' as const,
  x25519PublicKey(secretKey: Uint8Array): Uint8Array {
    _assertBytes(secretKey, 32, 'an X25519 secret key');
    const spki = createPublicKey(privateKey(secretKey)).export({ format: 'der', type: 'spki' });
    return Uint8Array.from(spki.subarray(SPKI_PREFIX.length));
  },
  x25519SharedSecret(secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array {
    _assertBytes(secretKey, 32, 'an X25519 secret key');
    _assertBytes(publicKey, 32, 'an X25519 public key');
    const pub = createPublicKey({ key: withPrefix(SPKI_PREFIX, publicKey), format: 'der', type: 'spki' });
    let shared: Buffer;
    try {
      // OpenSSL fails the derivation when the result is all zero (a low-order point).
      shared = diffieHellman({ privateKey: privateKey(secretKey), publicKey: pub });
    } catch (error) {
      throw _lowOrderError(error);
    }
    if (_isAllZero(shared)) throw _lowOrderError();
    return view(shared);
  },
  sha256(...parts: Uint8Array[]): Uint8Array {
    const h = createHash('sha256');
    for (const part of parts) h.update(part);
    return view(h.digest());
  },
  hmacSha256(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
    const h = createHmac('sha256', key);
    for (const part of parts) h.update(part);
    return view(h.digest());
  },
  hkdfExtract(salt: Uint8Array, ikm: Uint8Array): Uint8Array {
    // RFC 5869 §2.2: PRK = HMAC-Hash(salt, IKM); an empty salt is HashLen zero bytes, which HMAC
    // pads to the same block.
    return view(createHmac('sha256', salt).update(ikm).digest());
  },
  hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array {
    _assertHkdfLength(length);
    // RFC 5869 §2.3: T(i) = HMAC-Hash(PRK, T(i-1) ‖ info ‖ i). node's hkdfSync always runs the
    // extract step first, so the expand step is written out here.
    const out = new Uint8Array(length);
    let previous: Buffer = Buffer.alloc(0);
    const counter = new Uint8Array(1);
    for (let offset = 0, i = 1; offset < length; i++, offset += 32) {
      counter[0] = i;
      previous = createHmac('sha256', prk).update(previous).update(info).update(counter).digest();
      out.set(previous.subarray(0, Math.min(32, length - offset)), offset);
    }
    return out;
  },
  chacha20(key: Uint8Array, nonce: Uint8Array, data: Uint8Array): Uint8Array {
    _assertBytes(key, 32, 'a ChaCha20 key');
    _assertBytes(nonce, 12, 'a ChaCha20 nonce');
    // OpenSSL's "chacha20" takes a 16-byte IV: the 32-bit little-endian block counter (0 here)
    // followed by the 96-bit nonce.
    const iv = Buffer.alloc(16);
    iv.set(nonce, 4);
    const cipher = createCipheriv('chacha20', key, iv);
    const head = cipher.update(data);
    const tail = cipher.final();
    return view(tail.length === 0 ? head : Buffer.concat([head, tail]));
  },
  randomBytes(length: number): Uint8Array {
    return view(randomBytes(length));
  },
});
