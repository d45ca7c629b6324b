/**
 * Ed25519 identities, key strings and the one verification rule, written from docs/protocol.md
 * §1 and §3 alone, on node:crypto. It imports nothing from this repository: it is one part of an
 * independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { RuleError } from './canonical-json.mjs';

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The canonical encodings of the 8 points of small order (§3 step 4). */
const SMALL_ORDER = new Set([
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
]);

const KEY_STRING = { ed25519: /^ed25519:[0-9a-f]{64}$/, x25519: /^x25519:[0-9a-f]{64}$/ };

/**
 * The 32 bytes of a key string of type `type`; anything but the exact form of §1 is refused.
 *
 * @param {'ed25519' | 'x25519'} type
 * @param {unknown} text
 * @returns {Buffer}
 */
export function keyBytes(type, text) {
  if (typeof text !== 'string' || !KEY_STRING[type].test(text)) {
    throw new RuleError(
      '§1',
      `expected a key string "${type}:" and 64 lowercase hex digits, got ${JSON.stringify(text)}`,
    );
  }
  return Buffer.from(text.slice(type.length + 1), 'hex');
}

/**
 * An identity from its 32-byte seed (§1: the secret key is the RFC 8032 seed).
 *
 * @param {Buffer} seed
 * @returns {{ seed: Buffer, publicKey: string, privateKey: import('node:crypto').KeyObject }}
 */
export function ed25519FromSeed(seed) {
  if (seed.length !== 32) throw new RuleError('§1', `an Ed25519 secret key is 32 bytes, got ${seed.length}`);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const raw = createPublicKey(privateKey)
    .export({ format: 'der', type: 'spki' })
    .subarray(SPKI_PREFIX.length);
  return { seed, publicKey: `ed25519:${raw.toString('hex')}`, privateKey };
}

/**
 * The signature of §3 over `message` (the 32 id bytes), hex.
 *
 * @param {import('node:crypto').KeyObject} privateKey
 * @param {Buffer} message
 */
export function signBytes(privateKey, message) {
  return sign(null, message, privateKey).toString('hex');
}

/** @param {Buffer} le */
function littleEndian(le) {
  return BigInt(`0x${Buffer.from(le).reverse().toString('hex')}`);
}

/**
 * Steps 2 of §3 for one encoding: y below p, and not x = 0 with the sign bit set.
 *
 * @param {Buffer} point
 */
function isCanonicalPoint(point) {
  const y = littleEndian(point) & (2n ** 255n - 1n);
  const signBit = (point[31] & 0x80) !== 0;
  if (y >= P) return false;
  // x = 0 exactly for y = 1 and y = p − 1: the points (0, 1) and (0, −1).
  return !(signBit && (y === 1n || y === P - 1n));
}

/**
 * The pre-check of §3 (steps 1–4, bytes only): the name of the first step that fails, or null.
 *
 * @param {Buffer} signature
 * @param {Buffer} publicKey
 * @returns {string | null}
 */
export function ed25519PreCheck(signature, publicKey) {
  if (signature.length !== 64 || publicKey.length !== 32) return 'length';
  const R = signature.subarray(0, 32);
  if (!isCanonicalPoint(publicKey)) return 'non-canonical-A';
  if (!isCanonicalPoint(R)) return 'non-canonical-R';
  if (littleEndian(signature.subarray(32)) >= L) return 's-not-below-L';
  if (SMALL_ORDER.has(publicKey.toString('hex'))) return 'small-order-A';
  if (SMALL_ORDER.has(R.toString('hex'))) return 'small-order-R';
  return null;
}

/**
 * The one verification rule of §3: the pre-check, then the cofactorless equation (node:crypto's
 * OpenSSL Ed25519, which §3 says is cofactorless and checks s < L).
 *
 * @param {Buffer} signature
 * @param {Buffer} publicKey
 * @param {Buffer} message
 * @returns {{ ok: boolean, precheck: string | null }}
 */
export function verifyBytes(signature, publicKey, message) {
  const precheck = ed25519PreCheck(signature, publicKey);
  if (precheck) return { ok: false, precheck };
  try {
    const key = createPublicKey({
      key: Buffer.concat([SPKI_PREFIX, publicKey]),
      format: 'der',
      type: 'spki',
    });
    return { ok: verify(null, message, key, signature), precheck: null };
  } catch {
    // A key that does not decode to a point of the curve (§3 step 5).
    return { ok: false, precheck: null };
  }
}
