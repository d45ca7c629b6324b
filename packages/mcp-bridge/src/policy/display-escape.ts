/**
 * Showing a server's text to a person (docs/security.md, "Tool pinning"): a tool definition, a
 * finding or a tool name printed on a terminal or in a log must not act on the terminal (an ESC or
 * a C1 CSI sequence moving the cursor or rewriting a line) nor reorder what the reader sees (bidi
 * controls), nor hide anything (zero-width and tag characters). Each such character is shown as
 * `\u{XXXX}` instead, so the reviewer sees that it is there.
 * @module
 */

/**
 * Controls (C0 but line feed, DEL, C1), format characters (zero-width, bidi, tags, soft hyphen),
 * private use, lone surrogates, line and paragraph separators, variation selectors and fillers.
 */
const _UNSAFE =
  /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\p{Cf}\p{Co}\p{Cs}\u2028\u2029\u115F\u1160\u2800\u3164\uFFA0]|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]|\u034F|[\u17B4\u17B5]|[\u180B-\u180D]/gu;

/**
 * `text` with every character that could act on a terminal or hide from a reader written as
 * `\u{XXXX}` (line feeds are kept: callers print line by line).
 */
export function escapeForDisplay(text: string): string {
  return text.replace(_UNSAFE, (char) => {
    const code = char.codePointAt(0)!;
    return `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`;
  });
}
