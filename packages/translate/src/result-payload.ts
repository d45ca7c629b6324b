/**
 * Tool results as response payloads (docs/design.md §2): the response to a call is
 * the MCP `CallToolResult` as the server returned it — `content`, `structuredContent`, `isError`
 * (and `_meta`). Direction 1 turns an upstream result into the payload; Direction 2 turns a
 * payload back into the result the MCP client receives. Fields MCP does not define are dropped,
 * so what crosses the wire is exactly what the contract's response schema describes.
 * @module
 */
import { _cloneJson, _preview } from './_json-util.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { checkJsonSafety } from './schema-safety.js';

/** An MCP `CallToolResult`, as JSON. */
export interface CallToolResultPayload {
  content: JsonObject[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
}

/**
 * Reads a `CallToolResult` (from an upstream server, or from a response payload) into the
 * response payload form, or says what is wrong with it. `content` is required (MCP 2025-11-25) and
 * each block needs a string `type`; values must be plain JSON (no lone surrogates, no unsafe
 * integers: events refuse them).
 * @example
 * toResponsePayload({ content: [{ type: 'text', text: 'hi' }], extra: 1 });
 * // { ok: true, payload: { content: [{ type: 'text', text: 'hi' }] } }
 */
export function toResponsePayload(
  result: unknown,
): { ok: true; payload: CallToolResultPayload } | { ok: false; reason: string } {
  if (!isJsonObject(result))
    return { ok: false, reason: `expected a CallToolResult object, got ${_preview(result)}` };
  const safe = checkJsonSafety(result, 64);
  if (!safe.ok) return { ok: false, reason: `${safe.pointer}: ${safe.reason}` };
  const content = result.content as JsonValue | undefined;
  if (!Array.isArray(content))
    return { ok: false, reason: `content: expected an array of content blocks, got ${_preview(content)}` };
  for (const [i, block] of content.entries()) {
    if (!isJsonObject(block) || typeof block.type !== 'string') {
      return {
        ok: false,
        reason: `content[${i}]: expected a content block with a string "type", got ${_preview(block)}`,
      };
    }
  }
  const payload: CallToolResultPayload = { content: _cloneJson(content as JsonObject[]) };
  if (result.structuredContent !== undefined) {
    if (!isJsonObject(result.structuredContent))
      return {
        ok: false,
        reason: `structuredContent: expected an object, got ${_preview(result.structuredContent)}`,
      };
    payload.structuredContent = _cloneJson(result.structuredContent);
  }
  if (result.isError !== undefined) {
    if (typeof result.isError !== 'boolean')
      return { ok: false, reason: `isError: expected a boolean, got ${_preview(result.isError)}` };
    payload.isError = result.isError;
  }
  if (result._meta !== undefined) {
    if (!isJsonObject(result._meta))
      return { ok: false, reason: `_meta: expected an object, got ${_preview(result._meta)}` };
    payload._meta = _cloneJson(result._meta);
  }
  return { ok: true, payload };
}
