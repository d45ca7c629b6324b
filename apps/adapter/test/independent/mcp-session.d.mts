// The types of mcp-session.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Reads the plaintext of an `mcp` tag as an endpoint does at step 10 of §4: the context, or a
 * refusal naming the field.
 *
 * @param {string} text
 */
export function readMcpContext(text: string): Record<string, unknown>;
/**
 * The `mcp` tag of a request: the context encrypted under the request's conversation key with a
 * nonce of its own (never the content's: the same key and nonce would reuse the keystream).
 *
 * @param {Record<string, unknown>} context @param {Buffer} key
 * @returns {string[]}
 */
export function mcpTag(context: Record<string, unknown>, key: Buffer): string[];
/**
 * A call made for an MCP client: sealed with its `mcp` tag, then every event the endpoint sends
 * naming it is read in order: `xp.mcp.notification`s are collected, `xp.mcp.server_request`s are
 * answered with `answerServerRequest` (sealed back as `xp.mcp.server_request.result`, naming the
 * server request in `e`), until the result or an `xp.error`.
 *
 * @param {import('./strict-client.mjs').StrictClient} client
 * @param {{ ed25519: string, x25519: string }} endpoint
 * @param {{ kind: string, payload: unknown, context: Record<string, unknown>,
 *   answerServerRequest?: (request: { session: string, method: string, params?: unknown }) => unknown }} call
 * @param {number} [timeoutMs]
 */
export function sessionCall(
  client: import('./strict-client.mjs').StrictClient,
  endpoint: {
    ed25519: string;
    x25519: string;
  },
  call: {
    kind: string;
    payload: unknown;
    context: Record<string, unknown>;
    answerServerRequest?: (request: { session: string; method: string; params?: unknown }) => unknown;
  },
  timeoutMs?: number,
): Promise<{
  request: import('./event.mjs').XpEvent;
  answer: import('./event.mjs').XpEvent;
  payload: unknown;
  notifications: {
    method: string;
    params?: Record<string, unknown>;
  }[];
  serverRequests: {
    method: string;
    params?: Record<string, unknown>;
  }[];
}>;
/**
 * Ends a session at the endpoint (`xp.mcp.session.end`, payload `{session}`): the caller's client
 * went away. Not answered.
 *
 * @param {import('./strict-client.mjs').StrictClient} client
 * @param {{ ed25519: string, x25519: string }} endpoint @param {string} session
 */
export function endSession(
  client: import('./strict-client.mjs').StrictClient,
  endpoint: {
    ed25519: string;
    x25519: string;
  },
  session: string,
): Promise<{
  type: 'OK';
  id: string;
  accepted: boolean;
  reason: string;
}>;
/** A context a reader refuses, naming the field at fault (`input.state`, `colour`, …). */
export class McpTagRefused extends RuleError {
  field: string;
}
export function newSessionId(): string;

import { RuleError } from './canonical-json.mjs';
