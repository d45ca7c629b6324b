/**
 * The MCP error of an `xp.error` answer to an MCP request sent across XProtocol: the face throws
 * it to its MCP client when an endpoint refused the client's request, and the endpoint throws it
 * to a wrapped server when the caller refused that server's request (sampling, elicitation, roots).
 * @module
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { xpErrorToJsonRpc, xpErrorToMcp } from '@xprotocol/translate';
import type { XpErrorPayload } from '@xprotocol/wire';

/**
 * The MCP error for an `xp.error` answer to any MCP request but a tool call (docs/protocol.md
 * §10.2): the upstream server's own JSON-RPC error when the endpoint carried it
 * (`details.mcp_error`), else the JSON-RPC error of the code, `SCHEMA_VIOLATION` included.
 */
export function _mcpError(error: XpErrorPayload): ProtocolError {
  const carried = _carriedMcpError(error);
  if (carried) return carried;
  const face = xpErrorToJsonRpc(error);
  return new ProtocolError(face.code, face.message, face.data);
}

/**
 * What the MCP client of a tool call gets for an `xp.error` answer (docs/protocol.md §10.2): the
 * tool result of a `SCHEMA_VIOLATION` (the model can correct its arguments), else throws the MCP
 * error ({@link _mcpError}).
 */
export function _toolCallErrorResult(error: XpErrorPayload): Record<string, unknown> {
  if (_carriedMcpError(error)) throw _mcpError(error);
  const face = xpErrorToMcp(error);
  if (face.channel === 'tool_result') return face.result as unknown as Record<string, unknown>;
  throw new ProtocolError(face.error.code, face.error.message, face.error.data);
}

/** The upstream's JSON-RPC error kept whole in `details.mcp_error`, when it is well formed. */
function _carriedMcpError(error: XpErrorPayload): ProtocolError | undefined {
  const carried = error.details?.mcp_error;
  if (
    carried !== null &&
    typeof carried === 'object' &&
    !Array.isArray(carried) &&
    Number.isInteger(carried.code) &&
    typeof carried.message === 'string'
  ) {
    return new ProtocolError(carried.code as number, carried.message, carried.data);
  }
  return undefined;
}
