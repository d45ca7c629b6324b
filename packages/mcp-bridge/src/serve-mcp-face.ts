/**
 * Serves the MCP face: over stdio (stdout then belongs to the protocol), or Streamable HTTP on
 * `host:port/path` (default `127.0.0.1:8767/mcp`) with Host and Origin validation against DNS
 * rebinding. Legacy SSE serving needs the SDK's legacy server transport, which is not a
 * dependency yet: `transport: 'sse'` is refused with a message that says so.
 *
 * Each HTTP session keeps what it sent in a bounded in-memory event store, so a client whose
 * stream dropped resumes it with `Last-Event-ID`.
 *
 * HTTP serving holds one MCP session per client (`maxSessions`, default 64; beyond it the oldest
 * ends and its client gets `404`, and must initialize again, as the Streamable HTTP spec says).
 * With `bearerToken`, every request must carry `Authorization: Bearer <token>` (compared in
 * constant time; `401` otherwise). The token guards the face only: it is never logged and never
 * sent anywhere (calls leave as signed XProtocol events, not with the client's credentials).
 * @module
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  isInitializeRequest,
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { _faceEventStore } from './face-event-store.js';
import type { BridgeLogger } from './logger.js';
import type { McpFace } from './mcp-face.js';

/** Where and how to serve the face (the adapter's `mcp_server` section). */
export interface McpFaceServeOptions {
  transport: 'stdio' | 'streamable_http' | 'sse';
  /** Bind address for HTTP. Default `127.0.0.1`; `0.0.0.0`/`::` bind every interface. */
  host?: string;
  /** HTTP port; `0` picks a free one (the returned `url` has it). Default 8767. */
  port?: number;
  /** HTTP path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Largest request body accepted, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Most MCP sessions at once (one per HTTP client); beyond it the oldest ends. Default 64. */
  maxSessions?: number;
  /** When set, HTTP requests must send `Authorization: Bearer <this>`; a non-empty string. */
  bearerToken?: string | undefined;
}

/** A running MCP face. */
export interface McpFaceServer {
  /** `stdio`, or the HTTP URL (with the bound port). */
  readonly url: string;
  close(): Promise<void>;
}

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 8767;
const DEFAULT_PATH = '/mcp';
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 64;
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
/** The `retry` (ms) the face suggests to a client reconnecting a dropped stream. */
const RETRY_INTERVAL_MS = 1000;

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
      'mcp_server.transport: sse (legacy HTTP+SSE) serving needs the MCP SDK legacy server package (@modelcontextprotocol/server-legacy), which is not installed; use streamable_http or stdio',
    );
  }
  return _serveStreamableHttp(face, settings, logger);
}

async function _serveStreamableHttp(
  face: McpFace,
  settings: McpFaceServeOptions,
  logger: BridgeLogger,
): Promise<McpFaceServer> {
  const host = settings.host ?? DEFAULT_HOST;
  const path = settings.path ?? DEFAULT_PATH;
  const maxBody = settings.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const allowed = _allowedHostnames(host);
  if (settings.bearerToken !== undefined && settings.bearerToken === '') {
    throw new Error('mcp_server bearer token: expected a non-empty string, got an empty one');
  }
  const tokenDigest = settings.bearerToken === undefined ? undefined : _digest(settings.bearerToken);
  /** Live sessions: one transport and one face server per MCP client. */
  const sessions = new Map<
    string,
    { transport: NodeStreamableHTTPServerTransport; server: ReturnType<McpFace['createServer']> }
  >();
  const maxSessions = settings.maxSessions ?? DEFAULT_MAX_SESSIONS;

  /** Starts a session for an `initialize` request; the oldest session ends beyond `maxSessions`. */
  const newSession = async (): Promise<NodeStreamableHTTPServerTransport> => {
    const server = face.createServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      // A client whose stream dropped mid-call resumes it with Last-Event-ID, missing nothing.
      eventStore: _faceEventStore(),
      retryInterval: RETRY_INTERVAL_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
        if (sessions.size > maxSessions) {
          const [oldestId, oldest] = sessions.entries().next().value as [string, { server: typeof server }];
          sessions.delete(oldestId);
          logger.warn({ session: oldestId, maxSessions }, 'too many MCP sessions: the oldest one ends');
          void oldest.server.close();
        }
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    _fallBackToStandaloneStream(transport);
    await server.connect(transport);
    return transport;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (url.pathname !== path) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`not found: the MCP endpoint is ${path}\n`);
      return;
    }
    // DNS-rebinding protection: a page elsewhere must not reach a local MCP server through a
    // name that resolves to us (Host), nor from a foreign origin (Origin). Hostnames only: a
    // local tool on another port (the MCP Inspector) is welcome.
    const hostCheck = validateHostHeader(request.headers.host, allowed);
    const originCheck = validateOriginHeader(request.headers.origin, allowed);
    const refusal = !hostCheck.ok ? hostCheck.message : !originCheck.ok ? originCheck.message : undefined;
    if (refusal !== undefined) {
      logger.warn(
        { host: request.headers.host, origin: request.headers.origin },
        `refused an MCP request: ${refusal}`,
      );
      _jsonRpcError(response, 403, -32000, `Forbidden: ${refusal}`);
      return;
    }
    if (tokenDigest !== undefined) {
      const problem = _bearerProblem(request.headers.authorization, tokenDigest);
      if (problem !== undefined) {
        logger.warn({ remote: request.socket.remoteAddress }, `refused an MCP request: ${problem}`);
        response.setHeader('www-authenticate', 'Bearer realm="mcp"');
        _jsonRpcError(response, 401, -32000, `Unauthorized: ${problem}`);
        return;
      }
    }
    let body: unknown;
    if (request.method === 'POST') {
      const read = await _readJson(request, maxBody);
      if (!read.ok) {
        _jsonRpcError(response, read.status, read.status === 413 ? -32600 : -32700, read.message);
        return;
      }
      body = read.value;
    }
    const sessionId = request.headers['mcp-session-id'];
    let current: NodeStreamableHTTPServerTransport | undefined;
    if (request.method === 'POST' && sessionId === undefined && _isInitialize(body)) {
      current = await newSession();
    } else if (typeof sessionId === 'string') {
      current = sessions.get(sessionId)?.transport;
      if (!current) {
        _jsonRpcError(response, 404, -32001, 'Session not found: initialize a new session');
        return;
      }
    } else {
      _jsonRpcError(response, 400, -32000, 'Bad Request: no MCP session; send initialize first');
      return;
    }
    await current.handleRequest(request, response, body);
  };

  const http: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error({ error: (error as Error).message }, 'MCP HTTP request failed');
      if (!response.headersSent) _jsonRpcError(response, 500, -32603, 'Internal error');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port ?? DEFAULT_PORT, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shown = WILDCARD_HOSTS.has(host)
    ? address.family === 'IPv6'
      ? '::1'
      : '127.0.0.1'
    : address.address;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}${path}`;
  logger.info({ url }, 'MCP face listening (Streamable HTTP)');
  return {
    url,
    close: async () => {
      const live = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(live.map(({ server }) => server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        // Open SSE streams would hold close() forever.
        http.closeAllConnections();
      });
    },
  };
}

/**
 * A message about a client request that was already answered (a gateway upstream's late log
 * message, or its cancellation of a request it sent the client) has no stream left to travel
 * on; the SDK transport refuses it. It is sent on the session's standalone stream instead, so
 * the client still gets it. Responses are never rerouted.
 */
function _fallBackToStandaloneStream(transport: NodeStreamableHTTPServerTransport): void {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } catch (error) {
      if (options?.relatedRequestId === undefined || !('method' in message)) throw error;
      const { relatedRequestId: _gone, ...rest } = options;
      await send(message, rest);
    }
  };
}

/** Hostnames a request may name in Host or Origin: loopback, the bound address, and for a wildcard bind every local interface address. */
function _allowedHostnames(host: string): string[] {
  const names = new Set(localhostAllowedHostnames());
  const bracket = (address: string) => (address.includes(':') ? `[${address}]` : address);
  if (WILDCARD_HOSTS.has(host)) {
    for (const entries of Object.values(networkInterfaces())) {
      for (const entry of entries ?? []) names.add(bracket(entry.address));
    }
  } else {
    names.add(bracket(host));
  }
  return [...names];
}

function _digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Why an `Authorization` header does not grant access, or `undefined` when it does. Digests are
 * compared, so the comparison takes the same time whatever the length or content of the guess.
 */
function _bearerProblem(header: string | undefined, expected: Buffer): string | undefined {
  if (header === undefined) return 'expected an Authorization: Bearer <token> header, got none';
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (match === null) return 'expected an Authorization header of the form "Bearer <token>"';
  return timingSafeEqual(_digest(match[1]!), expected) ? undefined : 'the bearer token is not valid';
}

function _isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

async function _readJson(
  request: IncomingMessage,
  maxBytes: number,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit the rest is read and dropped (memory stays bounded): leaving the loop would
  // destroy the socket before the 413 could be sent.
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  if (size > maxBytes) return { ok: false, status: 413, message: `request body over ${maxBytes} bytes` };
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch (error) {
    return { ok: false, status: 400, message: `Parse error: ${(error as Error).message}` };
  }
}

function _jsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
