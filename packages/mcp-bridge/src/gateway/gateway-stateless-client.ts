/**
 * The links 2026-07-28 requests share (gateway mode, and the endpoint's 2026-07-28 callers): their
 * client side and the revision they speak. Such a client has no session with the face, and
 * declares its capabilities in each request's `_meta`, which the link forwards as they are. A
 * server speaking 2026-07-28 asks for input in its results, which go back to the client as they
 * are; a request of a 2025 server on a shared link has no client to go to and is refused, naming
 * why.
 * @module
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';
import type { _LinkClient } from './gateway-link.js';

/**
 * How the shared links reach the server of `transport`: a Streamable HTTP server whose source
 * names no revision (the `2025-11-25` default) is asked which it speaks (`server/discover`, the
 * SDK's `auto`) when the first 2026-07-28 request needs it, so that a server speaking both gives
 * 2026-07-28 clients its 2026-07-28 behaviour; a server that does not answer as one is spoken to in
 * 2025-11-25, as before. A configured revision (or the one `auto` found) is kept; a stdio server is
 * not asked (the question costs a child of its own), nor a legacy SSE one.
 */
export function _statelessTransport(transport: UpstreamTransport | undefined): UpstreamTransport | undefined {
  if (transport?.type !== 'streamable_http' || transport.revision !== undefined) return transport;
  return { ...transport, revision: 'auto' };
}

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
