/**
 * Local errors of `@xprotocol/semantic`. They stay inside the process.
 * @module
 */

/** Every failure this package reports; `code` is stable, `message` says what was expected. */
export type SemanticErrorCode = 'INVALID_ARGUMENT' | 'DUPLICATE_ID' | 'INVALID_THRESHOLDS';

/** The one base class for errors thrown by this package. */
export class SemanticError extends Error {
  readonly code: SemanticErrorCode;

  constructor(code: SemanticErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SemanticError';
    this.code = code;
  }
}
