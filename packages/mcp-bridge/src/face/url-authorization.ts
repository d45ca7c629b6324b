/**
 * The face client as the one who can approve an upstream's new authorization in the middle of a
 * call (docs/security.md, "OAuth to upstream servers"): a call from a client that declared
 * URL-mode elicitation (MCP 2025-11-25 `elicitation.url`) carries an {@link AuthorizationAsker}
 * that sends it `elicitation/create` with `mode: "url"` and the authorization URL. A 2026-07-28
 * request, or a client without the capability, carries one that says it cannot.
 * @module
 */
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { _modernRequest } from '../gateway/modern-request.js';
import { type AuthorizationAsker, withAuthorizationAsker } from '../upstream/authorization-asker.js';
import type { LocalToolSource } from './face-options.js';

/** The asker of a call that came in on `server` as the request `ctx`. */
export function _faceAsker(server: Server, ctx: ServerContext): AuthorizationAsker {
  const url = server.getClientCapabilities()?.elicitation?.url;
  // A 2026-07-28 request cannot be sent a server request (it would be an input-required result).
  const canShowUrl = url !== undefined && url !== null && _modernRequest(ctx) === undefined;
  return {
    canShowUrl,
    who: 'the MCP client of the face',
    ask: async ({ url: target, message, id }) => {
      const result = await ctx.mcpReq.elicitInput({ mode: 'url', message, url: target, elicitationId: id });
      return result.action;
    },
  };
}

/**
 * Gives each local source that waits for an authorization (it serves no tools until a person
 * approves a new grant) the chance to ask the client of this `tools/list`, when that client can
 * open a URL. True when one of them lists its tools now; a failure leaves it as it was.
 */
export async function _authorizeWaiting(
  sources: readonly LocalToolSource[],
  server: Server,
  ctx: ServerContext,
): Promise<boolean> {
  const waiting = sources.filter((s) => s.authorize && s.unreachable?.() !== undefined);
  if (waiting.length === 0) return false;
  const asker = _faceAsker(server, ctx);
  if (!asker.canShowUrl) return false;
  let listed = false;
  for (const source of waiting)
    if (
      await withAuthorizationAsker(asker, async () => (await source.authorize?.()) ?? false).catch(
        () => false,
      )
    )
      listed = true;
  return listed;
}
