/**
 * Serves the MCP face: over stdio (stdout then belongs to the protocol), or Streamable HTTP on
 * `host:port/path` (default 127.0.0.1:8767/mcp) with Host and Origin validation against DNS
 * rebinding. Legacy SSE serving comes with a later issue.
 * @module
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { BridgeLogger } from './logger.js';
import type { McpFace } from './mcp-face.js';

/** Where and how to serve the face (the adapter's `mcp_server` section). */
export interface McpFaceServeOptions {
  transport: 'stdio' | 'streamable_http' | 'sse';
  /** Bind address for HTTP. */
  host: string;
  port: number;
  /** HTTP path of the MCP endpoint. */
  path: string;
}

/** A running MCP face. */
export interface McpFaceServer {
  /** `stdio`, or the HTTP URL. */
  readonly url: string;
  close(): Promise<void>;
}

/** Connects `face` to its transport. */
export async function serveMcpFace(
  face: McpFace,
  settings: McpFaceServeOptions,
  logger: BridgeLogger,
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Promise<McpFaceServer> {
  if (settings.transport === 'stdio') {
    const transport = new StdioServerTransport(
      (stdio?.stdin ?? process.stdin) as ConstructorParameters<typeof StdioServerTransport>[0],
      (stdio?.stdout ?? process.stdout) as ConstructorParameters<typeof StdioServerTransport>[1],
    );
    await face.server.connect(transport);
    return { url: 'stdio', close: () => face.server.close() };
  }
  if (settings.transport === 'sse') {
    throw new Error(
      'mcp_server.transport: sse (legacy) serving lands with a later issue; use streamable_http or stdio',
    );
  }
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
  await face.server.connect(transport);
  const allowedHosts = new Set([
    `${settings.host}:${settings.port}`,
    `localhost:${settings.port}`,
    `127.0.0.1:${settings.port}`,
  ]);
  const http: HttpServer = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (url.pathname !== settings.path) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`not found: the MCP endpoint is ${settings.path}\n`);
      return;
    }
    // DNS-rebinding protection: a browser page elsewhere must not reach a local MCP server.
    const host = request.headers.host ?? '';
    const origin = request.headers.origin;
    if (!allowedHosts.has(host) || (origin !== undefined && !_isLocalOrigin(origin, settings.port))) {
      logger.warn({ host, origin }, 'refused an MCP request with a foreign Host or Origin');
      response
        .writeHead(403, { 'content-type': 'text/plain' })
        .end('forbidden: Host or Origin not allowed\n');
      return;
    }
    transport.handleRequest(request, response).catch((error: unknown) => {
      logger.error({ error: (error as Error).message }, 'MCP HTTP request failed');
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port, settings.host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  allowedHosts.add(`${settings.host}:${address.port}`);
  allowedHosts.add(`localhost:${address.port}`);
  allowedHosts.add(`127.0.0.1:${address.port}`);
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}${settings.path}`;
  return {
    url,
    close: async () => {
      await face.server.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function _isLocalOrigin(origin: string, port: number): boolean {
  try {
    const parsed = new URL(origin);
    return (
      ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname) &&
      (parsed.port === '' || Number(parsed.port) === port)
    );
  } catch {
    return false;
  }
}
