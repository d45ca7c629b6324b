/**
 * The inverse of the adapter's `splitCommandLine`: argv → one command line that splits back into
 * exactly the same words (POSIX single quoting), for the `command` key of a generated config.
 * @module
 */

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes each word only when needed.
 * @example
 * _quoteCommandLine(['node', '/my data/server.js', "it's"]); // `node '/my data/server.js' 'it'\''s'`
 */
export function _quoteCommandLine(argv: readonly string[]): string {
  return argv.map((word) => (PLAIN.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}
