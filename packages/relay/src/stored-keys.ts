/**
 * How the durable stores keep an event's id and signing key: as their 32 bytes, not as 64 and 72
 * characters of text. A filter value that is not an id or a key as stored matches no event (the
 * relay stores verified events only), as it would by string comparison.
 * @module
 */

const HEX64 = /^[0-9a-f]{64}$/;
const KEY = /^ed25519:[0-9a-f]{64}$/;

/**
 * The 32 bytes stored for an event id, or `undefined` when `hex` is not 64 lowercase hex digits:
 * no stored event has such an id (the relay stores verified events only), so a filter value like
 * that matches nothing, as it would by string comparison.
 */
export function _idBytes(hex: string): Uint8Array | undefined {
  return _isIdHex(hex) ? Buffer.from(hex, 'hex') : undefined;
}

/** The 32 bytes stored for an `ed25519:` key string, or `undefined` when `key` is not one. */
export function _keyBytes(key: string): Uint8Array | undefined {
  return _isKeyString(key) ? Buffer.from(key.slice(8), 'hex') : undefined;
}

/** True when `hex` is an event id as stored: 64 lowercase hex digits. */
export function _isIdHex(hex: string): boolean {
  return HEX64.test(hex);
}

/** True when `key` is a key as stored: `ed25519:` and 64 lowercase hex digits. */
export function _isKeyString(key: string): boolean {
  return KEY.test(key);
}
