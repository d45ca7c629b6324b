/**
 * Reading a response body from the network with a cap enforced while streaming
 * (docs/security.md, "Limits and errors at a glance"): whoever sends the body — an authorization
 * server, a remote endpoint — must not be able to make this process hold more than the cap. A
 * declared `Content-Length` over the cap is refused before a byte is read; otherwise the chunks
 * are counted as they arrive and the read stops, destroying (a Node stream) or cancelling (a
 * WHATWG stream) the body, as soon as their total passes the cap. A body of exactly the cap is read.
 * @module
 */
import { BridgeError } from '../errors.js';

/**
 * A body as it arrives: a Node `IncomingMessage` (or any `Readable`), a WHATWG `ReadableStream`
 * (`Response.body`) — both async iterables of byte chunks in Node 20 — or any such iterable.
 */
export type BodyChunks = AsyncIterable<Uint8Array>;

/** Options of {@link readCappedBody}. */
export interface CappedBodyOptions {
  /** The most bytes read; a body that passes it is refused and the read stops there. */
  maxBytes: number;
  /** What is read, the subject of the errors: `the document`, `the JWKS at <url>`. */
  what: string;
  /** The length the response declared (its `Content-Length`), if any. */
  declaredLength?: string | number | null | undefined;
}

/**
 * Reads `body` whole, at most `options.maxBytes` of it. Rejects with `RESPONSE_TOO_LARGE`, after
 * destroying or cancelling `body`, when the declared length is over the cap ("`<what>` declares
 * N bytes; at most M are read", nothing read) or when the bytes read pass it ("`<what>` is over M
 * bytes; stopped reading at S", S the bytes read when the read stopped). Errors of the stream
 * itself (a reset, an abort) are passed on as they are.
 */
export async function readCappedBody(body: BodyChunks, options: CappedBodyOptions): Promise<Buffer> {
  const { maxBytes, what } = options;
  const declared = _declaredLength(options.declaredLength);
  if (declared !== undefined && declared > maxBytes) {
    await _stop(body);
    throw new BridgeError(
      'RESPONSE_TOO_LARGE',
      `${what} declares ${declared} bytes; at most ${maxBytes} are read`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  // Leaving the loop early returns the iterator, which destroys a Node stream or cancels a WHATWG one.
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      over = true;
      break;
    }
    chunks.push(chunk);
  }
  if (over) {
    await _stop(body);
    throw new BridgeError(
      'RESPONSE_TOO_LARGE',
      `${what} is over ${maxBytes} bytes; stopped reading at ${size}`,
    );
  }
  return Buffer.concat(chunks, size);
}

/** A declared length as a number of bytes, or `undefined` when none (or none that reads as one) was given. */
function _declaredLength(value: CappedBodyOptions['declaredLength']): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** Ends the transfer of `body`: `destroy()` for a Node stream, `cancel()` for an unlocked WHATWG stream. */
async function _stop(body: BodyChunks): Promise<void> {
  const stream = body as { destroy?: () => unknown; cancel?: () => Promise<unknown>; locked?: boolean };
  if (typeof stream.destroy === 'function') stream.destroy();
  else if (typeof stream.cancel === 'function' && stream.locked !== true)
    await stream.cancel().catch(() => {});
}
