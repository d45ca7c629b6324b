import { describe, expect, it } from 'vitest';
import { bytesToHex, CryptoError, formatKey, hexToBytes, isKeyString, parseKey } from '../src/index.js';

describe('hex', () => {
  it('round-trips every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hexToBytes(bytesToHex(all))).toEqual(all);
  });
  it.each([['abc'], ['ABCD'], ['0g'], [' 00']])('refuses %j with INVALID_HEX', (bad) => {
    expect(() => hexToBytes(bad)).toThrow(CryptoError);
    try {
      hexToBytes(bad);
    } catch (error) {
      expect((error as CryptoError).code).toBe('INVALID_HEX');
    }
  });
  it('checks the expected length', () => {
    expect(() => hexToBytes('00', 32)).toThrow(/expected 64 hex digits, got 2/);
  });
});

describe('key strings', () => {
  const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
  it('formats and parses both algorithms', () => {
    const ed = formatKey('ed25519', bytes);
    expect(ed).toBe(`ed25519:${bytesToHex(bytes)}`);
    expect(parseKey(ed, 'ed25519').bytes).toEqual(bytes);
    expect(parseKey(formatKey('x25519', bytes)).algorithm).toBe('x25519');
  });
  it('refuses the placeholder from the seed config with a message naming the format', () => {
    expect(() => parseKey('ed25519:abc123...')).toThrow(
      /expected "ed25519:" or "x25519:" followed by 64 lowercase hex/,
    );
  });
  it('refuses uppercase hex and the wrong algorithm', () => {
    expect(isKeyString(`ed25519:${'AB'.repeat(32)}`)).toBe(false);
    expect(() => parseKey(formatKey('x25519', bytes), 'ed25519')).toThrow(
      /expected an ed25519 key, got an x25519 key/,
    );
  });
  it('refuses keys of the wrong length when formatting', () => {
    expect(() => formatKey('ed25519', new Uint8Array(31))).toThrow(/32-byte/);
  });
});
