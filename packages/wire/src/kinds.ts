/**
 * The reserved `xp.` kinds (docs/protocol.md §10, "Reserved kinds"): the protocol's own messages.
 * No tool or prompt kind may start with `xp.`; `xp.mcp.*` is reserved as a whole for MCP traffic
 * without a tool shape (resources, progress, logging, sampling, elicitation).
 * @module
 */

/** The signed, public announce of an endpoint. */
export const ANNOUNCE_KIND = 'xp.endpoint.announce';
/** A catalog request (public answers, paged). */
export const CATALOG_KIND = 'xp.schema.catalog';
/** A catalog page. */
export const CATALOG_RESULT_KIND = 'xp.schema.catalog.result';
/** A tool search request. */
export const DESCRIBE_KIND = 'xp.schema.describe';
/** A tool search answer. */
export const DESCRIBE_RESULT_KIND = 'xp.schema.describe.result';
/** A notice that an endpoint's catalog changed. */
export const REFRESH_KIND = 'xp.schema.refresh';
/** An error answer; its payload is an {@link XpErrorPayload}. */
export const ERROR_KIND = 'xp.error';
/** A key delegation. */
export const DELEGATE_KIND = 'xp.key.delegate';
/** A key revocation. */
export const REVOKE_KIND = 'xp.key.revoke';
/** A key rotation: an old key names its successor (docs/protocol.md §11.8). */
export const ROTATE_KIND = 'xp.key.rotate';
/** An MCP request without a tool shape (resources, prompts, completion); docs/protocol.md §10.4. */
export const MCP_REQUEST_KIND = 'xp.mcp.request';
/** The answer to an {@link MCP_REQUEST_KIND}: the MCP result as the upstream returned it. */
export const MCP_REQUEST_RESULT_KIND = 'xp.mcp.request.result';
/**
 * A notification of an MCP session across XProtocol (docs/protocol.md §10.5): the server's
 * progress, log messages, resource updates and list changes to the caller, the caller's
 * cancellations to the endpoint. Never answered.
 */
export const MCP_NOTIFICATION_KIND = 'xp.mcp.notification';
/** A request of the MCP server to the caller's client (sampling, elicitation, roots); §10.5. */
export const MCP_SERVER_REQUEST_KIND = 'xp.mcp.server_request';
/** The caller's answer to an {@link MCP_SERVER_REQUEST_KIND}: the client's MCP result. */
export const MCP_SERVER_REQUEST_RESULT_KIND = 'xp.mcp.server_request.result';
/** The caller's MCP session ended: the endpoint closes what it kept for it. Never answered. */
export const MCP_SESSION_END_KIND = 'xp.mcp.session.end';
/** The prefix of the kinds reserved for MCP traffic without a tool shape. */
export const MCP_KIND_PREFIX = 'xp.mcp.';

/** Every reserved kind by name; `xp.mcp.*` is reserved as a whole ({@link MCP_KIND_PREFIX}). */
export const RESERVED_KINDS: readonly string[] = Object.freeze([
  ANNOUNCE_KIND,
  CATALOG_KIND,
  CATALOG_RESULT_KIND,
  DESCRIBE_KIND,
  DESCRIBE_RESULT_KIND,
  REFRESH_KIND,
  ERROR_KIND,
  DELEGATE_KIND,
  REVOKE_KIND,
  ROTATE_KIND,
  MCP_REQUEST_KIND,
  MCP_REQUEST_RESULT_KIND,
  MCP_NOTIFICATION_KIND,
  MCP_SERVER_REQUEST_KIND,
  MCP_SERVER_REQUEST_RESULT_KIND,
  MCP_SESSION_END_KIND,
]);

/** True when `kind` lies in the reserved `xp` namespace (its first segment is `xp`). */
export function isReservedKind(kind: string): boolean {
  return kind === 'xp' || kind.startsWith('xp.');
}

/**
 * True for a kind that answers or announces and is never a request: `xp.error`, any `….result`,
 * the announce. An endpoint never answers such an event (no loops between two endpoints).
 */
export function isAnswerKind(kind: string): boolean {
  return kind === ERROR_KIND || kind.endsWith('.result') || kind === ANNOUNCE_KIND;
}

/**
 * True for a kind an endpoint never answers, not even with `xp.error`: the answer kinds of
 * {@link isAnswerKind}, and the one-way messages of an MCP session across XProtocol
 * (notifications, server requests to the caller, session end).
 */
export function isUnansweredKind(kind: string): boolean {
  return (
    isAnswerKind(kind) ||
    kind === MCP_NOTIFICATION_KIND ||
    kind === MCP_SERVER_REQUEST_KIND ||
    kind === MCP_SESSION_END_KIND
  );
}
