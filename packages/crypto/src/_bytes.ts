/**
 * Byte and text helpers shared by the canonical JSON, the event checks and payload encryption:
 * constant-time comparison, concatenation, lone-surrogate search and strict UTF-8.
 * @module
 */

/**
 * True when `a` and `b` hold the same bytes. The time taken depends only on the lengths, never on
 * where the first difference is (a MAC check must not tell an attacker how many bytes matched).
 * @internal
 */
export function _constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Concatenates byte arrays into a new one. @internal */
export function _concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Index of the first lone (unpaired) UTF-16 surrogate in `text`, or -1 when the string is well
 * formed Unicode. @internal
 */
export function _loneSurrogateIndex(text: string): number {
  // Fast path: the regex engine rejects a string without any surrogate code unit (all of ASCII and
  // Latin-1 text, most of the BMP) far faster than a charCodeAt loop.
  if (!SURROGATE.test(text)) return -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 bytes of a well-formed string (callers check lone surrogates first). @internal */
export function _utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes UTF-8, throwing a `TypeError` on malformed input instead of inserting U+FFFD. @internal */
export function _utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
