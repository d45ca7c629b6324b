/**
 * How a failure of an upstream MCP request becomes a {@link BridgeError}, and whether the session
 * that produced it can still be used. The SDK keeps wire errors (`ProtocolError`: the server
 * answered with a JSON-RPC error) apart from local ones (`SdkError` with a string code, fetch and
 * stream failures); the bridge follows that line:
 *
 * | failure | code | session |
 * |---|---|---|
 * | JSON-RPC error from the server | `UPSTREAM_ERROR` (the server's code and message) | kept |
 * | the answer was a stdio line over the cap (dropped by the transport) | `UPSTREAM_ERROR` | kept |
 * | request timed out | `UPSTREAM_TIMEOUT` | kept (the SDK sent `notifications/cancelled`) |
 * | cancelled by the caller's signal | `UPSTREAM_ERROR` | kept |
 * | a result the client cannot read | `UPSTREAM_ERROR` | kept |
 * | the request could not be written (a stack overflow or a cycle while serializing) | `UPSTREAM_ERROR` | kept |
 * | HTTP 403 `insufficient_scope` (after the one new grant the OAuth client asks for, or without one) | `UPSTREAM_UNAVAILABLE` (the scope named) | kept |
 * | HTTP 401/403 | `UPSTREAM_UNAVAILABLE` (credentials refused) | dropped |
 * | connection refused/reset, stream lost, child exited, any other HTTP status | `UPSTREAM_UNAVAILABLE` | dropped |
 *
 * A dropped session reconnects on the next call; the failed call itself is never retried.
 * @module
 */
import {
  InsufficientScopeError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { BridgeError } from '../errors.js';
import { _isDroppedAnswer } from './stdio-transport.js';

/** A classified upstream failure. */
export interface _UpstreamFailure {
  error: BridgeError;
  /** True when the session is no longer usable and must be reconnected. */
  dropSession: boolean;
}

/** SDK codes that say the exchange failed while the connection itself is fine. */
const _SESSION_INTACT = new Set<string>([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.CapabilityNotSupported,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
  SdkErrorCode.InputRequiredRoundsExceeded,
  SdkErrorCode.ListPaginationExceeded,
]);

/**
 * Classifies `error` thrown by `what` (e.g. `tools/call echo`) of source `source`. `aborted` says
 * whether the caller's own signal fired. `secrets` are removed from every message.
 */
export function _classifyUpstreamError(
  error: unknown,
  context: { source: string; what: string; aborted: boolean; secrets: readonly string[] },
): _UpstreamFailure {
  const { source, what } = context;
  const redact = (text: string) => _redact(text, context.secrets);
  if (error instanceof BridgeError) return { error, dropSession: false };
  if (ProtocolError.isInstance(error) && _isDroppedAnswer(error.data)) {
    // Not the server's error: the transport dropped its answer, and says why.
    return {
      error: new BridgeError('UPSTREAM_ERROR', redact(`${source}: ${what} failed: ${error.message}`), {
        cause: error,
      }),
      dropSession: false,
    };
  }
  if (ProtocolError.isInstance(error)) {
    return {
      error: new BridgeError(
        'UPSTREAM_ERROR',
        redact(
          `${source}: ${what} failed: the server answered JSON-RPC error ${error.code}: ${error.message}`,
        ),
        { cause: error },
      ),
      dropSession: false,
    };
  }
  if (context.aborted) {
    return {
      error: new BridgeError(
        'UPSTREAM_ERROR',
        redact(`${source}: ${what} was cancelled: ${_describe(error)}`),
        {
          cause: error,
        },
      ),
      dropSession: false,
    };
  }
  if (SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout) {
    return {
      error: new BridgeError('UPSTREAM_TIMEOUT', redact(`${source}: ${what} timed out: ${error.message}`), {
        cause: error,
      }),
      dropSession: false,
    };
  }
  if (SdkError.isInstance(error) && _SESSION_INTACT.has(String(error.code))) {
    return {
      error: new BridgeError('UPSTREAM_ERROR', redact(`${source}: ${what} failed: ${error.message}`), {
        cause: error,
      }),
      dropSession: false,
    };
  }
  if (_isLocalSendFailure(error)) {
    // One request that cannot be serialized says nothing about the connection others share.
    return {
      error: new BridgeError(
        'UPSTREAM_ERROR',
        redact(`${source}: ${what} could not be sent: ${_describe(error)}`),
        { cause: error },
      ),
      dropSession: false,
    };
  }
  if (InsufficientScopeError.isInstance(error)) {
    // The token is good, the scope short: the session stays (other tools may need less).
    const scope = error.requiredScope ? ` (it needs "${error.requiredScope.slice(0, 200)}")` : '';
    return {
      error: new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        redact(`${source}: ${what} failed: the server refused the token's scope${scope}`),
        { cause: error },
      ),
      dropSession: false,
    };
  }
  const status = _authStatus(error);
  if (status !== undefined) {
    return {
      error: new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        redact(`${source}: ${what} failed: ${_credentialsRefused(status)}`),
        { cause: error },
      ),
      dropSession: true,
    };
  }
  return {
    error: new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      redact(`${source}: ${what} failed: the server cannot be reached: ${_describe(error)}`),
      { cause: error },
    ),
    dropSession: true,
  };
}

/**
 * A one-line description of an error with its causes (`fetch failed` says little; its cause
 * `connect ECONNREFUSED 127.0.0.1:4000` says what happened).
 */
export function _describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const text =
      current instanceof Error
        ? current.message || current.name
        : typeof current === 'string'
          ? current
          : JSON.stringify(current);
    const code = (current as { code?: unknown }).code;
    const part = typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
    if (part && !parts.some((p) => p.includes(part))) parts.push(part);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ') || 'unknown error';
}

/**
 * True when a transport error (reported outside any request) means the session's streams are
 * gone for good: the legacy SSE stream failed (the server forgot the session; the stream's own
 * reconnect would open a new, uninitialized one), or a Streamable HTTP stream could not be
 * resumed. The SDK reports the latter only as messages, and keeps the requests whose answers
 * were on that stream pending until they time out; dropping the session fails them at once.
 */
export function _isLostStream(error: unknown): boolean {
  if (SseError.isInstance(error)) return true;
  const message = error instanceof Error ? error.message : '';
  return /^(Failed to reconnect SSE stream|Failed to reconnect:|Maximum reconnection attempts)/.test(message);
}

/** `text` with every secret replaced by `[redacted]`. */
export function _redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  return out;
}

/** The HTTP status (401 or 403) when `error` says the server refused the credentials. */
export function _authStatus(error: unknown): number | undefined {
  const status = _httpStatus(error);
  if (status === 401 || status === 403) return status;
  return UnauthorizedError.isInstance(error) ? 401 : undefined;
}

/** What to tell the operator when the credentials were refused. */
export function _credentialsRefused(status: number): string {
  return `the server refused the credentials (HTTP ${status}); check the bearer token (auth.token_env)`;
}

function _httpStatus(error: unknown): number | undefined {
  if (SdkHttpError.isInstance(error)) return error.status;
  if (SseError.isInstance(error) && typeof error.code === 'number') return error.code;
  const message = error instanceof Error ? error.message : '';
  const match = /\(HTTP (\d{3})\)|\bHTTP (\d{3})\b/.exec(message);
  const digits = match?.[1] ?? match?.[2];
  return digits === undefined ? undefined : Number(digits);
}

/** A failure to serialize one request (not a failure of the connection). */
function _isLocalSendFailure(error: unknown): boolean {
  return (
    error instanceof RangeError ||
    (error instanceof TypeError && /circular structure|BigInt/i.test(error.message))
  );
}
