/**
 * Low-order X25519 public keys (RFC 7748 §6.1): the u-coordinates whose product with any clamped
 * scalar is the all-zero value. A request whose `x25519` tag names one could never be answered
 * (the conversation key would be the same for everyone), so a receiver refuses it on sight, from
 * the bytes alone, before anything is sealed to it (docs/protocol.md §4, step 3a).
 * @module
 */

/** 2^255 − 19. */
const P = (1n << 255n) - 19n;

/**
 * The low-order u-coordinates, reduced mod p: 0 and 1, p − 1, and the two points of order 8.
 * Every encoding of these (bit 255 set, or u + p for 0 and 1) reduces to one of them.
 */
const LOW_ORDER_U: ReadonlySet<bigint> = new Set([
  0n,
  1n,
  P - 1n,
  325606250916557431795983626356110631294008115727848805560023387167927233504n,
  39382357235489614581723060781553021112529911719440698176882885853963445705823n,
]);

/**
 * True when the 32-byte X25519 public key is a point of low order, however encoded: bit 255 is
 * ignored (RFC 7748 §5) and u is taken mod p. Exactly the keys for which X25519 with any secret
 * gives 32 zero bytes.
 * @example
 * isLowOrderX25519(new Uint8Array(32)); // true (u = 0)
 */
export function isLowOrderX25519(publicKey: Uint8Array): boolean {
  if (publicKey.length !== 32) return false;
  let u = 0n;
  for (let i = 31; i >= 0; i--) u = (u << 8n) | BigInt(i === 31 ? publicKey[i]! & 0x7f : publicKey[i]!);
  return LOW_ORDER_U.has(u % P);
}
