// The types of payload.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/** @param {number} len the padded length without its prefix (§6.1) */
export function calcPaddedLen(len: number): number;
/**
 * The message keys of §6.1 (version 2) or §6.2 (version 3: info is 0x03 ‖ nonce).
 *
 * @param {Buffer} conversationKey @param {Buffer} nonce @param {2 | 3} version
 */
export function messageKeys(
  conversationKey: Buffer,
  nonce: Buffer,
  version: 2 | 3,
): {
  chachaKey: Buffer<ArrayBuffer>;
  chachaNonce: Buffer<ArrayBuffer>;
  hmacKey: Buffer<ArrayBuffer>;
};
/**
 * Encrypts `plaintext` (§6): version 2 up to 65,535 bytes, else version 3.
 *
 * @param {Buffer} conversationKey @param {string} plaintext @param {Buffer} [nonce] 32 bytes, random by default
 */
export function encryptPayload(conversationKey: Buffer, plaintext: string, nonce?: Buffer): string;
/**
 * Decrypts a payload with the receiver's checks of §6.1 in their order (version 3's bounds from
 * §6.2). Returns the plaintext and the 32-byte nonce.
 *
 * @param {Buffer} conversationKey @param {string} payload
 */
export function decryptPayload(
  conversationKey: Buffer,
  payload: string,
): {
  plaintext: string;
  nonce: Buffer<ArrayBuffer>;
  version: number;
};
/** The largest plaintext (§6.2), and the largest of version 2 (§6). */
export const MAX_PLAINTEXT: 3080192;
