/**
 * JSON-RPC strictness of the HTTP MCP face (docs/security.md, "The HTTP face"): what a POST body
 * must be before any of it reaches a session. The codes are JSON-RPC 2.0's own:
 *
 * - `-32700` Parse error: the body is not UTF-8 (a decoder that replaces bad bytes would pass
 *   altered text upstream) or not JSON;
 * - `-32600` Invalid Request: JSON, but not a message — an empty batch `[]`, a value that is not a
 *   request, notification or response object, an id that is neither a string nor an integer, a
 *   string holding a lone surrogate (`"\ud800"`: valid JSON, but not Unicode text, which no
 *   upstream can encode as UTF-8), a batch on a protocol revision without batches (2025-06-18 and
 *   later) or a batch holding `initialize`.
 * @module
 */

/** A JSON-RPC id as MCP allows it: a string or an integer. */
export type _JsonRpcId = string | number;

/** A refusal: the HTTP status, the JSON-RPC error and the id it answers (`null` when unknown). */
export interface _JsonRpcRefusal {
  status: number;
  code: -32700 | -32600 | -32020;
  message: string;
  id: _JsonRpcId | null;
}

/** A body that passed: its messages, and whether it was a batch. */
export interface _JsonRpcBody {
  messages: Record<string, unknown>[];
  batch: boolean;
}

/** The first protocol revision without JSON-RPC batches. */
export const _FIRST_REVISION_WITHOUT_BATCHES = '2025-06-18';

const _utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const _LONE_SURROGATE = /\p{Cs}/u;
/**
 * A `\uD800`–`\uDFFF` escape: in text decoded as strict UTF-8, the only way JSON can spell a
 * surrogate. A body without one needs no walk for lone surrogates.
 */
const _SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Decodes a body as strict UTF-8 JSON; `-32700` when it is not. */
export function _parseJsonRpcBody(
  bytes: Uint8Array,
): { ok: true; value: unknown; text: string } | { ok: false; refusal: _JsonRpcRefusal } {
  let text: string;
  try {
    text = _utf8.decode(bytes);
  } catch {
    return {
      ok: false,
      refusal: {
        status: 400,
        code: -32700,
        message: `Parse error: the body is not valid UTF-8 (an invalid byte sequence at byte ${_firstInvalidUtf8(bytes)}); JSON-RPC messages are UTF-8 JSON text`,
        id: null,
      },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch (error) {
    return {
      ok: false,
      refusal: { status: 400, code: -32700, message: `Parse error: ${(error as Error).message}`, id: null },
    };
  }
}

/**
 * Checks the shape of a parsed body: one message or a non-empty batch of them, each a request,
 * notification or response object with well-formed Unicode strings. `-32600` otherwise. `text`,
 * the strict UTF-8 text `value` was parsed from, spares the walk for lone surrogates when it has
 * no surrogate escape.
 */
export function _checkJsonRpcBody(
  value: unknown,
  text?: string,
): { ok: true; body: _JsonRpcBody } | { ok: false; refusal: _JsonRpcRefusal } {
  const surrogates = text === undefined || _SURROGATE_ESCAPE.test(text);
  const batch = Array.isArray(value);
  const messages = batch ? (value as unknown[]) : [value];
  if (batch && messages.length === 0) {
    return _invalid(
      'an empty batch ([]) holds no message; send a request, a notification or a response',
      null,
    );
  }
  for (const [index, message] of messages.entries()) {
    const where = batch ? `message ${index} of the batch: ` : '';
    const problem = _messageProblem(message);
    const id = _idOf(message);
    if (problem !== undefined) return _invalid(`${where}${problem}`, id);
    const surrogate = surrogates ? _loneSurrogateAt(message) : undefined;
    if (surrogate !== undefined) {
      return _invalid(
        `${where}the string at ${surrogate.pointer} holds a lone surrogate (\\u${surrogate.unit}), which is not Unicode text`,
        id,
      );
    }
  }
  if (batch) {
    const seen = new Set<string>();
    for (const message of messages as Record<string, unknown>[]) {
      if (!('method' in message) || message.id === undefined) continue;
      const key = _idKey(message.id as _JsonRpcId);
      if (seen.has(key)) {
        return _invalid(
          `the batch uses the request id ${JSON.stringify(message.id)} twice`,
          message.id as _JsonRpcId,
        );
      }
      seen.add(key);
    }
  }
  return { ok: true, body: { messages: messages as Record<string, unknown>[], batch } };
}

/**
 * Whether a batch may be sent on a session of `revision` (undefined before `initialize` was
 * answered): never with `initialize` in it, never on 2025-06-18 and later.
 */
export function _batchRefusal(body: _JsonRpcBody, revision: string | undefined): _JsonRpcRefusal | undefined {
  if (!body.batch) return undefined;
  if (body.messages.some((m) => m.method === 'initialize')) {
    return _invalid('initialize must not be part of a batch', null).refusal;
  }
  if (revision !== undefined && revision >= _FIRST_REVISION_WITHOUT_BATCHES) {
    return _invalid(
      `this session speaks protocol revision ${revision}, which has no JSON-RPC batches (removed in ${_FIRST_REVISION_WITHOUT_BATCHES}); send each message in its own request`,
      null,
    ).refusal;
  }
  return undefined;
}

/** The key of an id in maps: `1` and `"1"` are different ids. */
export function _idKey(id: _JsonRpcId): string {
  return `${typeof id}:${id}`;
}

function _invalid(reason: string, id: _JsonRpcId | null): { ok: false; refusal: _JsonRpcRefusal } {
  return { ok: false, refusal: { status: 400, code: -32600, message: `Invalid Request: ${reason}`, id } };
}

function _isId(id: unknown): id is _JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function _idOf(message: unknown): _JsonRpcId | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
  const id = (message as { id?: unknown }).id;
  return _isId(id) ? id : null;
}

function _kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function _messageProblem(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    return `expected a JSON-RPC message object, got ${_kindOf(message)}`;
  }
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return `expected "jsonrpc": "2.0", got ${JSON.stringify(m.jsonrpc) ?? 'none'}`;
  if ('id' in m && !_isId(m.id)) {
    return `expected the id to be a string or an integer, got ${JSON.stringify(m.id)}`;
  }
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method === '') {
      return `expected the method to be a non-empty string, got ${JSON.stringify(m.method)}`;
    }
    if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) {
      return `expected params to be an object, got ${_kindOf(m.params)}`;
    }
    if ('result' in m || 'error' in m) return 'a message has either a method or a result/error, not both';
    return undefined;
  }
  if (!('id' in m)) {
    return 'expected a request (method and id), a notification (method) or a response (id with result or error)';
  }
  if ('result' in m === 'error' in m) return 'a response has exactly one of result and error';
  if ('error' in m) {
    const error = m.error as { code?: unknown; message?: unknown } | null;
    if (
      error === null ||
      typeof error !== 'object' ||
      !Number.isInteger(error.code) ||
      typeof error.message !== 'string'
    ) {
      return 'expected error to be an object with an integer code and a string message';
    }
  }
  return undefined;
}

/**
 * The JSON pointer of the first string (key or value) holding a lone surrogate, and the code
 * unit. Iterative: the body may be nested far deeper than the stack (the argument limits come
 * later).
 */
function _loneSurrogateAt(root: unknown): { pointer: string; unit: string } | undefined {
  const stack: { value: unknown; pointer: string }[] = [{ value: root, pointer: '' }];
  const found = (text: string, pointer: string) => {
    const unit = _LONE_SURROGATE.exec(text)?.[0];
    if (unit === undefined) return undefined;
    // The message must not carry the bad code unit itself: it is written as an escape.
    const shown = (pointer || '/').replace(/\p{Cs}/gu, (u) => `\\u${u.charCodeAt(0).toString(16)}`);
    return { pointer: shown, unit: unit.charCodeAt(0).toString(16) };
  };
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (typeof value === 'string') {
      const hit = found(value, pointer);
      if (hit) return hit;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], pointer: `${pointer}/${i}` });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const escaped = key.replace(/~/g, '~0').replace(/\//g, '~1');
        const hit = found(key, `${pointer}/${escaped}`);
        if (hit) return hit;
        stack.push({ value: child, pointer: `${pointer}/${escaped}` });
      }
    }
  }
  return undefined;
}

/** Offset of the first byte that starts no valid UTF-8 sequence (for the message). */
function _firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    try {
      _utf8.decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return i;
}
