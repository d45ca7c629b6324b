/**
 * The MCP error of an `xp.error` answer to an MCP request sent across XProtocol: the face throws
 * it to its MCP client when an endpoint refused the client's request, and the endpoint throws it
 * to a wrapped server when the caller refused that server's request (sampling, elicitation, roots).
 * @module
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { xpErrorToMcp } from '@xprotocol/translate';
import type { XpErrorPayload } from '@xprotocol/wire';

/**
 * The MCP error for an `xp.error` answer: the upstream server's own JSON-RPC error when the
 * endpoint carried it (`details.mcp_error`), else the mapping of docs/design.md §8.
 */
export function _mcpError(error: XpErrorPayload): ProtocolError {
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
  const face = xpErrorToMcp(error);
  if (face.channel === 'tool_result') {
    // Only tool calls have a result channel for errors; here it is the params that are wrong.
    return new ProtocolError(-32602, error.message, { xp_code: error.code });
  }
  return new ProtocolError(face.error.code, face.error.message, face.error.data);
}
