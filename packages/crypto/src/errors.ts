/**
 * Local errors of `@xprotocol/crypto`. They stay inside the process: a verifier answers a wire
 * error (or drops the event) based on `code`, never by forwarding the message.
 * @module
 */

/** Every failure this package reports; `code` is stable, `message` says what was expected. */
export type CryptoErrorCode =
  | 'INVALID_HEX'
  | 'INVALID_KEY'
  | 'INVALID_EVENT'
  | 'INVALID_SIGNATURE'
  | 'INVALID_PAYLOAD'
  | 'DECRYPT_FAILED'
  | 'KEY_FILE'
  | 'INVALID_DELEGATION'
  | 'INVALID_REVOCATION'
  | 'INVALID_ROTATION'
  | 'UNSUPPORTED';

/** The one base class for errors thrown by this package. */
export class CryptoError extends Error {
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CryptoError';
    this.code = code;
  }
}
