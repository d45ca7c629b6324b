// The types of x25519.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Whether a 32-byte X25519 public key is of low order under any encoding (§4).
 *
 * @param {Buffer} key
 */
export function isLowOrder(key: Buffer): boolean;
/**
 * An X25519 key pair from its 32-byte secret (stored unclamped, §5).
 *
 * @param {Buffer} secret
 */
export function x25519FromSecret(secret: Buffer): {
  secret: Buffer<ArrayBufferLike>;
  publicKey: string;
  privateKey: import('crypto').KeyObject;
};
/**
 * X25519(my secret, their public), refusing a low-order key (§5, RFC 7748 §6.1).
 *
 * @param {import('node:crypto').KeyObject} myPrivateKey
 * @param {string} theirPublic an `x25519:` key string
 */
export function sharedSecret(
  myPrivateKey: import('node:crypto').KeyObject,
  theirPublic: string,
): NonSharedBuffer;
/**
 * The conversation salt of §5: SHA-256("xp/1/conv" ‖ lower ‖ higher) of the two Ed25519 keys.
 *
 * @param {string} edA @param {string} edB `ed25519:` key strings
 */
export function conversationSalt(edA: string, edB: string): NonSharedBuffer;
/**
 * The conversation key of §5 between me and a peer.
 *
 * @param {import('node:crypto').KeyObject} myX25519Private
 * @param {string} theirX25519 @param {string} myEd25519 @param {string} theirEd25519
 */
export function conversationKey(
  myX25519Private: import('node:crypto').KeyObject,
  theirX25519: string,
  myEd25519: string,
  theirEd25519: string,
): NonSharedBuffer;
