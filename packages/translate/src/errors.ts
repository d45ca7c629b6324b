/**
 * Local errors of `@xprotocol/translate`. They stay inside the process; what crosses the wire is
 * an XProtocol error payload (see `error-map.ts`), never one of these messages verbatim.
 * @module
 */

/** Every failure this package throws; `code` is stable, `message` says what was expected. */
export type TranslateErrorCode =
  | 'INVALID_NAMESPACE'
  | 'INVALID_KIND'
  | 'INVALID_CAPABILITY'
  | 'INVALID_VERSION'
  | 'INVALID_CONTRACT'
  | 'INVALID_ERROR_PAYLOAD'
  | 'UNSAFE_SCHEMA'
  | 'INVALID_SCHEMA'
  | 'NAME_UNAVAILABLE';

/** The one base class for errors thrown by this package; `instanceof` works across the API. */
export class TranslateError extends Error {
  readonly code: TranslateErrorCode;

  constructor(code: TranslateErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TranslateError';
    this.code = code;
  }
}
