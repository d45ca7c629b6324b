/**
 * MCP sessions across XProtocol from the caller's side, written from docs/protocol.md §10.5 alone:
 * the `mcp` tag and its context, and a call that receives the session's notifications and answers
 * the server's requests before its result. It imports nothing from this repository: it is one part
 * of an independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { canonicalJson, parseStrictJson, RuleError } from './canonical-json.mjs';
import { tagsNamed } from './event.mjs';
import { encryptPayload } from './payload.mjs';
import { openEvent, sealEvent } from './sealed-event.mjs';
import { nowSeconds } from './strict-client.mjs';
import { conversationKey } from './x25519.mjs';

/** Bounds of the context, in bytes of UTF-8 (§10.5, "The mcp tag"). */
const MAX_CAPABILITIES_BYTES = 8_192;
const MAX_CLIENT_INFO_BYTES = 256;
const MAX_STATE_BYTES = 65_536;
const SESSION = /^[A-Za-z0-9_-]{16,64}$/;
const FIELDS = new Set(['session', 'capabilities', 'clientInfo', 'progress', 'input']);

/** A context a reader refuses, naming the field at fault (`input.state`, `colour`, …). */
export class McpTagRefused extends RuleError {
  /** @param {string} field @param {string} message */
  constructor(field, message) {
    super('§10.5', `mcp tag: ${field}: ${message}`);
    this.field = field;
  }
}

/** @param {unknown} v */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** @param {string} s */
const utf8Bytes = (s) => Buffer.byteLength(s, 'utf8');

/**
 * Reads the plaintext of an `mcp` tag as an endpoint does at step 10 of §4: the context, or a
 * refusal naming the field.
 *
 * @param {string} text
 */
export function readMcpContext(text) {
  let value;
  try {
    value = parseStrictJson(text);
  } catch (error) {
    throw new McpTagRefused('(text)', `not JSON: ${/** @type {Error} */ (error).message}`);
  }
  if (!isObject(value)) throw new McpTagRefused('(text)', 'expected a JSON object');
  const context = /** @type {Record<string, unknown>} */ (value);
  for (const field of Object.keys(context))
    if (!FIELDS.has(field)) throw new McpTagRefused(field, 'unknown field');
  if (typeof context.session !== 'string' || !SESSION.test(context.session))
    throw new McpTagRefused('session', 'expected 16 to 64 of [A-Za-z0-9_-]');
  if (!isObject(context.capabilities)) throw new McpTagRefused('capabilities', 'expected an object');
  if (utf8Bytes(canonicalJson(context.capabilities)) > MAX_CAPABILITIES_BYTES)
    throw new McpTagRefused('capabilities', `over ${MAX_CAPABILITIES_BYTES} bytes of canonical JSON`);
  if ('clientInfo' in context) {
    const info = context.clientInfo;
    const ok = (/** @type {unknown} */ s) => typeof s === 'string' && utf8Bytes(s) <= MAX_CLIENT_INFO_BYTES;
    if (!isObject(info) || !ok(/** @type {any} */ (info).name) || !ok(/** @type {any} */ (info).version))
      throw new McpTagRefused(
        'clientInfo',
        `expected {name, version} of at most ${MAX_CLIENT_INFO_BYTES} bytes each`,
      );
  }
  if ('progress' in context && typeof context.progress !== 'boolean')
    throw new McpTagRefused('progress', 'expected a boolean');
  if ('input' in context) {
    const input = context.input;
    if (!isObject(input)) throw new McpTagRefused('input', 'expected an object');
    const members = /** @type {Record<string, unknown>} */ (input);
    for (const field of Object.keys(members))
      if (field !== 'responses' && field !== 'state')
        throw new McpTagRefused('input', `unknown field ${field}`);
    if ('responses' in members && !isObject(members.responses))
      throw new McpTagRefused('input.responses', 'expected an object');
    if (
      'state' in members &&
      (typeof members.state !== 'string' || utf8Bytes(members.state) > MAX_STATE_BYTES)
    )
      throw new McpTagRefused('input.state', `expected a string of at most ${MAX_STATE_BYTES} bytes`);
  }
  return context;
}

/**
 * The `mcp` tag of a request: the context encrypted under the request's conversation key with a
 * nonce of its own (never the content's: the same key and nonce would reuse the keystream).
 *
 * @param {Record<string, unknown>} context @param {Buffer} key
 * @returns {string[]}
 */
export function mcpTag(context, key) {
  readMcpContext(JSON.stringify(context));
  return ['mcp', encryptPayload(key, canonicalJson(context), randomBytes(32))];
}

/** A new session id: 128 random bits as 32 hex digits. */
export const newSessionId = () => randomBytes(16).toString('hex');

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
export async function sessionCall(client, endpoint, call, timeoutMs = 30_000) {
  const me = client.identity;
  const key = conversationKey(me.x25519.privateKey, endpoint.x25519, me.ed25519.publicKey, endpoint.ed25519);
  const now = nowSeconds();
  const request = sealEvent(me, endpoint, {
    kind: call.kind,
    created_at: now,
    payload: call.payload,
    expiration: now + 300,
    extraTags: [mcpTag(call.context, key)],
  });
  const subId = `session-${request.id.slice(0, 16)}`;
  await client.subscribe(subId, [{ '#e': [request.id], authors: [endpoint.ed25519] }]);
  /** @type {{ method: string, params?: Record<string, unknown> }[]} */
  const notifications = [];
  /** @type {{ method: string, params?: Record<string, unknown> }[]} */
  const serverRequests = [];
  const seen = new Set();
  try {
    const ok = await client.publish(request);
    if (!ok.accepted) throw new Error(`the relay refused the request: ${ok.reason}`);
    for (;;) {
      const event = await client.nextEvent(
        subId,
        (e) => !seen.has(e.id) && tagsNamed(e, 'e').some((t) => t[1] === request.id),
        timeoutMs,
      );
      seen.add(event.id);
      /** @type {unknown} */
      const opened = parseStrictJson(openEvent(event, me).plaintext);
      const payload = /** @type {{ session?: unknown, method: string, params?: Record<string, unknown> }} */ (
        opened
      );
      if (event.kind === 'xp.mcp.notification') {
        if (payload.session !== call.context.session) continue; // not this session's: dropped
        notifications.push({ method: payload.method, params: payload.params });
      } else if (event.kind === 'xp.mcp.server_request') {
        if (payload.session !== call.context.session) continue;
        serverRequests.push({ method: payload.method, params: payload.params });
        if (!call.answerServerRequest) throw new Error(`unexpected server request ${payload.method}`);
        const at = nowSeconds();
        const answer = sealEvent(me, endpoint, {
          kind: 'xp.mcp.server_request.result',
          created_at: at,
          payload: call.answerServerRequest(payload),
          replyTo: event.id,
          expiration: at + 300,
        });
        const sent = await client.publish(answer);
        if (!sent.accepted) throw new Error(`the relay refused the answer: ${sent.reason}`);
      } else {
        return { request, answer: event, payload: opened, notifications, serverRequests };
      }
    }
  } finally {
    client.unsubscribe(subId);
  }
}

/**
 * Ends a session at the endpoint (`xp.mcp.session.end`, payload `{session}`): the caller's client
 * went away. Not answered.
 *
 * @param {import('./strict-client.mjs').StrictClient} client
 * @param {{ ed25519: string, x25519: string }} endpoint @param {string} session
 */
export async function endSession(client, endpoint, session) {
  const now = nowSeconds();
  const end = sealEvent(client.identity, endpoint, {
    kind: 'xp.mcp.session.end',
    created_at: now,
    payload: { session },
    expiration: now + 60,
  });
  return client.publish(end);
}
