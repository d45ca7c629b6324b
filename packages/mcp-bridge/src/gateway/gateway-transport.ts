/**
 * The transport of one gateway link: a client's own session with an upstream MCP server, reached
 * exactly as the adapter's own session reaches it (one builder, `upstream/upstream-transport.ts`),
 * with its outgoing messages tracked.
 * @module
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { BridgeLogger } from '../logger.js';
import { _createUpstreamTransport, type UpstreamTransport } from '../upstream/upstream-transport.js';

/**
 * A new SDK transport for `spec`, whose outgoing messages are tracked: `pending()` resolves once
 * every message handed to the transport so far has been written (a cancellation sent just before
 * the link closes must reach the server first).
 */
export function _gatewayTransport(
  source: string,
  spec: UpstreamTransport,
  logger: BridgeLogger,
): { transport: Transport; pending: () => Promise<void> } {
  const transport = _createUpstreamTransport(source, spec, logger, 'upstream stderr (gateway link)');
  const inFlight = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const sent = send(message, options);
    const tracked = sent.then(
      () => {},
      () => {},
    );
    inFlight.add(tracked);
    void tracked.then(() => inFlight.delete(tracked));
    return sent;
  };
  return {
    transport,
    pending: async () => {
      await Promise.all([...inFlight]);
    },
  };
}
