/**
 * How the HTTP face answers a request it refuses: a JSON-RPC error in a JSON body with the HTTP
 * status of the refusal (docs/security.md, "The HTTP face"), `WWW-Authenticate` on an
 * authentication or scope refusal, `Retry-After` on a rate limit or a cap. Each refusal is logged,
 * never with the client's credentials.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaceAuthRefusal } from '../auth/face-auth.js';
import type { FaceRateLimited } from '../face/rate-limit.js';
import type { BridgeLogger } from '../logger.js';
import type { _JsonRpcId, _JsonRpcRefusal } from './json-rpc-body.js';

/** Answers `status` with the JSON-RPC error `code`/`message` for request `id`. */
export function _jsonRpcError(
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

/** Logs and answers a refusal of the body's JSON-RPC checks (or of its `Mcp-Param-*` headers). */
export function _refuse(response: ServerResponse, refusal: _JsonRpcRefusal, logger: BridgeLogger): void {
  logger.warn({ code: refusal.code }, `refused an MCP request: ${refusal.message}`);
  _jsonRpcError(response, refusal.status, refusal.code, refusal.message, refusal.id);
}

/** A refusal of the face's authentication or authorization, with its `WWW-Authenticate`. */
export function _refuseAuth(
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

/** Answers `429` for a rate-limited request, saying when to try again. */
export function _tooMany(
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

/**
 * Answers a request refused by one of the face's caps (docs/security.md, "Fair shares between
 * principals"): `429` when the cap is the caller's own (its session's, its principal's), `503`
 * when it is the face's ceiling for every principal; `Retry-After` and a JSON-RPC error answering
 * `id` (the POST's first request) that says which cap, what is held and what to do.
 */
export function _overCap(
  response: ServerResponse,
  refusal: { scope: 'session' | 'principal' | 'total'; message: string; retryAfter: number },
  id: _JsonRpcId | null,
  session: string | undefined,
  logger: BridgeLogger,
): void {
  logger.warn({ session, scope: refusal.scope }, `refused an MCP request: ${refusal.message}`);
  response
    .writeHead(refusal.scope === 'total' ? 503 : 429, {
      'content-type': 'application/json',
      'retry-after': String(refusal.retryAfter),
    })
    .end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: refusal.message,
          data: { xp_code: 'RATE_LIMITED', retry_after: refusal.retryAfter },
        },
        id,
      }),
    );
}
