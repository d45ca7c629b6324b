/**
 * The principal of an HTTP request as the face's servers see it: carried as the SDK's
 * pass-through auth info (`req.auth`, then `ctx.http.authInfo` in each handler) on both legs and
 * on the direct path, and read back by the per-request "may use" predicate the face filters its
 * listings and `search_tools` with and checks its requests by. The face itself knows nothing of
 * tokens; the principal's scopes and grants are judged here, by the face's `FaceAuth`.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FaceAuth, FacePrincipal } from '../auth/face-auth.js';
import type { FaceMayUse } from '../face/request-scopes.js';

/** Attaches `principal` to `request`, where the SDK's transports read a request's auth info. */
export function _attachPrincipal(request: IncomingMessage, principal: FacePrincipal): void {
  // The client's token is never passed on: the principal is all a handler needs.
  const auth: AuthInfo = { token: '', clientId: principal.id, scopes: [], extra: { principal } };
  Object.assign(request, { auth });
}

/** The auth info attached to `request`, for a message handed to a server without the SDK transport. */
export function _authInfoOf(request: IncomingMessage): AuthInfo | undefined {
  return (request as { auth?: AuthInfo }).auth;
}

/**
 * What the client of each request may use under `auth`: what its principal's scopes and grants
 * allow; nothing for a request that carries no principal.
 */
export function _mayUse(auth: FaceAuth): FaceMayUse {
  return (capability, ctx) => {
    const principal = ctx.http?.authInfo?.extra?.principal as FacePrincipal | undefined;
    return principal !== undefined && auth.authorize(principal, capability) === undefined;
  };
}
