/**
 * Local errors of `@xprotocol/registry`: they stay inside the process. A catalog request with a
 * bad cursor is answered by the caller as `SCHEMA_VIOLATION`, never with this message verbatim.
 * @module
 */

/** Every failure this package throws; `code` is stable, `message` says what was expected. */
export type RegistryErrorCode =
  | 'INVALID_SOURCE'
  | 'INVALID_CONTRACT'
  | 'INVALID_CATALOG_REQUEST'
  | 'INVALID_ANNOUNCE'
  | 'VERSION_STORE';

/** The one base class for errors thrown by this package. */
export class RegistryError extends Error {
  readonly code: RegistryErrorCode;

  constructor(code: RegistryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RegistryError';
    this.code = code;
  }
}
