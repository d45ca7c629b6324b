/**
 * The MCP faces of XProtocol errors (docs/protocol.md §10.2): which JSON-RPC error or `isError`
 * tool result each `xp.error` code becomes, and back. The `xp.error` payload itself (codes, shape,
 * parsing) is `@xprotocol/wire`'s.
 * @module
 */
import {
  isXpErrorCode,
  XP_ERROR_CODES,
  type XpErrorCode,
  type XpErrorPayload,
  xpError,
} from '@xprotocol/wire';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';

/** JSON-RPC error codes used on the MCP face (JSON-RPC 2.0 §5.1). */
export const JSONRPC_INVALID_REQUEST = -32600;
/** JSON-RPC "Invalid params". */
export const JSONRPC_INVALID_PARAMS = -32602;
/** JSON-RPC "Internal error". */
export const JSONRPC_INTERNAL_ERROR = -32603;
/** The MCP SDKs' request-timeout code (`ErrorCode.RequestTimeout`). */
export const MCP_REQUEST_TIMEOUT = -32001;

/** The JSON-RPC code and fixed message of each XP code (docs/design.md §8 table; the last three ours). */
export const XP_TO_JSONRPC: Readonly<Record<XpErrorCode, { code: number; message: string }>> = Object.freeze({
  AUTHORIZATION_INSUFFICIENT: {
    code: JSONRPC_INVALID_REQUEST,
    message: 'Insufficient capability for this operation',
  },
  SCHEMA_VIOLATION: {
    code: JSONRPC_INVALID_PARAMS,
    message: 'Request payload does not conform to schema',
  },
  EXPIRED: { code: JSONRPC_INVALID_REQUEST, message: 'Event has expired' },
  REVOKED: { code: JSONRPC_INVALID_REQUEST, message: 'Sender key has been revoked' },
  NOT_FOUND: { code: JSONRPC_INVALID_REQUEST, message: 'Resource or schema not found' },
  RATE_LIMITED: { code: JSONRPC_INVALID_REQUEST, message: 'Rate limit exceeded' },
  ENDPOINT_UNAVAILABLE: {
    code: JSONRPC_INTERNAL_ERROR,
    message: 'XProtocol endpoint unavailable',
  },
  // "(upstream MCP error) → InternalError, forwarded MCP error message": the message is the payload's
  UPSTREAM_ERROR: { code: JSONRPC_INTERNAL_ERROR, message: 'Upstream MCP server error' },
  TIMEOUT: { code: JSONRPC_INTERNAL_ERROR, message: 'XProtocol call timed out' },
  TOO_LARGE: { code: JSONRPC_INTERNAL_ERROR, message: 'Payload exceeds the size limit' },
});

/** The JSON Schema of an `xp.error` payload; it is the contract's `error_response.payload`. */
export function xpErrorPayloadSchema(): JsonObject {
  return {
    type: 'object',
    properties: {
      code: { type: 'string', enum: [...XP_ERROR_CODES] },
      message: { type: 'string' },
      // Whole seconds, at most a day: docs/protocol.md, "Errors" (a longer wait is a refusal).
      retry_after: { type: 'integer', minimum: 0, maximum: 86_400 },
      details: { type: 'object' },
    },
    required: ['code', 'message'],
    additionalProperties: false,
  };
}

/** A JSON-RPC error object as the MCP face sends it. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

/** An MCP `CallToolResult` carrying a tool-level error (`isError: true`). */
export interface McpToolErrorResult {
  content: { type: 'text'; text: string }[];
  isError: true;
  structuredContent?: JsonObject;
}

/** How an XP error appears on the MCP face: a tool result with `isError`, or a JSON-RPC error. */
export type McpErrorFace =
  | { channel: 'tool_result'; result: McpToolErrorResult }
  | { channel: 'jsonrpc_error'; error: JsonRpcErrorObject };

/**
 * Maps an XP error payload to the MCP face of a tool call (Direction 2). `SCHEMA_VIOLATION`
 * becomes a tool result with `isError: true` so the model can correct its arguments (MCP
 * 2025-11-25); every other code becomes the JSON-RPC error of {@link xpErrorToJsonRpc}.
 * @example
 * xpErrorToMcp({ code: 'NOT_FOUND', message: 'no kind com.x.y' }).channel; // 'jsonrpc_error'
 */
export function xpErrorToMcp(payload: XpErrorPayload): McpErrorFace {
  if (payload.code === 'SCHEMA_VIOLATION') {
    const text = `${XP_TO_JSONRPC.SCHEMA_VIOLATION.message}: ${payload.message}`;
    const result: McpToolErrorResult = { content: [{ type: 'text', text }], isError: true };
    const structured: JsonObject = { xp_code: payload.code, message: payload.message };
    if (payload.details !== undefined) structured.details = payload.details;
    result.structuredContent = structured;
    return { channel: 'tool_result', result };
  }
  return { channel: 'jsonrpc_error', error: xpErrorToJsonRpc(payload) };
}

/**
 * The JSON-RPC error of an XP error payload (docs/protocol.md §10.2): the code and fixed message of
 * {@link XP_TO_JSONRPC} and `data.xp_code`; the endpoint's own message travels in
 * `data.xp_message` (for `UPSTREAM_ERROR` it is the JSON-RPC message itself: "forwarded MCP error
 * message"), `retry_after` and `details` in `data` as they came. Used for every code where no tool
 * result can carry the error (any MCP request but a tool call).
 * @example
 * xpErrorToJsonRpc({ code: 'EXPIRED', message: 'the request expired at 1700000030' }).code; // -32600
 */
export function xpErrorToJsonRpc(payload: XpErrorPayload): JsonRpcErrorObject {
  const mapped = XP_TO_JSONRPC[payload.code];
  const data: JsonObject = { xp_code: payload.code };
  if (payload.code !== 'UPSTREAM_ERROR') data.xp_message = payload.message;
  if (payload.retry_after !== undefined) data.retry_after = payload.retry_after;
  if (payload.details !== undefined) data.details = payload.details;
  const message =
    payload.code === 'UPSTREAM_ERROR' && payload.message.length > 0 ? payload.message : mapped.message;
  return { code: mapped.code, message, data };
}

/**
 * Maps a JSON-RPC error (from an upstream MCP server in Direction 1, or from the MCP face in tests)
 * to an XP error payload. A known `data.xp_code` is kept (the round trip of {@link xpErrorToMcp});
 * the SDK request timeout (-32001) becomes `TIMEOUT`; anything else is `UPSTREAM_ERROR` with the MCP
 * message forwarded and the MCP code in `details.mcp_code`.
 * @example
 * mcpErrorToXp({ code: -32603, message: 'disk full' }); // { code: 'UPSTREAM_ERROR', message: 'disk full', details: { mcp_code: -32603 } }
 */
export function mcpErrorToXp(error: JsonRpcErrorObject): XpErrorPayload {
  const data = isJsonObject(error.data) ? error.data : undefined;
  if (data && isXpErrorCode(data.xp_code)) {
    const code = data.xp_code;
    const message =
      typeof data.xp_message === 'string'
        ? data.xp_message
        : code === 'UPSTREAM_ERROR'
          ? error.message
          : XP_TO_JSONRPC[code].message;
    return xpError(code, message, {
      retry_after: typeof data.retry_after === 'number' ? data.retry_after : undefined,
      details: isJsonObject(data.details) ? data.details : undefined,
    });
  }
  const details: JsonObject = { mcp_code: error.code };
  if (error.data !== undefined) details.mcp_data = error.data;
  if (error.code === MCP_REQUEST_TIMEOUT) {
    return xpError('TIMEOUT', error.message || XP_TO_JSONRPC.TIMEOUT.message, { details });
  }
  return xpError('UPSTREAM_ERROR', error.message || XP_TO_JSONRPC.UPSTREAM_ERROR.message, {
    details,
  });
}

/**
 * Reads the XP error back from an MCP tool result made by {@link xpErrorToMcp} (`isError: true`
 * with `structuredContent.xp_code`); `undefined` for any other result.
 */
export function mcpToolErrorToXp(result: unknown): XpErrorPayload | undefined {
  if (!isJsonObject(result) || result.isError !== true) return undefined;
  const sc = result.structuredContent;
  if (!isJsonObject(sc) || !isXpErrorCode(sc.xp_code) || typeof sc.message !== 'string') {
    return undefined;
  }
  return xpError(sc.xp_code, sc.message, {
    details: isJsonObject(sc.details) ? sc.details : undefined,
  });
}
