/**
 * The first step of every frame parser: JSON text (read as docs/protocol.md §2.2 says: no duplicate
 * member names, at most 512 levels) → a non-empty array whose head is a string.
 * @module
 */
import { parseJsonText } from './json-text.js';

/** A frame's type and the rest of its elements, or why it was refused. */
export type _FrameHead = { ok: true; type: string; rest: unknown[] } | { ok: false; reason: string };

/** Parses `text` as JSON and splits off the message type. Never throws. */
export function _frameHead(text: string, expected: readonly string[]): _FrameHead {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, reason: `invalid: message is ${_notJson(parsed.reason)}` };
  const value = parsed.value;
  if (!Array.isArray(value) || typeof value[0] !== 'string') {
    return {
      ok: false,
      reason: `invalid: expected a JSON array whose first element is ${_list(expected)}`,
    };
  }
  const [type, ...rest] = value as [string, ...unknown[]];
  return { ok: true, type, rest };
}

/** `"A", "B" or "C"`. */
export function _list(values: readonly string[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  return quoted.length < 2 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** The refusal for a type outside `expected`. */
export function _unknownType(type: string, expected: readonly string[]): { ok: false; reason: string } {
  return {
    ok: false,
    reason: `invalid: unknown message type ${JSON.stringify(type)}; expected ${_list(expected)}`,
  };
}

/** `not valid JSON`, or the I-JSON rule the text breaks. */
function _notJson(reason: string): string {
  return reason === 'not valid JSON' ? reason : `not I-JSON: ${reason}`;
}
