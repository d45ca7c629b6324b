/**
 * The transport of one gateway link: a client's own session with an upstream MCP server, reached
 * exactly as the adapter's own session reaches it (a stdio child never run through a shell, with
 * the SDK's safe default environment plus the configured `env`; Streamable HTTP or legacy SSE with
 * the bearer token on every request). The child's stderr becomes debug logs, never stdout.
 * @module
 */
import {
  type AuthProvider,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BridgeError } from '../errors.js';
import type { BridgeLogger } from '../logger.js';
import { _httpFetch } from '../upstream/pinned-fetch.js';
import type { UpstreamTransport } from '../upstream/upstream-session.js';

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
  const transport = _create(source, spec, logger);
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

function _create(source: string, spec: UpstreamTransport, logger: BridgeLogger): Transport {
  if (spec.type === 'stdio') {
    const [command, ...args] = spec.command;
    if (!command) throw new BridgeError('INVALID_OPTIONS', `${source}: an empty stdio command`);
    const transport = new StdioClientTransport({
      command,
      args,
      env: { ...getDefaultEnvironment(), ...spec.env },
      stderr: 'pipe',
      ...(spec.cwd && { cwd: spec.cwd }),
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim())
          logger.debug({ source, stderr: line.slice(0, 2000) }, 'upstream stderr (gateway link)');
      }
    });
    return transport;
  }
  const url = new URL(spec.url);
  const token = spec.bearerToken;
  const authProvider: AuthProvider | undefined = token ? { token: async () => token } : undefined;
  // A host name resolves through the address policy, as for the adapter's own session.
  const fetch = _httpFetch(spec);
  const options = { ...(authProvider && { authProvider }), ...(fetch && { fetch }) };
  return spec.type === 'sse'
    ? new SSEClientTransport(url, options)
    : new StreamableHTTPClientTransport(url, options);
}
