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
/** An MCP request without a tool shape (resources, prompts, completion); docs/protocol.md §10.4. */
export const MCP_REQUEST_KIND = 'xp.mcp.request';
/** The answer to an {@link MCP_REQUEST_KIND}: the MCP result as the upstream returned it. */
export const MCP_REQUEST_RESULT_KIND = 'xp.mcp.request.result';
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
  MCP_REQUEST_KIND,
  MCP_REQUEST_RESULT_KIND,
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
