/**
 * The transport to one upstream MCP server, built the same way for the adapter's own session and
 * for each gateway link: a stdio child through our {@link StdioChildTransport} (never run through
 * a shell, the SDK's safe default environment plus the configured `env`, its own process group,
 * a cap on one stdout line; its stderr becomes debug logs, never our stdout, which may carry a
 * protocol); the SDK's Streamable HTTP or legacy SSE transport with the bearer token on every
 * request and host names resolved through the address policy.
 * @module
 */
import {
  type AuthProvider,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { BridgeError } from '../errors.js';
import type { BridgeLogger } from '../logger.js';
import { _httpFetch } from './pinned-fetch.js';
import { StdioChildTransport } from './stdio-transport.js';
import type { UpstreamTransport } from './upstream-session.js';

/**
 * A new transport for `spec`. `source` names the upstream in errors and logs; `stderrLog` is the
 * message of the debug line each stderr line of a stdio child becomes.
 */
export function _createUpstreamTransport(
  source: string,
  spec: UpstreamTransport,
  logger: BridgeLogger,
  stderrLog: string,
): Transport {
  if (spec.type === 'stdio') {
    const [command, ...args] = spec.command;
    if (!command) throw new BridgeError('INVALID_OPTIONS', `${source}: an empty stdio command`);
    const transport = new StdioChildTransport({
      source,
      command,
      args,
      ...(spec.env && { env: spec.env }),
      ...(spec.cwd && { cwd: spec.cwd }),
      ...(spec.maxLineBytes !== undefined && { maxLineBytes: spec.maxLineBytes }),
    });
    transport.stderr.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) logger.debug({ source, stderr: line.slice(0, 2000) }, stderrLog);
      }
    });
    return transport;
  }
  const url = new URL(spec.url);
  // The SDK's auth seam puts the token on every request: each POST and the GET of a stream.
  const token = spec.bearerToken;
  const authProvider: AuthProvider | undefined = token ? { token: async () => token } : undefined;
  const fetch = _httpFetch(spec);
  const options = { ...(authProvider && { authProvider }), ...(fetch && { fetch }) };
  return spec.type === 'sse'
    ? new SSEClientTransport(url, options)
    : new StreamableHTTPClientTransport(url, options);
}
