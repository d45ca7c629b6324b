/**
 * Local errors of `@xprotocol/mcp-bridge`. Failures that cross the wire are XProtocol error
 * payloads (`xp.error`, see `@xprotocol/translate`'s error map); these stay in the process.
 * @module
 */

/** Every failure this package throws; `code` is stable. */
export type BridgeErrorCode =
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_CANNOT_START'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_TIMEOUT'
  | 'STATE_DATABASE'
  | 'INVALID_OPTIONS'
  | 'CALL_FAILED'
  | 'RESPONSE_TOO_LARGE'
  | 'CLOSED';

/** The one base class for errors thrown by this package. */
export class BridgeError extends Error {
  readonly code: BridgeErrorCode;

  constructor(code: BridgeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BridgeError';
    this.code = code;
  }
}
