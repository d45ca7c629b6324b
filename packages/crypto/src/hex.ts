/**
 * Lowercase hexadecimal codec. The wire format writes every key, id and signature in lowercase
 * hex (docs/protocol.md), so decoding refuses uppercase and odd lengths instead of normalising them.
 * @module
 */
import { CryptoError } from './errors.js';

const HEX_PAIRS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Encodes bytes as lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX_PAIRS[byte];
  return out;
}

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  return -1;
}

/**
 * Decodes lowercase hex. Throws {@link CryptoError} `INVALID_HEX` on an odd length, an uppercase
 * digit or any other character, or when `expectedBytes` is given and the length differs.
 */
export function hexToBytes(hex: string, expectedBytes?: number): Uint8Array {
  if (typeof hex !== 'string' || hex.length % 2 !== 0) {
    throw new CryptoError(
      'INVALID_HEX',
      `expected an even-length lowercase hex string, got ${describe(hex)}`,
    );
  }
  if (expectedBytes !== undefined && hex.length !== expectedBytes * 2) {
    throw new CryptoError('INVALID_HEX', `expected ${expectedBytes * 2} hex digits, got ${hex.length}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) {
      throw new CryptoError(
        'INVALID_HEX',
        `expected lowercase hex digits [0-9a-f], got ${JSON.stringify(hex.slice(2 * i, 2 * i + 2))} at offset ${2 * i}`,
      );
    }
    out[i] = hi * 16 + lo;
  }
  return out;
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  return `${value.length} characters`;
}
