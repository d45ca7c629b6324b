/**
 * The client side of the links 2026-07-28 requests share (gateway mode): such a client has no
 * session with the face, and declares its capabilities in each request's `_meta`, which the link
 * forwards as they are. A server speaking 2026-07-28 asks for input in its results, which go back
 * to the client as they are; a request of a 2025 server on a shared link has no client to go to
 * and is refused, naming why.
 * @module
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import type { _LinkClient } from './gateway-link.js';

/** The shared links' client: declares nothing, and cannot be asked anything. */
export const _STATELESS_CLIENT: _LinkClient = {
  capabilities: () => undefined,
  clientInfo: () => undefined,
  request: async (request) => {
    throw new ProtocolError(
      -32601,
      `${request.method}: the calling client speaks MCP 2026-07-28 and cannot be sent requests on this link`,
    );
  },
  notification: async () => {},
};
