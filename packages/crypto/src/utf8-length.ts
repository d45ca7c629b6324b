/**
 * The UTF-8 length of a string, counted without allocating its encoding (size limits are checked
 * on every event and payload, so this runs on the hot path).
 * @module
 */

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Bytes `text` takes in UTF-8. A lone surrogate counts 3 bytes, as U+FFFD replaces it when encoded.
 * @example
 * ```ts
 * utf8Length('héllo'); // 6
 * ```
 */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
