/**
 * Serves the MCP face: over stdio (stdout then belongs to the protocol; serve-stdio.ts), or
 * Streamable HTTP on `host:port/path` (default `127.0.0.1:8767/mcp`; serve-http.ts) with Host
 * validation against DNS rebinding and an exact Origin check (docs/security.md, "The HTTP face").
 * Legacy SSE serving needs the SDK's legacy server transport, which is not a dependency yet:
 * `transport: 'sse'` is refused with a message that says so.
 *
 * Each HTTP session keeps what it sent in a bounded in-memory event store, so a client whose
 * stream dropped resumes it with `Last-Event-ID`.
 *
 * HTTP serving holds one MCP session per client, and shares sessions and requests in flight
 * fairly between principals: a cap per principal under a ceiling for all (`maxSessions`, default
 * 64, a quarter per principal; a principal over its share ends its own least recently used idle
 * session, whose client gets `404` and must initialize again, as the Streamable HTTP spec says;
 * otherwise `429` or `503`, never another principal's session ended).
 * With `bearerToken`, every request must carry `Authorization: Bearer <token>` (compared in
 * constant time; `401` otherwise); with `auth: OAuthFaceAuth`, a JWT of the configured
 * authorization server, whose scopes decide which tools it may call (`403 insufficient_scope`),
 * and whose principal alone may use the sessions it opened (docs/security.md, "OAuth on the MCP
 * face"). Credentials guard the face only: never logged, never sent anywhere (calls leave as
 * signed XProtocol events, not with the client's credentials).
 *
 * Bodies are held to JSON-RPC before a session sees them (`json-rpc-body.ts`): strict UTF-8, no
 * empty batch, no batch on revisions without batches, no lone surrogates, and no request id that
 * the session still has in flight (`json-rpc-in-flight.ts`).
 * @module
 */
import type { McpFace } from '../face/mcp-face.js';
import type { BridgeLogger } from '../logger.js';
import { _serveStreamableHttp } from './serve-http.js';
import type { McpFaceServeOptions, McpFaceServer } from './serve-options.js';
import { _serveStdio } from './serve-stdio.js';

/**
 * Connects `face` to its transport.
 *
 * @example
 * ```ts
 * const served = await serveMcpFace(face, { transport: 'streamable_http', port: 0 }, logger);
 * console.error(`MCP face at ${served.url}`); // http://127.0.0.1:<port>/mcp
 * await served.close();
 * ```
 */
export async function serveMcpFace(
  face: McpFace,
  settings: McpFaceServeOptions,
  logger: BridgeLogger,
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Promise<McpFaceServer> {
  if (settings.transport === 'stdio') return _serveStdio(face, settings, logger, stdio);
  if (settings.transport === 'sse') {
    throw new Error(
      'mcp_server.transport: sse (legacy HTTP+SSE) serving needs the MCP SDK legacy server package (@modelcontextprotocol/server-legacy), which is not installed; use streamable_http or stdio',
    );
  }
  return _serveStreamableHttp(face, settings, logger);
}
