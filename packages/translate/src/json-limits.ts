/**
 * Limits on a parsed JSON value received from a peer (tool-call arguments on the MCP face, an
 * XProtocol payload after decryption), checked before anything walks it recursively: validators,
 * serializers and upstream transports all recurse, and arguments nested 100,000 levels deep
 * overflow the stack of any of them (docs/security.md, "Argument limits"). The check itself is
 * iterative, so it cannot overflow, and it measures the whole value: the error says how deep it
 * was and what the limit is.
 * @module
 */
import { utf8Length } from '@xprotocol/crypto';

/** Limits on one JSON value. */
export interface JsonLimits {
  /** Deepest nesting of objects and arrays; `{}` is 1, `{"a":[]}` is 2, a scalar is 0. */
  readonly maxDepth: number;
  /** Largest size of its JSON text (`JSON.stringify`), in UTF-8 bytes; `Infinity` skips the measure. */
  readonly maxBytes: number;
}

/**
 * Defaults for call arguments: depth 64 (the deepest input schema among the 672 tools of the
 * recorded MCP servers nests 11 levels), 4 MiB (an XProtocol event holds at most about 2.9 MiB of
 * plaintext).
 */
export const DEFAULT_ARGUMENT_LIMITS: JsonLimits = Object.freeze({ maxDepth: 64, maxBytes: 4 * 1024 * 1024 });

/** The outcome of {@link checkJsonLimits}; a refusal names the limit, its value and what was found. */
export type JsonLimitCheck =
  | { ok: true; depth: number; bytes: number }
  | { ok: false; limit: 'depth' | 'bytes'; max: number; found: number; message: string };

/**
 * Checks `value` against `limits` without recursion. `what` names the value in the message
 * (default "the arguments").
 * @example
 * checkJsonLimits({ a: { b: {} } }, { maxDepth: 2, maxBytes: 1024 });
 * // { ok: false, limit: 'depth', max: 2, found: 3, message: 'the arguments: 3 levels of nesting; the limit is 2' }
 */
export function checkJsonLimits(value: unknown, limits: JsonLimits, what = 'the arguments'): JsonLimitCheck {
  const depth = _depth(value, limits.maxBytes);
  if (depth === undefined) {
    return {
      ok: false,
      limit: 'bytes',
      max: limits.maxBytes,
      found: Number.NaN,
      message: `${what}: more than ${limits.maxBytes} objects and arrays (or a cycle); the limit is ${limits.maxBytes} bytes`,
    };
  }
  if (depth > limits.maxDepth) {
    return {
      ok: false,
      limit: 'depth',
      max: limits.maxDepth,
      found: depth,
      message: `${what}: ${depth} levels of nesting; the limit is ${limits.maxDepth}`,
    };
  }
  if (limits.maxBytes === Number.POSITIVE_INFINITY) return { ok: true, depth, bytes: Number.NaN };
  // Depth is bounded now, so serializing cannot overflow the stack.
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return {
      ok: false,
      limit: 'bytes',
      max: limits.maxBytes,
      found: Number.NaN,
      message: `${what} cannot be written as JSON: ${(error as Error).message}`,
    };
  }
  const bytes = text === undefined ? 0 : utf8Length(text);
  if (bytes > limits.maxBytes) {
    return {
      ok: false,
      limit: 'bytes',
      max: limits.maxBytes,
      found: bytes,
      message: `${what}: ${bytes} bytes of JSON; the limit is ${limits.maxBytes}`,
    };
  }
  return { ok: true, depth, bytes };
}

/**
 * Deepest nesting of objects and arrays, with an explicit stack; `undefined` past `maxNodes`
 * containers (every container takes at least 2 bytes of JSON, so a value within the size limit
 * never gets there, and a cyclic value stops).
 */
function _depth(root: unknown, maxNodes: number): number | undefined {
  let deepest = 0;
  let nodes = 0;
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    if (++nodes > maxNodes) return undefined;
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth > deepest) deepest = depth;
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
