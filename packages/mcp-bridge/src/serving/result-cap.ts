/**
 * The largest answer the MCP face sends one client (docs/security.md, "Limits and errors at a
 * glance"): a result whose JSON is over the cap is replaced, on its way out, by a JSON-RPC error
 * that says how big it was and what the limit is, so one huge upstream result cannot swamp a
 * client or the face's per-session memory of what it sent.
 * @module
 */
import type { Transport } from '@modelcontextprotocol/server';

/** The default cap, in bytes of JSON: as large as one line an upstream stdio server may write. */
export const DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024;

/**
 * The JSON text of messages measured here, so the writer of the answer (direct-answers.ts)
 * and the event store serialize a result once, not again.
 */
const _texts = new WeakMap<object, string>();

/** The JSON text of `message`: the one the cap measured, or a new one. */
export function _serializedMessage(message: object): string {
  let text = _texts.get(message);
  if (text === undefined) {
    text = JSON.stringify(message);
    _texts.set(message, text);
  }
  return text;
}

/** Wraps `transport.send` so that a result over `maxBytes` goes out as an error instead. */
export function _capResults(transport: Transport, maxBytes: number): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!('result' in message) || !('id' in message)) return send(message, options);
    const size = Buffer.byteLength(_serializedMessage(message), 'utf8');
    if (size <= maxBytes) return send(message, options);
    return send(
      {
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32603,
          message: `the result is ${size} bytes of JSON, over the face's limit of ${maxBytes} bytes (mcp_server.max_result_bytes)`,
          data: { xp_code: 'TOO_LARGE', size, limit: maxBytes },
        },
      } as never,
      options,
    );
  };
}
