/**
 * The shared pre-check of the one Ed25519 verification rule (docs/protocol.md §3). Both backends
 * run it before the cofactorless equation, so a signature that RFC 8032 implementations disagree
 * about (ZIP-215 and "Taming the many EdDSAs" edge cases) gets one verdict everywhere:
 *
 * - `A` and `R` canonically encoded: y < p (RFC 8032 §5.1.3 step 1), and not x = 0 with the sign
 *   bit set (step 4: "if x = 0 and x_0 = 1, decoding fails");
 * - `s < L` (RFC 8032 §5.1.7 step 1);
 * - neither `A` nor `R` one of the 8 points of small order (the torsion subgroup).
 *
 * It works on bytes only (no point decoding), so the node:crypto backend pays almost nothing.
 * @module
 */

/** Why the pre-check refused a signature; `null` from {@link ed25519PreCheck} means it passed. */
export type Ed25519Rejection =
  | 'signature-length'
  | 'public-key-length'
  | 'non-canonical-A'
  | 'non-canonical-R'
  | 'small-order-A'
  | 'small-order-R'
  | 's-not-below-L';

/** L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
const L_LE = Uint8Array.from([
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
]);

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * The canonical encodings of the 8 points of small order (order 1, 2, 4, 4, 8, 8, 8, 8). Their
 * non-canonical encodings (y ≥ p, or x = 0 with the sign bit set) fail the canonical check first.
 */
export const _SMALL_ORDER_ENCODINGS: readonly Uint8Array[] = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity (0, 1)
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // (0, -1), order 2
  '0000000000000000000000000000000000000000000000000000000000000000', // (+sqrt(-1), 0), order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // (-sqrt(-1), 0), order 4
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', // order 8
].map(fromHex);

function equalAt(bytes: Uint8Array, offset: number, other: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (bytes[offset + i] !== other[i]) return false;
  return true;
}

/** y (the low 255 bits) is 1 or p − 1: the two points with x = 0. */
function yIsPlusMinusOne(bytes: Uint8Array, offset: number): boolean {
  const last = bytes[offset + 31]! & 0x7f;
  const first = bytes[offset]!;
  let middle0 = true;
  let middleF = true;
  for (let i = 1; i < 31; i++) {
    const b = bytes[offset + i]!;
    if (b !== 0) middle0 = false;
    if (b !== 0xff) middleF = false;
  }
  if (first === 0x01 && middle0 && last === 0) return true; // y = 1
  return first === 0xec && middleF && last === 0x7f; // y = p - 1
}

/** True when the 32 bytes at `offset` are a canonical point encoding (as far as bytes tell). */
export function _isCanonicalEncoding(bytes: Uint8Array, offset = 0): boolean {
  // y >= p = 2^255 - 19 exactly when the top 255 bits read 7fff…ff and the low byte is >= 0xed.
  let yTooLarge = (bytes[offset + 31]! & 0x7f) === 0x7f && bytes[offset]! >= 0xed;
  for (let i = 1; yTooLarge && i < 31; i++) if (bytes[offset + i] !== 0xff) yTooLarge = false;
  if (yTooLarge) return false;
  const signBit = (bytes[offset + 31]! & 0x80) !== 0;
  return !(signBit && yIsPlusMinusOne(bytes, offset));
}

/** True when the 32 bytes at `offset` are the canonical encoding of a point of small order. */
export function _isSmallOrderEncoding(bytes: Uint8Array, offset = 0): boolean {
  for (const point of _SMALL_ORDER_ENCODINGS) if (equalAt(bytes, offset, point)) return true;
  return false;
}

/** s (little-endian, bytes 32..63 of the signature) < L. */
function sBelowL(signature: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    const s = signature[32 + i]!;
    const l = L_LE[i]!;
    if (s !== l) return s < l;
  }
  return false; // s = L
}

/**
 * The shared pre-check of the one rule: `null` when `signature` (R ‖ s) and `publicKey` (A) may
 * go on to the cofactorless equation, or the first reason they may not.
 * @example
 * ed25519PreCheck(new Uint8Array(64), publicKey); // 'small-order-R' (R = (sqrt(-1), 0))
 */
export function ed25519PreCheck(signature: Uint8Array, publicKey: Uint8Array): Ed25519Rejection | null {
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return 'signature-length';
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) return 'public-key-length';
  if (!_isCanonicalEncoding(publicKey)) return 'non-canonical-A';
  if (!_isCanonicalEncoding(signature, 0)) return 'non-canonical-R';
  if (!sBelowL(signature)) return 's-not-below-L';
  if (_isSmallOrderEncoding(publicKey)) return 'small-order-A';
  if (_isSmallOrderEncoding(signature, 0)) return 'small-order-R';
  return null;
}
