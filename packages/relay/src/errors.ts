/**
 * Local errors of `@xprotocol/relay`: bad options, a store that failed. Protocol refusals never
 * throw — they are answered on the wire (`OK false`, `CLOSED`, `NOTICE`) with a reason prefix.
 * @module
 */

/** Every failure this package throws; `code` is stable. */
export type RelayErrorCode = 'INVALID_OPTIONS' | 'STORE_FAILED' | 'STORE_CLOSED' | 'LISTEN_FAILED';

/** The one base class for errors thrown by this package. */
export class RelayError extends Error {
  readonly code: RelayErrorCode;

  constructor(code: RelayErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RelayError';
    this.code = code;
  }
}
