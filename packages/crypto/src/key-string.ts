/**
 * Key strings: every public key is written `ed25519:<64 lowercase hex>` or `x25519:<64 lowercase
 * hex>` — in events, tags, config, CLI output and documents (docs/protocol.md, "Identity").
 * @module
 */
import { CryptoError } from './errors.js';
import { bytesToHex, hexToBytes } from './hex.js';

/** The two key algorithms an identity holds. */
export type KeyAlgorithm = 'ed25519' | 'x25519';

/** `ed25519:` + 64 lowercase hex digits: an identity (signing) public key. */
export type Ed25519KeyString = `ed25519:${string}`;
/** `x25519:` + 64 lowercase hex digits: an encryption public key. */
export type X25519KeyString = `x25519:${string}`;

const KEY_STRING = /^(ed25519|x25519):([0-9a-f]{64})$/;

/** Formats 32 public-key bytes as a key string. */
export function formatKey(algorithm: 'ed25519', publicKey: Uint8Array): Ed25519KeyString;
export function formatKey(algorithm: 'x25519', publicKey: Uint8Array): X25519KeyString;
export function formatKey(algorithm: KeyAlgorithm, publicKey: Uint8Array): string {
  if (publicKey.length !== 32) {
    throw new CryptoError(
      'INVALID_KEY',
      `expected a 32-byte ${algorithm} public key, got ${publicKey.length} bytes`,
    );
  }
  return `${algorithm}:${bytesToHex(publicKey)}`;
}

/**
 * Parses a key string and returns its 32 bytes. Throws {@link CryptoError} `INVALID_KEY` naming
 * what was expected; `expected` restricts the algorithm.
 * @example
 * parseKey('ed25519:' + '00'.repeat(32), 'ed25519'); // Uint8Array(32)
 */
export function parseKey(
  text: string,
  expected?: KeyAlgorithm,
): { algorithm: KeyAlgorithm; bytes: Uint8Array } {
  const match = typeof text === 'string' ? KEY_STRING.exec(text) : null;
  if (!match) {
    const want = expected ? `"${expected}:" followed by` : '"ed25519:" or "x25519:" followed by';
    throw new CryptoError('INVALID_KEY', `expected ${want} 64 lowercase hex digits, got ${preview(text)}`);
  }
  const algorithm = match[1] as KeyAlgorithm;
  if (expected && algorithm !== expected) {
    throw new CryptoError('INVALID_KEY', `expected an ${expected} key, got an ${algorithm} key`);
  }
  return { algorithm, bytes: hexToBytes(match[2]!, 32) };
}

/** True when `text` is a well-formed key string (of `expected`, if given). */
export function isKeyString(text: unknown, expected?: KeyAlgorithm): boolean {
  if (typeof text !== 'string') return false;
  const match = KEY_STRING.exec(text);
  return match !== null && (expected === undefined || match[1] === expected);
}

function preview(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}
