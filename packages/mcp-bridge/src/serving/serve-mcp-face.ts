/**
 * Serves the MCP face: over stdio (stdout then belongs to the protocol), or Streamable HTTP on
 * `host:port/path` (default `127.0.0.1:8767/mcp`) with Host validation against DNS rebinding and
 * an exact Origin check (docs/security.md, "The HTTP face"). Legacy SSE serving needs the SDK's legacy server transport, which is not a
 * dependency yet: `transport: 'sse'` is refused with a message that says so.
 *
 * Each HTTP session keeps what it sent in a bounded in-memory event store, so a client whose
 * stream dropped resumes it with `Last-Event-ID`.
 *
 * HTTP serving holds one MCP session per client (`maxSessions`, default 64; beyond it the oldest
 * ends and its client gets `404`, and must initialize again, as the Streamable HTTP spec says).
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
  type JSONRPCMessage,
  localhostAllowedHostnames,
  validateHostHeader,
} from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { FaceAuth, FaceAuthRefusal, FacePrincipal } from '../auth/face-auth.js';
import { staticBearerAuth } from '../auth/static-bearer-auth.js';
import type { McpFace } from '../face/mcp-face.js';
import type { FaceRateLimited } from '../face/rate-limit.js';
import { _paramHeaderRefusal, HEADER_MISMATCH } from '../gateway/param-headers.js';
import type { BridgeLogger } from '../logger.js';
import { _DirectAnswers } from './direct-answers.js';
import { _faceEventStore } from './event-store.js';
import {
  _batchRefusal,
  _checkJsonRpcBody,
  _idKey,
  type _JsonRpcId,
  type _JsonRpcRefusal,
  _parseJsonRpcBody,
} from './json-rpc-body.js';
import { _InFlightIds } from './json-rpc-in-flight.js';
import { _guardStdin } from './json-rpc-stdio-guard.js';
import { _isModernRequest, _modernFace } from './modern-http.js';
import { _allowedOrigins, _checkOrigin } from './origin.js';
import { _capResults, DEFAULT_MAX_RESULT_BYTES } from './result-cap.js';

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
  /**
   * Most requests one HTTP session may have in flight; more are answered `429` until some are
   * answered. Default 32.
   */
  maxRequestsInFlight?: number;
  /** Largest result sent to a client, in bytes of JSON; a bigger one becomes an error. Default 16 MiB. */
  maxResultBytes?: number;
  /** When set, HTTP requests must send `Authorization: Bearer <this>`; a non-empty string. */
  bearerToken?: string | undefined;
  /**
   * Who may use the face and which tools (`staticBearerAuth`, `OAuthFaceAuth`); takes the place
   * of `bearerToken`. An OAuth face also serves its protected resource metadata (RFC 9728).
   */
  auth?: FaceAuth | undefined;
  /**
   * Browser origins allowed besides the face's own (`http://<name>:<port>` for each name it
   * answers to), e.g. `http://localhost:6274` for the MCP Inspector. Each an `http(s)://` origin.
   */
  allowedOrigins?: readonly string[] | undefined;
}

/** What the face keeps per HTTP session: its transport, server, ids in flight and revision. */
interface _Session {
  transport: NodeStreamableHTTPServerTransport;
  server: ReturnType<McpFace['createServer']>;
  inFlight: _InFlightIds;
  /** The protocol revision the session's `initialize` answer chose. */
  revision: string | undefined;
  /** The principal that opened the session: only it may use the session. */
  principal: string | undefined;
  /** `tools/list` requests in flight, by id, with the principal whose token asked (OAuth). */
  listings: Map<string, FacePrincipal>;
  /** The session's `tools/call` POSTs answered without the SDK transport (direct-answers.ts). */
  direct: _DirectAnswers;
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
const DEFAULT_MAX_IN_FLIGHT = 32;
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
/** How long the face keeps an idle HTTP connection open, in ms (longer than clients keep theirs). */
const KEEP_ALIVE_MS = 65_000;
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
    const stdin = stdio?.stdin ?? process.stdin;
    const stdout = stdio?.stdout ?? process.stdout;
    // Each line is held to JSON-RPC before the SDK transport reads it (json-rpc-stdio-guard.ts).
    const guarded = _guardStdin(stdin, stdout, logger);
    const transport = new StdioServerTransport(
      guarded as unknown as ConstructorParameters<typeof StdioServerTransport>[0],
      stdout as ConstructorParameters<typeof StdioServerTransport>[1],
    );
    _capResults(transport, settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES);
    // The connection's first message picks its MCP revision: `initialize` a 2025-11-25 session,
    // a request with the 2026-07-28 `_meta` claim (or `server/discover`) that revision, served by
    // one server for the connection (docs/architecture.md, "Two MCP revisions").
    const served = serveStdio(({ era }) => face.createServer({ era }), {
      transport,
      onerror: (error) => logger.debug({ error: error.message }, 'MCP stdio face: a message was refused'),
    });
    return {
      url: 'stdio',
      close: async () => {
        await served.close();
        await face.close();
        stdin.unpipe(guarded);
        stdin.pause();
      },
    };
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
  if (settings.auth && settings.bearerToken !== undefined) {
    throw new Error('mcp_server: give auth or bearerToken, not both');
  }
  const auth =
    settings.auth ??
    (settings.bearerToken === undefined ? undefined : staticBearerAuth(settings.bearerToken));
  // Checked before listening: a wrong entry is a configuration error, not a refusal per request.
  _allowedOrigins(allowed, 1, settings.allowedOrigins);
  /** Set once the port is bound (requests only arrive after that). */
  let origins = new Set<string>();
  /** Live sessions: one transport and one face server per MCP client. */
  const sessions = new Map<string, _Session>();
  const maxSessions = settings.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxInFlight = settings.maxRequestsInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const maxResultBytes = settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  // 2026-07-28 requests: no session, a server per request (modern-http.ts).
  const modern = _modernFace(face, { maxResultBytes, auth, logger });
  /** Rate-limit buckets of 2026-07-28 clients, which have no session: one per principal. */
  const modernBucket = (principal: FacePrincipal | undefined) => `modern:${principal?.id ?? ''}`;

  /** Starts a session for an `initialize` request; the oldest session ends beyond `maxSessions`. */
  const newSession = async (principal: string | undefined): Promise<_Session> => {
    // Rate limits are taken here, per HTTP session, so that a refusal can be a 429.
    const server = face.createServer({ rateLimits: 'caller' });
    const eventStore = _faceEventStore();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      // A client whose stream dropped mid-call resumes it with Last-Event-ID, missing nothing.
      eventStore,
      retryInterval: RETRY_INTERVAL_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
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
    // First of the wrappers of `send`: the others (cap, listings, tracking) run before it.
    const direct = new _DirectAnswers(transport, eventStore, RETRY_INTERVAL_MS);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      direct.close();
    };
    const session: _Session = {
      transport,
      server,
      inFlight: new _InFlightIds(),
      revision: undefined,
      principal,
      listings: new Map(),
      direct,
    };
    _fallBackToStandaloneStream(transport);
    _capResults(transport, maxResultBytes);
    if (auth) _filterListings(transport, session, face, auth);
    await server.connect(transport);
    _trackRequests(session);
    return session;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (auth?.metadata && url.pathname === auth.metadata.path && request.method === 'GET') {
      // Public by design (RFC 9728): it tells a client where to get a token. Host still checked.
      const hostCheck = validateHostHeader(request.headers.host, allowed);
      if (!hostCheck.ok) return _jsonRpcError(response, 403, -32000, `Forbidden: ${hostCheck.message}`);
      response
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' })
        .end(JSON.stringify(auth.metadata.document));
      return;
    }
    if (url.pathname !== path) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`not found: the MCP endpoint is ${path}\n`);
      return;
    }
    // DNS-rebinding protection: a page elsewhere must not reach a local MCP server through a
    // name that resolves to us (Host), nor from any origin but the face's own and those listed
    // (Origin, compared exactly: another local port is another origin).
    const hostCheck = validateHostHeader(request.headers.host, allowed);
    const originCheck = _checkOrigin(request.headers.origin, origins);
    const refusal = !hostCheck.ok ? hostCheck.message : !originCheck.ok ? originCheck.message : undefined;
    if (refusal !== undefined) {
      logger.warn(
        { host: request.headers.host, origin: request.headers.origin },
        `refused an MCP request: ${refusal}`,
      );
      _jsonRpcError(response, 403, -32000, `Forbidden: ${refusal}`);
      return;
    }
    let principal: FacePrincipal | undefined;
    if (auth) {
      const verdict = await auth.authenticate(request.headers.authorization);
      if (!verdict.ok) return _refuseAuth(response, verdict.refusal, request, logger);
      principal = verdict.principal;
    }
    let body: unknown;
    let requestIds: _JsonRpcId[] = [];
    let batch: Parameters<typeof _batchRefusal>[0] | undefined;
    if (request.method === 'POST') {
      const read = await _readBody(request, maxBody);
      if (!read.ok) {
        _jsonRpcError(response, 413, -32600, read.message);
        return;
      }
      const parsed = _parseJsonRpcBody(read.bytes);
      if (!parsed.ok) return _refuse(response, parsed.refusal, logger);
      const checked = _checkJsonRpcBody(parsed.value, parsed.text);
      if (!checked.ok) return _refuse(response, checked.refusal, logger);
      body = parsed.value;
      batch = checked.body;
      requestIds = checked.body.messages.flatMap((m) =>
        'method' in m && m.id !== undefined ? [m.id as _JsonRpcId] : [],
      );
    }
    const sessionId = request.headers['mcp-session-id'];
    if (
      request.method === 'POST' &&
      sessionId === undefined &&
      !_isInitialize(body) &&
      (await _isModernRequest(request, body))
    ) {
      // MCP 2026-07-28: the same checks as a session's requests, then a server of its own.
      const messages = batch?.messages ?? [];
      if (auth && principal) {
        const denied = _toolRefusal(face, auth, principal, messages);
        if (denied) return _refuseAuth(response, denied, request, logger);
      }
      const mismatch = await _paramHeadersRefusal(face, messages, request);
      if (mismatch) return _refuse(response, mismatch, logger);
      const limited = await _takeRateLimits(face, modernBucket(principal), messages);
      if (limited) return _tooMany(response, limited, 'a 2026-07-28 client', logger);
      return modern.serve(request, response, body, principal);
    }
    let current: _Session | undefined;
    if (request.method === 'POST' && sessionId === undefined && _isInitialize(body)) {
      const initRefusal = batch && _batchRefusal(batch, undefined);
      if (initRefusal) return _refuse(response, initRefusal, logger);
      current = await newSession(principal?.id);
    } else if (typeof sessionId === 'string') {
      current = sessions.get(sessionId);
      // Another principal's session is not this caller's to use, nor to learn of.
      if (!current || current.principal !== principal?.id) {
        _jsonRpcError(response, 404, -32001, 'Session not found: initialize a new session');
        return;
      }
    } else {
      const message = Array.isArray(body)
        ? 'Bad Request: a batch needs an MCP session (send initialize first); MCP 2026-07-28 has no batches, send one request per POST'
        : 'Bad Request: no MCP session; send initialize first (MCP 2025-11-25), or give each request the 2026-07-28 _meta envelope (io.modelcontextprotocol/protocolVersion, …/clientCapabilities) and MCP-Protocol-Version header (MCP 2026-07-28)';
      _jsonRpcError(response, 400, -32000, message);
      return;
    }
    const batchRefusal = batch && _batchRefusal(batch, current.revision);
    if (batchRefusal) return _refuse(response, batchRefusal, logger);
    if (auth && principal) {
      const denied = _toolRefusal(face, auth, principal, batch?.messages ?? []);
      if (denied) return _refuseAuth(response, denied, request, logger);
      for (const message of batch?.messages ?? []) {
        if (message.method === 'tools/list' && message.id !== undefined)
          current.listings.set(_idKey(message.id as _JsonRpcId), principal);
      }
    }
    const limited = await _takeRateLimits(face, current.transport.sessionId ?? '', batch?.messages ?? []);
    if (limited) return _tooMany(response, limited, current.transport.sessionId, logger);
    if (requestIds.length > 0 && current.inFlight.size + requestIds.length > maxInFlight) {
      const message = `too many requests in flight in this session: ${current.inFlight.size} running, at most ${maxInFlight} (mcp_server.max_requests_in_flight); send more when some are answered`;
      logger.warn({ session: current.transport.sessionId }, `refused an MCP request: ${message}`);
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32600, message, data: { xp_code: 'RATE_LIMITED', retry_after: 1 } },
          id: requestIds[0] ?? null,
        }),
      );
      return;
    }
    const reserved = current.inFlight.reserve(requestIds);
    if (!reserved.ok) {
      return _refuse(
        response,
        {
          status: 400,
          code: -32600,
          message: `Invalid Request: the request id ${JSON.stringify(reserved.id)} is already in use by a request in flight in this session; use a new id`,
          id: reserved.id,
        },
        logger,
      );
    }
    try {
      const single = batch && !batch.batch ? batch.messages[0] : undefined;
      if (single && current.direct.takes(request, single, current.revision))
        current.direct.serve(single, response);
      else if (request.method === 'GET' && current.direct.resumes(request, current.revision))
        await current.direct.resume(request, response);
      else await current.transport.handleRequest(request, response, body);
    } finally {
      reserved.release();
    }
  };

  const http: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error({ error: (error as Error).message }, 'MCP HTTP request failed');
      if (!response.headersSent) _jsonRpcError(response, 500, -32603, 'Internal error');
      else response.end();
    });
  });
  // A kept-alive connection is closed by the client, never under it: the face waits longer than
  // clients keep idle connections (undici 4 s, browsers about 60 s). With Node's 5 s default, a
  // client reusing a connection just as the face timed it out (a busy event loop fires the idle
  // timer late) lost its request ("other side closed").
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  http.headersTimeout = KEEP_ALIVE_MS + 1000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port ?? DEFAULT_PORT, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  origins = _allowedOrigins(allowed, address.port, settings.allowedOrigins);
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
      await face.close();
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

/** A refusal of the face's authentication or authorization, with its `WWW-Authenticate`. */
function _refuseAuth(
  response: ServerResponse,
  refusal: FaceAuthRefusal & { id?: _JsonRpcId },
  request: IncomingMessage,
  logger: BridgeLogger,
): void {
  logger.warn(
    { remote: request.socket.remoteAddress, status: refusal.status },
    `refused an MCP request: ${refusal.message}`,
  );
  response
    .writeHead(refusal.status, {
      'content-type': 'application/json',
      'www-authenticate': refusal.wwwAuthenticate,
    })
    .end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `${refusal.status === 401 ? 'Unauthorized' : 'Forbidden'}: ${refusal.message}`,
        },
        id: refusal.id ?? null,
      }),
    );
}

/**
 * A principal sees in `tools/list` only the tools its token's scopes and grants let it call (the
 * static token sees every tool): the answer to each `tools/list` it asked is filtered on its way out.
 */
function _filterListings(
  transport: NodeStreamableHTTPServerTransport,
  session: _Session,
  face: McpFace,
  auth: FaceAuth,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const id = 'id' in message && 'result' in message ? (message.id as _JsonRpcId) : undefined;
    const principal = id === undefined ? undefined : session.listings.get(_idKey(id));
    if (id === undefined || principal === undefined) return send(message, options);
    session.listings.delete(_idKey(id));
    const result = (message as { result: { tools?: { name: string }[] } }).result;
    if (!Array.isArray(result.tools)) return send(message, options);
    const tools = result.tools.filter((tool) => {
      const capability = face.requiredCapability(tool.name);
      return capability === undefined || auth.authorize(principal, capability) === undefined;
    });
    return send({ ...message, result: { ...result, tools } } as never, options);
  };
}

/** The first `tools/call` of the body that the principal may not make (403 `insufficient_scope`). */
function _toolRefusal(
  face: McpFace,
  auth: FaceAuth,
  principal: FacePrincipal,
  messages: readonly Record<string, unknown>[],
): (FaceAuthRefusal & { id?: _JsonRpcId }) | undefined {
  for (const message of messages) {
    if (message.method !== 'tools/call') continue;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    const capability = typeof name === 'string' ? face.requiredCapability(name) : undefined;
    const refusal = capability === undefined ? undefined : auth.authorize(principal, capability);
    if (refusal) return { ...refusal, ...(message.id !== undefined && { id: message.id as _JsonRpcId }) };
  }
  return undefined;
}

function _isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

function _readBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; message: string }> {
  // Events rather than an async iterator: the iterator's machinery cost more than the read.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped (memory stays bounded): stopping the read would
    // leave the 413 unsent.
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    request.once('end', () => {
      if (size > maxBytes) resolve({ ok: false, message: `request body over ${maxBytes} bytes` });
      else resolve({ ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
    });
    request.once('error', reject);
    request.once('close', () => {
      if (!request.complete) reject(new Error('the client closed the connection before the body ended'));
    });
  });
}

/**
 * Follows a session's requests: an id is delivered when the transport hands it to the server and
 * done when the server answers it or the client cancels it; the `initialize` answer gives the
 * session's protocol revision.
 */
function _trackRequests(session: _Session): void {
  const { transport, inFlight } = session;
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as Record<string, unknown>;
    if (typeof m.method === 'string' && m.id !== undefined) inFlight.delivered(m.id as _JsonRpcId);
    if (m.method === 'notifications/cancelled') {
      const requestId = (m.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        inFlight.done(requestId);
        session.direct.cancelled(requestId);
      }
    }
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    const m = message as Record<string, unknown>;
    if (!('method' in m) && m.id !== undefined) {
      const version = (m.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (typeof version === 'string' && session.revision === undefined) session.revision = version;
      inFlight.done(m.id as _JsonRpcId);
    }
    return send(message, options);
  };
}

/** The first `tools/call` whose `Mcp-Param-*` headers disagree with its arguments (MCP 2026-07-28). */
async function _paramHeadersRefusal(
  face: McpFace,
  messages: readonly Record<string, unknown>[],
  request: IncomingMessage,
): Promise<_JsonRpcRefusal | undefined> {
  for (const message of messages) {
    if (message.method !== 'tools/call') continue;
    const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
    await face.ready();
    const tool = face.tools().find((t) => t.name === params.name);
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const refusal = tool && _paramHeaderRefusal(tool.inputSchema, args, request.headers);
    if (refusal !== undefined)
      return {
        status: 400,
        code: HEADER_MISMATCH,
        message: `Header mismatch: ${refusal}`,
        id: (message.id as _JsonRpcId | undefined) ?? null,
      };
  }
  return undefined;
}

/** Answers `429` for a rate-limited request, saying when to try again. */
function _tooMany(
  response: ServerResponse,
  limited: FaceRateLimited & { id: _JsonRpcId | null },
  session: string | undefined,
  logger: BridgeLogger,
): void {
  logger.warn({ session }, `refused an MCP request: ${limited.error.message}`);
  response
    .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(limited.retryAfterSeconds) })
    .end(JSON.stringify({ jsonrpc: '2.0', error: limited.error, id: limited.id }));
}

/** Takes a rate-limit token for each `tools/call` of the body; the first refusal, with its id. */
async function _takeRateLimits(
  face: McpFace,
  bucket: string,
  messages: readonly Record<string, unknown>[],
): Promise<(FaceRateLimited & { id: _JsonRpcId | null }) | undefined> {
  const calls = messages.filter((m) => m.method === 'tools/call' && m.id !== undefined);
  if (calls.length === 0) return undefined;
  await face.ready();
  for (const call of calls) {
    const name = (call.params as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') continue;
    const limited = face.takeRateLimit(bucket, name);
    if (limited) return { ...limited, id: call.id as _JsonRpcId };
  }
  return undefined;
}

function _refuse(response: ServerResponse, refusal: _JsonRpcRefusal, logger: BridgeLogger): void {
  logger.warn({ code: refusal.code }, `refused an MCP request: ${refusal.message}`);
  _jsonRpcError(response, refusal.status, refusal.code, refusal.message, refusal.id);
}

function _jsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: _JsonRpcId | null = null,
): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}
