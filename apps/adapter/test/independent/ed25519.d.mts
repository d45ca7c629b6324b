// The types of ed25519.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * The 32 bytes of a key string of type `type`; anything but the exact form of §1 is refused.
 *
 * @param {'ed25519' | 'x25519'} type
 * @param {unknown} text
 * @returns {Buffer}
 */
export function keyBytes(type: 'ed25519' | 'x25519', text: unknown): Buffer;
/**
 * An identity from its 32-byte seed (§1: the secret key is the RFC 8032 seed).
 *
 * @param {Buffer} seed
 * @returns {{ seed: Buffer, publicKey: string, privateKey: import('node:crypto').KeyObject }}
 */
export function ed25519FromSeed(seed: Buffer): {
  seed: Buffer;
  publicKey: string;
  privateKey: import('node:crypto').KeyObject;
};
/**
 * The signature of §3 over `message` (the 32 id bytes), hex.
 *
 * @param {import('node:crypto').KeyObject} privateKey
 * @param {Buffer} message
 */
export function signBytes(privateKey: import('node:crypto').KeyObject, message: Buffer): string;
/**
 * The pre-check of §3 (steps 1–4, bytes only): the name of the first step that fails, or null.
 *
 * @param {Buffer} signature
 * @param {Buffer} publicKey
 * @returns {string | null}
 */
export function ed25519PreCheck(signature: Buffer, publicKey: Buffer): string | null;
/**
 * The one verification rule of §3: the pre-check, then the cofactorless equation (node:crypto's
 * OpenSSL Ed25519, which §3 says is cofactorless and checks s < L).
 *
 * @param {Buffer} signature
 * @param {Buffer} publicKey
 * @param {Buffer} message
 * @returns {{ ok: boolean, precheck: string | null }}
 */
export function verifyBytes(
  signature: Buffer,
  publicKey: Buffer,
  message: Buffer,
): {
  ok: boolean;
  precheck: string | null;
};
