/**
 * The MCP face over Streamable HTTP: the face's settings resolved once (defaults, auth, the
 * allowed names and origins, the limits, the sessions, the 2026-07-28 leg), the HTTP listener whose requests
 * run the pipeline of http-request.ts, and its shutdown.
 * @module
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { staticBearerAuth } from '../auth/static-bearer-auth.js';
import type { McpFace } from '../face/mcp-face.js';
import type { BridgeLogger } from '../logger.js';
import { _httpLimits } from './http-limits.js';
import { _jsonRpcError } from './http-refusals.js';
import { type _HttpFace, _handleHttpRequest } from './http-request.js';
import { _HttpSessions } from './http-sessions.js';
import { _modernFace } from './modern-http.js';
import { _allowedOrigins } from './origin.js';
import { DEFAULT_MAX_RESULT_BYTES } from './result-cap.js';
import type { McpFaceServeOptions, McpFaceServer } from './serve-options.js';

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 8767;
const DEFAULT_PATH = '/mcp';
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
/** How long the face keeps an idle HTTP connection open, in ms (longer than clients keep theirs). */
const KEEP_ALIVE_MS = 65_000;

/** Serves `face` over Streamable HTTP on `host:port/path`; resolves once the port is bound. */
export async function _serveStreamableHttp(
  face: McpFace,
  settings: McpFaceServeOptions,
  logger: BridgeLogger,
): Promise<McpFaceServer> {
  const host = settings.host ?? DEFAULT_HOST;
  const http = _httpFace(face, settings, host, logger);
  const server = _httpServer(http);
  const address = await _listen(server, settings.port ?? DEFAULT_PORT, host);
  http.origins = _allowedOrigins(http.allowed, address.port, settings.allowedOrigins);
  const url = _faceUrl(host, address, http.path);
  logger.info({ url }, 'MCP face listening (Streamable HTTP)');
  return { url, close: () => _close(http, server) };
}

/** The face's settings, resolved (defaults, auth) and checked before listening. */
function _httpFace(
  face: McpFace,
  settings: McpFaceServeOptions,
  host: string,
  logger: BridgeLogger,
): _HttpFace {
  const allowed = _allowedHostnames(host);
  if (settings.auth && settings.bearerToken !== undefined) {
    throw new Error('mcp_server: give auth or bearerToken, not both');
  }
  const auth =
    settings.auth ??
    (settings.bearerToken === undefined ? undefined : staticBearerAuth(settings.bearerToken));
  // Checked before listening: a wrong entry is a configuration error, not a refusal per request.
  _allowedOrigins(allowed, 1, settings.allowedOrigins);
  const maxResultBytes = settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const limits = _httpLimits(settings);
  const sessions = new _HttpSessions({
    face,
    auth,
    limits: limits.sessions,
    idleMs: limits.sessionIdleMs,
    inFlight: limits.inFlight,
    maxResultBytes,
    logger,
  });
  return {
    face,
    logger,
    path: settings.path ?? DEFAULT_PATH,
    maxBody: settings.maxBodyBytes ?? DEFAULT_MAX_BODY,
    allowed,
    origins: new Set<string>(),
    auth,
    sessions,
    limits,
    onRefused: settings.onHttpRefused,
    modern: _modernFace(face, { maxResultBytes, auth, logger }),
  };
}

/** The HTTP server of the face: each request runs the pipeline; one that throws is a `500`. */
function _httpServer(http: _HttpFace): HttpServer {
  const server = createServer((request, response) => {
    _handleHttpRequest(http, request, response).catch((error: unknown) => {
      http.logger.error({ error: (error as Error).message }, 'MCP HTTP request failed');
      if (!response.headersSent) _jsonRpcError(response, 500, -32603, 'Internal error');
      else response.end();
    });
  });
  // A kept-alive connection is closed by the client, never under it: the face waits longer than
  // clients keep idle connections (undici 4 s, browsers about 60 s). With Node's 5 s default, a
  // client reusing a connection just as the face timed it out (a busy event loop fires the idle
  // timer late) lost its request ("other side closed").
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  return server;
}

/** Binds `server` to `host:port`; the bound address. */
async function _listen(server: HttpServer, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}

/** The face's URL: the bound address (loopback for a wildcard bind), port and path. */
function _faceUrl(host: string, address: AddressInfo, path: string): string {
  const shown = WILDCARD_HOSTS.has(host)
    ? address.family === 'IPv6'
      ? '::1'
      : '127.0.0.1'
    : address.address;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}${path}`;
}

/** Ends the sessions, the face, then the listener and its connections. */
async function _close(http: _HttpFace, server: HttpServer): Promise<void> {
  await http.sessions.closeAll();
  await http.face.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Open SSE streams would hold close() forever.
    server.closeAllConnections();
  });
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
