/** The first step of every frame parser: JSON text → a non-empty array whose head is a string. */
export type _FrameHead = { ok: true; type: string; rest: unknown[] } | { ok: false; reason: string };

/** Parses `text` as JSON and splits off the message type. Never throws. */
export function _frameHead(text: string, expected: readonly string[]): _FrameHead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalid: message is not valid JSON' };
  }
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
