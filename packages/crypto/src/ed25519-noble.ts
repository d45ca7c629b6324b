/**
 * The pure-JS Ed25519 backend on @noble/curves. Signing is noble's RFC 8032 signer; verification
 * is ours: the shared pre-check, then the cofactorless equation `[s]B = R + [k]A` computed with
 * noble's point arithmetic — noble's own `verify` multiplies by the cofactor even with
 * `zip215: false`, which would accept signatures node:crypto refuses.
 * @module
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { ed25519PreCheck } from './ed25519-rule.js';
import { CryptoError } from './errors.js';
import type { SignatureBackend } from './signature-backend.js';

const { Point } = ed25519;
const L = Point.Fn.ORDER;

function checkSecret(secretKey: Uint8Array): void {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32) {
    throw new CryptoError(
      'INVALID_KEY',
      `expected a 32-byte Ed25519 secret key (seed), got ${secretKey instanceof Uint8Array ? `${secretKey.length} bytes` : typeof secretKey}`,
    );
  }
}

function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (ed25519PreCheck(signature, publicKey) !== null) return false;
  if (!(message instanceof Uint8Array)) return false;
  try {
    const rBytes = signature.subarray(0, 32);
    const A = Point.fromBytes(publicKey, false);
    const R = Point.fromBytes(rBytes, false);
    const s = littleEndian(signature.subarray(32, 64));
    const hashInput = new Uint8Array(64 + message.length);
    hashInput.set(rBytes, 0);
    hashInput.set(publicKey, 32);
    hashInput.set(message, 64);
    const k = littleEndian(sha512(hashInput)) % L;
    // RFC 8032 §5.1.7 step 3 without the factor 8: [s]B = R + [k]A.
    return Point.BASE.multiplyUnsafe(s).equals(R.add(A.multiplyUnsafe(k)));
  } catch {
    return false; // not a point on the curve
  }
}

/**
 * Ed25519 on @noble/curves: runs in browsers, workers and Node. Same verdicts as
 * `nodeSignatures`, about 20× slower on Node.
 * @example
 * const sig = nobleSignatures.sign(message, secretKey);
 * nobleSignatures.verify(sig, message, nobleSignatures.publicKey(secretKey)); // true
 */
export const nobleSignatures: SignatureBackend = Object.freeze({
  name: 'noble',
  publicKey(secretKey: Uint8Array): Uint8Array {
    checkSecret(secretKey);
    return ed25519.getPublicKey(secretKey);
  },
  sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
    checkSecret(secretKey);
    return ed25519.sign(message, secretKey);
  },
  verify,
});
