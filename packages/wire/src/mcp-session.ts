/**
 * An MCP session across XProtocol (docs/protocol.md §10.5): what lets a wrapped MCP server talk
 * back to the client whose request it is running — progress, log messages, resource updates,
 * sampling, elicitation — when client and server are joined by a relay.
 *
 * A request (a tool call or an `xp.mcp.request`) made for an MCP client carries the `mcp` tag: the
 * {@link McpSessionContext} as JSON, encrypted like the content under the conversation key of the
 * two parties. The endpoint keeps one MCP session with each server per (caller key, `session`), so
 * what a server sends on it belongs to that client alone. Everything the two sides send each other
 * outside requests and answers is an {@link McpSessionMessage}.
 * @module
 */

/** The name of the tag that carries the encrypted {@link McpSessionContext}. */
export const MCP_SESSION_TAG = 'mcp';

/** The longest `clientInfo.name` / `version` accepted, in UTF-8 bytes. */
const MAX_INFO_LENGTH = 256;
/**
 * The largest capabilities object accepted: UTF-8 bytes of its RFC 8785 JSON (docs/protocol.md
 * §10.5). Member order does not change that length, so `JSON.stringify` measures it too.
 */
export const MAX_MCP_CAPABILITIES_BYTES = 8192;
/** The longest `input.state` accepted (a server's opaque request state), in UTF-8 bytes. */
export const MAX_MCP_STATE_BYTES = 65536;

const _utf8 = new TextEncoder();

/** The length of `text` in UTF-8 bytes. */
function _utf8Length(text: string): number {
  return _utf8.encode(text).length;
}

/** A session id: 16 to 64 of `[A-Za-z0-9_-]` (the caller draws 128 random bits). */
const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** What the caller says about its MCP client, in the `mcp` tag of each request made for it. */
export interface McpSessionContext {
  /** The caller's id of this MCP client's session (random; one per client session). */
  session: string;
  /**
   * The client capabilities the server may use (`sampling`, `elicitation`, `roots`), as the client
   * declared them; the endpoint declares exactly these to the server.
   */
  capabilities: Record<string, unknown>;
  /** The client's `clientInfo`, passed to the server in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** True when the client asked for progress on this request (it gave a progress token). */
  progress?: boolean;
  /**
   * The client speaks MCP 2026-07-28 (docs/protocol.md §10.5, "Both MCP revisions"): it takes an
   * input-required result as this request's answer, and a retry carries its answers
   * (`responses`, the request's `inputResponses`) and the server's `state` (its `requestState`).
   */
  input?: McpSessionInput;
}

/** What a 2026-07-28 client's request says about input-required results (see {@link McpSessionContext.input}). */
export interface McpSessionInput {
  responses?: Record<string, unknown>;
  state?: string;
}

/** The payload of `xp.mcp.notification` and `xp.mcp.server_request`: an MCP message of one session. */
export interface McpSessionMessage {
  session: string;
  /** The MCP method, e.g. `notifications/progress`, `sampling/createMessage`. */
  method: string;
  params?: Record<string, unknown>;
}

/** The payload of `xp.mcp.session.end`. */
export interface McpSessionEnd {
  session: string;
}

/** A parse verdict. */
export type McpSessionParse<T> = { ok: true; value: T } | { ok: false; reason: string };

/** True when `value` is a well-formed session id. */
export function isMcpSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

/** Checks an {@link McpSessionContext} (decrypted from the `mcp` tag); unknown fields are refused. */
export function parseMcpSessionContext(value: unknown): McpSessionParse<McpSessionContext> {
  const object = _object(value, '{session, capabilities, clientInfo?, progress?, input?}');
  if (!object.ok) return object;
  const { session, capabilities, clientInfo, progress, input, ...rest } = object.value;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return { ok: false, reason: `unexpected field ${JSON.stringify(extra)}` };
  if (!isMcpSessionId(session)) {
    return { ok: false, reason: `session: expected 16 to 64 of [A-Za-z0-9_-], got ${_show(session)}` };
  }
  const caps = _object(capabilities, 'an object');
  if (!caps.ok) return { ok: false, reason: `capabilities: ${caps.reason}` };
  const capsBytes = _utf8Length(JSON.stringify(caps.value));
  if (capsBytes > MAX_MCP_CAPABILITIES_BYTES) {
    return {
      ok: false,
      reason: `capabilities: expected at most ${MAX_MCP_CAPABILITIES_BYTES} bytes of JSON (UTF-8), got ${capsBytes}`,
    };
  }
  const context: McpSessionContext = { session, capabilities: caps.value };
  if (clientInfo !== undefined) {
    const info = _object(clientInfo, '{name, version}');
    const { name, version } = info.ok ? info.value : {};
    if (!_shortText(name) || !_shortText(version)) {
      return {
        ok: false,
        reason: `clientInfo: expected {name, version} strings of at most ${MAX_INFO_LENGTH} bytes (UTF-8)`,
      };
    }
    context.clientInfo = { name: name as string, version: version as string };
  }
  if (progress !== undefined) {
    if (typeof progress !== 'boolean')
      return { ok: false, reason: `progress: expected a boolean, got ${_show(progress)}` };
    if (progress) context.progress = true;
  }
  if (input !== undefined) {
    const parsed = _input(input);
    if (!parsed.ok) return parsed;
    context.input = parsed.value;
  }
  return { ok: true, value: context };
}

/** Checks the `input` of a context: `{responses?: object, state?: string}` and nothing else. */
function _input(value: unknown): McpSessionParse<McpSessionInput> {
  const object = _object(value, '{responses?, state?}');
  if (!object.ok) return { ok: false, reason: `input: ${object.reason}` };
  const { responses, state, ...rest } = object.value;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return { ok: false, reason: `input: unexpected field ${JSON.stringify(extra)}` };
  const input: McpSessionInput = {};
  if (responses !== undefined) {
    const r = _object(responses, 'an object');
    if (!r.ok) return { ok: false, reason: `input.responses: ${r.reason}` };
    input.responses = r.value;
  }
  if (state !== undefined) {
    if (typeof state !== 'string')
      return { ok: false, reason: `input.state: expected a string, got ${_show(state)}` };
    const stateBytes = _utf8Length(state);
    if (stateBytes > MAX_MCP_STATE_BYTES)
      return {
        ok: false,
        reason: `input.state: expected at most ${MAX_MCP_STATE_BYTES} bytes (UTF-8), got ${stateBytes}`,
      };
    input.state = state;
  }
  return { ok: true, value: input };
}

/** Checks an {@link McpSessionMessage}: `{session, method, params?}` and nothing else. */
export function parseMcpSessionMessage(value: unknown): McpSessionParse<McpSessionMessage> {
  const object = _object(value, '{session, method, params?}');
  if (!object.ok) return object;
  const { session, method, params, ...rest } = object.value;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return { ok: false, reason: `unexpected field ${JSON.stringify(extra)}` };
  if (!isMcpSessionId(session)) {
    return { ok: false, reason: `session: expected 16 to 64 of [A-Za-z0-9_-], got ${_show(session)}` };
  }
  if (typeof method !== 'string' || !/^[A-Za-z0-9_/.-]{1,128}$/.test(method)) {
    return { ok: false, reason: `method: expected an MCP method name, got ${_show(method)}` };
  }
  if (params === undefined) return { ok: true, value: { session, method } };
  const p = _object(params, 'an object');
  if (!p.ok) return { ok: false, reason: `params: ${p.reason}` };
  return { ok: true, value: { session, method, params: p.value } };
}

/** Checks an {@link McpSessionEnd}. */
export function parseMcpSessionEnd(value: unknown): McpSessionParse<McpSessionEnd> {
  const object = _object(value, '{session}');
  if (!object.ok) return object;
  const { session, ...rest } = object.value;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return { ok: false, reason: `unexpected field ${JSON.stringify(extra)}` };
  if (!isMcpSessionId(session)) {
    return { ok: false, reason: `session: expected 16 to 64 of [A-Za-z0-9_-], got ${_show(session)}` };
  }
  return { ok: true, value: { session } };
}

function _object(value: unknown, expected: string): McpSessionParse<Record<string, unknown>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `expected ${expected}, got ${_show(value)}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function _shortText(value: unknown): boolean {
  return typeof value === 'string' && _utf8Length(value) <= MAX_INFO_LENGTH;
}

function _show(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}
