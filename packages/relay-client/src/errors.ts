/**
 * Local errors of `@xprotocol/relay-client`. Relay refusals arrive as `OK false` reasons and are
 * reported inside {@link RelayClientError} with each relay's reason.
 * @module
 */

/** Every failure this package reports; `code` is stable. */
export type RelayClientErrorCode =
  | 'INVALID_OPTIONS'
  | 'PUBLISH_REFUSED'
  | 'PUBLISH_EXPIRED'
  | 'OUTBOX_FULL'
  | 'OUTBOX_FAILED'
  | 'UNREACHABLE'
  | 'CLOSED';

/** The one base class for errors thrown by this package. */
export class RelayClientError extends Error {
  readonly code: RelayClientErrorCode;
  /** For `PUBLISH_REFUSED`, `PUBLISH_EXPIRED` and `UNREACHABLE`: each relay's reason, by URL. */
  readonly reasons: Readonly<Record<string, string>>;

  constructor(
    code: RelayClientErrorCode,
    message: string,
    options?: { cause?: unknown; reasons?: Record<string, string> },
  ) {
    super(message, options);
    this.name = 'RelayClientError';
    this.code = code;
    this.reasons = options?.reasons ?? {};
  }
}
