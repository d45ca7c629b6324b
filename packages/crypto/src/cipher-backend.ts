/**
 * The primitives payload encryption needs, behind one small interface so that the same code runs
 * on `@noble/*` (anywhere) and on node:crypto (Node, much faster). Both implementations pass the
 * same vectors (Wycheproof X25519, HKDF-SHA256, HMAC-SHA256, RFC 8439 ChaCha20) and the tests
 * cross-check them.
 * @module
 */
import { CryptoError } from './errors.js';

/**
 * X25519 (RFC 7748), SHA-256, HMAC-SHA256, HKDF-SHA256 (RFC 5869) and ChaCha20 (RFC 8439).
 * Every method takes and returns plain bytes; none keeps state between calls.
 */
export interface CipherBackend {
  /** `'noble'` for {@link nobleCipher}, `'node'` for `nodeCipher` of `@xprotocol/crypto/node`. */
  readonly name: 'noble' | 'node';
  /** The X25519 public key (u-coordinate of `secretKey`·9) of a 32-byte secret key (clamped per RFC 7748 §5). */
  x25519PublicKey(secretKey: Uint8Array): Uint8Array;
  /**
   * The 32-byte X25519 shared secret. Throws {@link CryptoError} `INVALID_KEY` when the public key
   * is a low-order point, i.e. when the result would be all zero (RFC 7748 §6.1): such a key
   * contributes nothing secret, so XProtocol refuses it instead of deriving a predictable key.
   */
  x25519SharedSecret(secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
  /** SHA-256 of the concatenation of `parts`. */
  sha256(...parts: Uint8Array[]): Uint8Array;
  /** HMAC-SHA256 (RFC 2104) under `key` of the concatenation of `parts`. */
  hmacSha256(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array;
  /** HKDF-Extract (RFC 5869 §2.2) with SHA-256: a 32-byte pseudorandom key. An empty salt means 32 zero bytes. */
  hkdfExtract(salt: Uint8Array, ikm: Uint8Array): Uint8Array;
  /**
   * HKDF-Expand (RFC 5869 §2.3) with SHA-256. `length` is 1 … 8160 (255 × 32); anything else
   * throws {@link CryptoError} `UNSUPPORTED`.
   */
  hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array;
  /**
   * ChaCha20 (RFC 8439 §2.4) with a 32-byte key, a 96-bit nonce and the block counter starting at
   * 0: returns `data` XOR the keystream (encryption and decryption are the same operation).
   */
  chacha20(key: Uint8Array, nonce: Uint8Array, data: Uint8Array): Uint8Array;
  /** `length` bytes from the platform's cryptographically secure generator. */
  randomBytes(length: number): Uint8Array;
}

/** Largest HKDF-SHA256 output: 255 blocks of 32 bytes (RFC 5869 §2.3). */
export const HKDF_SHA256_MAX_LENGTH = 255 * 32;

/** Throws `INVALID_KEY` unless `bytes` is a Uint8Array of exactly `length` bytes. @internal */
export function _assertBytes(bytes: unknown, length: number, what: string): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new CryptoError('INVALID_KEY', `expected ${what} as ${length} bytes, got ${typeof bytes}`);
  }
  if (bytes.length !== length) {
    throw new CryptoError('INVALID_KEY', `expected ${what} as ${length} bytes, got ${bytes.length} bytes`);
  }
}

/** Throws `UNSUPPORTED` unless `length` is a valid HKDF-SHA256 output length. @internal */
export function _assertHkdfLength(length: number): void {
  if (!Number.isInteger(length) || length < 1 || length > HKDF_SHA256_MAX_LENGTH) {
    throw new CryptoError(
      'UNSUPPORTED',
      `expected an HKDF-SHA256 output length of 1 to ${HKDF_SHA256_MAX_LENGTH} bytes, got ${length}`,
    );
  }
}

/** The error both backends throw for a low-order X25519 public key. @internal */
export function _lowOrderError(cause?: unknown): CryptoError {
  return new CryptoError(
    'INVALID_KEY',
    'X25519 public key is a low-order point: the shared secret would be all zero (RFC 7748 §6.1), refused',
    cause === undefined ? undefined : { cause },
  );
}

/** True when every byte is zero, in time independent of the contents. @internal */
export function _isAllZero(bytes: Uint8Array): boolean {
  let acc = 0;
  for (const byte of bytes) acc |= byte;
  return acc === 0;
}
