/**
 * What the SDK lifts off a 2026-07-28 request before its handler runs (docs/architecture.md, "Two
 * MCP revisions"): the `_meta` envelope (revision, client capabilities and info, log level), and
 * on a retry the client's `inputResponses` and the `requestState` it echoes. Read here once, for
 * the gateway, the leases and the sessions across XProtocol.
 * @module
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** A 2026-07-28 request, as its handler context carries it. */
export interface _ModernRequest {
  /** The `_meta` envelope as the client sent it. */
  envelope: Record<string, unknown>;
  /** The client capabilities the request declares. */
  capabilities: ClientCapabilities;
  clientInfo: { name: string; version: string } | undefined;
  /** A retry's answers to input requests. */
  responses: Record<string, unknown> | undefined;
  /** A retry's `requestState`, as the client echoed it (unverified). */
  state: string | undefined;
}

/** The 2026-07-28 material of the request `ctx`; `undefined` for a 2025-11-25 request (no envelope). */
export function _modernRequest(ctx: ServerContext): _ModernRequest | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope === undefined) return undefined;
  // Without a verify hook on the face's servers, the accessor gives the raw string.
  const state: unknown = ctx.mcpReq.requestState();
  return {
    envelope,
    capabilities: (envelope[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities,
    clientInfo: envelope[CLIENT_INFO_META_KEY] as { name: string; version: string } | undefined,
    responses: ctx.mcpReq.inputResponses,
    state: typeof state === 'string' ? state : undefined,
  };
}
