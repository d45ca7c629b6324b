/**
 * The request pipeline of the Streamable HTTP face (docs/security.md, "The HTTP face"). Every
 * request runs the same checks in the same order — the OAuth metadata (public, Host still
 * checked), the path, Host and Origin, authentication, the body (size, UTF-8, JSON-RPC) — and then
 * the face decides per request (docs/architecture.md, "Two MCP revisions"): a POST without a
 * session that is not `initialize` and carries the 2026-07-28 claim gets a server of its own
 * (modern-http.ts) after the scope, `Mcp-Param-*`, rate-limit and in-flight checks; everything
 * else runs in its 2025-11-25 session (http-sessions.ts) after the batch, scope, rate-limit and
 * in-flight checks, answered directly (direct-answers.ts) or by the SDK transport. Rate limits and
 * the caps on sessions and requests in flight count per principal (http-limits.ts), whichever
 * leg or session a request comes on. On every path the request carries its principal to the
 * face's servers (request-principal.ts), whose listings and requests follow the same scopes.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateHostHeader } from '@modelcontextprotocol/server';
import type { FaceAuth, FacePrincipal } from '../auth/face-auth.js';
import type { McpFace } from '../face/mcp-face.js';
import { type _CapRefusal, _capMessage } from '../gateway/principal-caps.js';
import type { BridgeLogger } from '../logger.js';
import { _capsKey, type _HttpLimits, _principalKey } from './http-limits.js';
import { _jsonRpcError, _overCap, _refuse, _refuseAuth, _tooMany } from './http-refusals.js';
import type { _HttpSession, _HttpSessions } from './http-sessions.js';
import {
  _batchRefusal,
  _checkJsonRpcBody,
  type _JsonRpcBody,
  type _JsonRpcId,
  _parseJsonRpcBody,
} from './json-rpc-body.js';
import { _isModernRequest, type _ModernFace } from './modern-http.js';
import { _checkOrigin } from './origin.js';
import {
  _isInitialize,
  _paramHeadersRefusal,
  _readBody,
  _scopeRefusal,
  _takeRateLimits,
} from './request-checks.js';
import { _attachPrincipal, _authInfoOf } from './request-principal.js';
import type { McpFaceServeOptions } from './serve-options.js';

/** What every request of one HTTP face needs, resolved once when the face starts serving. */
export interface _HttpFace {
  face: McpFace;
  logger: BridgeLogger;
  /** The HTTP path of the MCP endpoint. */
  path: string;
  /** Largest request body accepted, in bytes. */
  maxBody: number;
  /** Hostnames a request may name in Host or Origin. */
  allowed: string[];
  /** The origins a browser request may come from; set once the port is bound (requests only arrive after that). */
  origins: Set<string>;
  auth: FaceAuth | undefined;
  /** Live sessions: one transport and one face server per MCP client. */
  sessions: _HttpSessions;
  /** The caps on sessions and requests in flight, per principal and in all. */
  limits: _HttpLimits;
  /** Told of each `401`/`403` refusal before a request is served (metrics), when given. */
  onRefused: McpFaceServeOptions['onHttpRefused'];
  /** 2026-07-28 requests: no session, a server per request (modern-http.ts). */
  modern: _ModernFace;
}

/** A request's body, read and held to JSON-RPC (empty unless it is a POST). */
interface _RequestBody {
  value: unknown;
  batch: _JsonRpcBody | undefined;
  /** The ids of the body's requests (not of its notifications or responses). */
  requestIds: _JsonRpcId[];
}

/**
 * Serves one request of the HTTP face: its checks in order, then the leg it belongs to. Each step
 * that refuses answers the request itself and stops the pipeline.
 */
export async function _handleHttpRequest(
  http: _HttpFace,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://placeholder');
  const metadata = http.auth?.metadata;
  if (metadata && url.pathname === metadata.path && request.method === 'GET')
    return _serveAuthMetadata(http, metadata.document, request, response);
  if (url.pathname !== http.path) return _notFound(response, http.path);
  if (!_hostAndOriginPass(http, request, response)) return;
  const caller = await _authenticate(http, request, response);
  if (!caller) return;
  if (caller.principal) _attachPrincipal(request, caller.principal);
  const body =
    request.method === 'POST'
      ? await _readJsonRpc(http, request, response)
      : { value: undefined, batch: undefined, requestIds: [] };
  if (!body) return;
  if (await _isModernLeg(request, body))
    return _serveModernRequest(http, request, response, body, caller.principal);
  const session = await _sessionOf(http, request, response, body, caller.principal);
  if (!session) return;
  // A refused `initialize` leaves no session behind (settle forgets one that got no id).
  if (!(await _sessionChecksPass(http, session, request, response, body, caller.principal)))
    return http.sessions.settle(session);
  return _runInSession(http, session, request, response, body);
}

/** The OAuth protected resource metadata (RFC 9728). */
function _serveAuthMetadata(
  http: _HttpFace,
  document: Record<string, unknown>,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  // Public by design (RFC 9728): it tells a client where to get a token. Host still checked.
  const hostCheck = validateHostHeader(request.headers.host, http.allowed);
  if (!hostCheck.ok) {
    http.onRefused?.({ status: 403, reason: 'host' });
    _jsonRpcError(response, 403, -32000, `Forbidden: ${hostCheck.message}`);
    return;
  }
  response
    .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' })
    .end(JSON.stringify(document));
}

/** Any path but the MCP endpoint's (and the metadata's). */
function _notFound(response: ServerResponse, path: string): void {
  response.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: the MCP endpoint is ${path}\n`);
}

/** Whether Host and Origin name the face; a `403` when not. */
function _hostAndOriginPass(http: _HttpFace, request: IncomingMessage, response: ServerResponse): boolean {
  // DNS-rebinding protection: a page elsewhere must not reach a local MCP server through a
  // name that resolves to us (Host), nor from any origin but the face's own and those listed
  // (Origin, compared exactly: another local port is another origin).
  const hostCheck = validateHostHeader(request.headers.host, http.allowed);
  const originCheck = _checkOrigin(request.headers.origin, http.origins);
  const refusal = !hostCheck.ok ? hostCheck.message : !originCheck.ok ? originCheck.message : undefined;
  if (refusal === undefined) return true;
  http.onRefused?.({ status: 403, reason: hostCheck.ok ? 'origin' : 'host' });
  http.logger.warn(
    { host: request.headers.host, origin: request.headers.origin },
    `refused an MCP request: ${refusal}`,
  );
  _jsonRpcError(response, 403, -32000, `Forbidden: ${refusal}`);
  return false;
}

/** Who is calling (no principal without auth); nothing, after a `401` or `403`, when refused. */
async function _authenticate(
  http: _HttpFace,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ principal: FacePrincipal | undefined } | undefined> {
  if (!http.auth) return { principal: undefined };
  const verdict = await http.auth.authenticate(request.headers.authorization);
  if (!verdict.ok) {
    http.onRefused?.({ status: verdict.refusal.status, reason: 'authentication' });
    _refuseAuth(response, verdict.refusal, request, http.logger);
    return undefined;
  }
  return { principal: verdict.principal };
}

/** A POST's body, read under the size limit (`413`) and held to JSON-RPC (`400`); nothing when refused. */
async function _readJsonRpc(
  http: _HttpFace,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<_RequestBody | undefined> {
  const read = await _readBody(request, http.maxBody);
  if (!read.ok) {
    _jsonRpcError(response, 413, -32600, read.message);
    return undefined;
  }
  const parsed = _parseJsonRpcBody(read.bytes);
  if (!parsed.ok) {
    _refuse(response, parsed.refusal, http.logger);
    return undefined;
  }
  const checked = _checkJsonRpcBody(parsed.value, parsed.text);
  if (!checked.ok) {
    _refuse(response, checked.refusal, http.logger);
    return undefined;
  }
  return {
    value: parsed.value,
    batch: checked.body,
    requestIds: checked.body.messages.flatMap((m) =>
      'method' in m && m.id !== undefined ? [m.id as _JsonRpcId] : [],
    ),
  };
}

/** A POST without a session that is not `initialize` and is a 2026-07-28 request. */
async function _isModernLeg(request: IncomingMessage, body: _RequestBody): Promise<boolean> {
  return (
    request.method === 'POST' &&
    request.headers['mcp-session-id'] === undefined &&
    !_isInitialize(body.value) &&
    (await _isModernRequest(request, body.value))
  );
}

/** MCP 2026-07-28: the same checks as a session's requests, then a server of its own. */
async function _serveModernRequest(
  http: _HttpFace,
  request: IncomingMessage,
  response: ServerResponse,
  body: _RequestBody,
  principal: FacePrincipal | undefined,
): Promise<void> {
  const { face, auth, logger } = http;
  const messages = body.batch?.messages ?? [];
  if (auth && principal) {
    const denied = await _scopeRefusal(face, auth, principal, messages);
    if (denied) {
      http.onRefused?.({ status: denied.status, reason: 'scope' });
      return _refuseAuth(response, denied, request, logger);
    }
  }
  const mismatch = await _paramHeadersRefusal(face, messages, request);
  if (mismatch) return _refuse(response, mismatch, logger);
  const limited = await _takeRateLimits(face, _principalKey(principal), messages);
  if (limited) return _tooMany(response, limited, 'a 2026-07-28 client', logger);
  if (!_takeModernInFlight(http, response, body, principal)) return;
  return http.modern.serve(request, response, body.value);
}

/**
 * Counts a 2026-07-28 request in flight until its answer ends: against its principal's
 * 2026-07-28 requests (held to the cap of one session) and the principal's and the face's
 * requests in flight. Over a cap, the `429` or `503` is answered and false returned.
 */
function _takeModernInFlight(
  http: _HttpFace,
  response: ServerResponse,
  body: _RequestBody,
  principal: FacePrincipal | undefined,
): boolean {
  const count = body.requestIds.length;
  if (count === 0) return true;
  const { modernInFlight, inFlight } = http.limits;
  const key = _principalKey(principal);
  const share = _capsKey(principal);
  const id = body.requestIds[0] ?? null;
  const asOneSession = modernInFlight.take(key, count);
  if (asOneSession) {
    const message = `too many 2026-07-28 requests in flight for this principal: ${asOneSession.held} running, at most ${asOneSession.limit} (mcp_server.max_requests_in_flight); send more when some are answered`;
    _overCap(response, { scope: 'session', message, retryAfter: 1 }, id, undefined, http.logger);
    return false;
  }
  const shared = inFlight.take(share, count);
  if (shared) {
    modernInFlight.give(key, count);
    _overCap(response, _inFlightRefusal(shared), id, undefined, http.logger);
    return false;
  }
  response.once('close', () => {
    modernInFlight.give(key, count);
    inFlight.give(share, count);
  });
  return true;
}

/** A refusal of the caps on requests in flight per principal and in all. */
function _inFlightRefusal(refusal: _CapRefusal): {
  scope: 'principal' | 'total';
  message: string;
  retryAfter: number;
} {
  const message = _capMessage(
    refusal,
    'requests in flight',
    {
      perPrincipal: 'mcp_server.max_requests_in_flight_per_principal',
      total: 'mcp_server.max_requests_in_flight_total',
    },
    'send more when some are answered',
  );
  return { scope: refusal.scope, message, retryAfter: 1 };
}

/**
 * The session a request runs in: a new one for `initialize`, else the one its `Mcp-Session-Id`
 * names when the caller's principal opened it (`404` otherwise); without either, `400`.
 */
async function _sessionOf(
  http: _HttpFace,
  request: IncomingMessage,
  response: ServerResponse,
  body: _RequestBody,
  principal: FacePrincipal | undefined,
): Promise<_HttpSession | undefined> {
  const sessionId = request.headers['mcp-session-id'];
  if (request.method === 'POST' && sessionId === undefined && _isInitialize(body.value)) {
    const initRefusal = body.batch && _batchRefusal(body.batch, undefined);
    if (initRefusal) {
      _refuse(response, initRefusal, http.logger);
      return undefined;
    }
    const opened = await http.sessions.open(principal);
    if (!opened.ok) {
      _overCap(response, _sessionRefusal(opened.refusal), body.requestIds[0] ?? null, undefined, http.logger);
      return undefined;
    }
    return opened.session;
  }
  if (typeof sessionId === 'string') {
    const current = http.sessions.get(sessionId);
    // Another principal's session is not this caller's to use, nor to learn of.
    if (!current || current.principal !== principal?.id) {
      _jsonRpcError(response, 404, -32001, 'Session not found: initialize a new session');
      return undefined;
    }
    return current;
  }
  const message = Array.isArray(body.value)
    ? 'Bad Request: a batch needs an MCP session (send initialize first); MCP 2026-07-28 has no batches, send one request per POST'
    : 'Bad Request: no MCP session; send initialize first (MCP 2025-11-25), or give each request the 2026-07-28 _meta envelope (io.modelcontextprotocol/protocolVersion, …/clientCapabilities) and MCP-Protocol-Version header (MCP 2026-07-28)';
  _jsonRpcError(response, 400, -32000, message);
  return undefined;
}

/**
 * The checks of a session's request, in order: batches on the session's revision, the
 * principal's scopes, rate limits, requests in flight.
 */
async function _sessionChecksPass(
  http: _HttpFace,
  session: _HttpSession,
  request: IncomingMessage,
  response: ServerResponse,
  body: _RequestBody,
  principal: FacePrincipal | undefined,
): Promise<boolean> {
  const { face, auth, logger } = http;
  const messages = body.batch?.messages ?? [];
  const batchRefusal = body.batch && _batchRefusal(body.batch, session.revision);
  if (batchRefusal) {
    _refuse(response, batchRefusal, logger);
    return false;
  }
  if (auth && principal) {
    const denied = await _scopeRefusal(face, auth, principal, messages);
    if (denied) {
      http.onRefused?.({ status: denied.status, reason: 'scope' });
      _refuseAuth(response, denied, request, logger);
      return false;
    }
  }
  const limited = await _takeRateLimits(face, _principalKey(principal), messages);
  if (limited) {
    _tooMany(response, limited, session.transport.sessionId, logger);
    return false;
  }
  return true;
}

/** A refusal of a new session: the principal's share is full of busy sessions (`429`), or the face's (`503`). */
function _sessionRefusal(refusal: _CapRefusal): {
  scope: 'principal' | 'total';
  message: string;
  retryAfter: number;
} {
  const advice =
    refusal.scope === 'principal'
      ? 'each of them has a request in flight; end one (DELETE with its Mcp-Session-Id) or retry in 5 s'
      : "this principal has no session without a request in flight to end, and another principal's session is never ended for it; retry in 5 s";
  const message = _capMessage(
    refusal,
    'MCP sessions',
    { perPrincipal: 'mcp_server.max_sessions_per_principal', total: 'mcp_server.max_sessions' },
    advice,
  );
  return { scope: refusal.scope, message, retryAfter: 5 };
}

/**
 * Reserves the body's request ids for this POST — `429` past the session's requests in flight,
 * `429`/`503` past the principal's or the face's (checked and taken at once, so a burst cannot
 * pass them), `400` for an id already in flight — then hands the request to the session: a
 * `tools/call` answered directly, a direct stream resumed, or the SDK transport. Ids the
 * transport never delivered are freed when the POST ends; a session whose `initialize` got no id
 * is forgotten then.
 */
async function _runInSession(
  http: _HttpFace,
  session: _HttpSession,
  request: IncomingMessage,
  response: ServerResponse,
  body: _RequestBody,
): Promise<void> {
  const { logger } = http;
  const sessionId = session.transport.sessionId;
  const { requestIds } = body;
  const running = session.inFlight.size;
  const max = http.limits.maxInFlight;
  if (requestIds.length > 0 && running + requestIds.length > max) {
    const message = `too many requests in flight in this session: ${running} running, at most ${max} (mcp_server.max_requests_in_flight); send more when some are answered`;
    _overCap(
      response,
      { scope: 'session', message, retryAfter: 1 },
      requestIds[0] ?? null,
      sessionId,
      logger,
    );
    return http.sessions.settle(session);
  }
  const reserved = session.inFlight.reserve(requestIds);
  if (!reserved.ok) {
    if ('refusal' in reserved)
      _overCap(response, _inFlightRefusal(reserved.refusal), reserved.id, sessionId, logger);
    else
      _refuse(
        response,
        {
          status: 400,
          code: -32600,
          message: `Invalid Request: the request id ${JSON.stringify(reserved.id)} is already in use by a request in flight in this session; use a new id`,
          id: reserved.id,
        },
        logger,
      );
    return http.sessions.settle(session);
  }
  if (request.method === 'GET') http.sessions.streaming(session, response);
  try {
    const single = body.batch && !body.batch.batch ? body.batch.messages[0] : undefined;
    if (single && session.direct.takes(request, single, session.revision))
      session.direct.serve(single, response, _authInfoOf(request), _traceparentOf(request));
    else if (request.method === 'GET' && session.direct.resumes(request, session.revision))
      await session.direct.resume(request, response);
    else await session.transport.handleRequest(request, response, body.value);
  } finally {
    reserved.release();
    http.sessions.settle(session);
  }
}

/** The request's `traceparent` header when it has exactly one (the face's span may join its trace). */
function _traceparentOf(request: IncomingMessage): string | undefined {
  const trace = request.headers.traceparent;
  return typeof trace === 'string' ? trace : undefined;
}
