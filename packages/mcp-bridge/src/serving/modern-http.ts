/**
 * The HTTP face's 2026-07-28 leg: MCP revision 2026-07-28 is stateless (no `initialize`, no
 * session; each request carries its revision, client capabilities and client info in
 * `params._meta`), so each such request is served by a server of its own, made by the face for
 * that one request (the SDK's `createMcpHandler`, which also answers `server/discover`, checks the
 * `_meta` envelope and the `Mcp-Method`/`Mcp-Name` headers against the body, serves
 * `subscriptions/listen` and adds the cache hints). 2025-11-25 requests never come here: the face
 * keeps a session per `initialize` for them (http-sessions.ts). See docs/architecture.md,
 * "Two MCP revisions".
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type NodeIncomingMessageLike, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import type { FaceAuth, FacePrincipal } from '../auth/face-auth.js';
import type { McpFace } from '../face/mcp-face.js';
import type { BridgeLogger } from '../logger.js';
import { _capsKey } from './http-limits.js';
import { _mayUse } from './request-principal.js';
import { _capResults } from './result-cap.js';

/** The 2026-07-28 leg of one HTTP face. */
export interface _ModernFace {
  /**
   * Serves one 2026-07-28 request (its body already read and held to JSON-RPC; its principal, if
   * any, attached by request-principal.ts).
   */
  serve(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
}

/**
 * True when `body` (already parsed) is a 2026-07-28 request: it carries that revision's `_meta`
 * claim, or its `MCP-Protocol-Version` header (the SDK's own classification).
 */
export async function _isModernRequest(request: IncomingMessage, body: unknown): Promise<boolean> {
  if (Array.isArray(body)) return false;
  return !(await isLegacyRequest(await toWebRequest(_nodeLike(request), body), body));
}

/**
 * The 2026-07-28 leg of the face: a server per request; results over `maxResultBytes` refused;
 * with `auth`, each principal lists and uses only what its scopes and grants allow (as in a 2025
 * session).
 */
export function _modernFace(
  face: McpFace,
  options: { maxResultBytes: number; auth: FaceAuth | undefined; logger: BridgeLogger },
): _ModernFace {
  const { maxResultBytes, auth, logger } = options;
  const mayUse = auth && _mayUse(auth);
  const handler = createMcpHandler(
    ({ authInfo }) => {
      // The principal (attached by request-principal.ts) holds its share of leases and processes.
      const principal = authInfo?.extra?.principal as FacePrincipal | undefined;
      const server = face.createServer({
        era: 'modern',
        rateLimits: 'caller',
        mayUse,
        principal: _capsKey(principal),
      });
      return _capped(server, maxResultBytes);
    },
    {
      legacy: 'reject',
      onerror: (error) => logger.debug({ error: error.message }, 'MCP 2026-07-28 request refused or failed'),
    },
  );
  const node = toNodeHandler(handler, {
    onerror: (error) => logger.error({ error: error.message }, 'MCP 2026-07-28 request failed'),
  });
  // 2026-07-28 clients learn of changed lists on their `subscriptions/listen` streams.
  face.onListChanged((list) => {
    if (list === 'tools') handler.notify.toolsChanged();
    else if (list === 'prompts') handler.notify.promptsChanged();
    else handler.notify.resourcesChanged();
  });
  return {
    // The principal rides as the SDK's pass-through auth info, to each handler's context.
    serve: (request, response, body) => node(_nodeLike(request), response, body),
  };
}

/** A Node request as the SDK's adapter types it (an incoming server request always has a method). */
function _nodeLike(request: IncomingMessage): NodeIncomingMessageLike {
  return request as NodeIncomingMessageLike;
}

/** `server` with every result it sends held to `maxBytes` (the same cap as the 2025 sessions). */
function _capped(server: Server, maxBytes: number): Server {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    _capResults(transport, maxBytes);
    return connect(transport);
  };
  return server;
}
