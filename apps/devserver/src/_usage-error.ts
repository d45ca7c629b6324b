/**
 * A usage mistake found after commander parsed the flags (exit code 2).
 * @module
 */

/** Wrong or conflicting flags; the CLI prints the message with a usage hint and exits 2. */
export class _UsageError extends Error {
  override readonly name = '_UsageError';
}
