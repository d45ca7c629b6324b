/**
 * proto-mcp framing on a byte stream (docs/architecture.md, "proto-mcp on the stdio face"): each message is a 4-byte big-endian
 * length, then that many bytes. Kept apart from the session so that the session never sees a
 * partial message, and the reader never holds more than one capped frame.
 * @module
 */

/** Frames longer than this are refused unread (the first byte of every length is then 0x00). */
export const PROTO_MCP_MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** `bytes` with its 4-byte big-endian length in front. */
export function _frame(bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4 + bytes.length);
  out.writeUInt32BE(bytes.length, 0);
  out.set(bytes, 4);
  return out;
}

/** What the reader found in the stream: a whole frame, or one it skipped for its length. */
export type _FrameEvent = { frame: Uint8Array } | { oversized: number };

/**
 * Cuts a stream of chunks into frames. A frame longer than `maxBytes` is reported once and its
 * bytes are skipped as they arrive, never buffered, so one client cannot grow the process.
 */
export class _FrameReader {
  #pending: Buffer = Buffer.alloc(0);
  #skip = 0;

  constructor(readonly maxBytes: number = PROTO_MCP_MAX_FRAME_BYTES) {}

  /** The frames (and refusals) that `chunk` completes, in order. */
  push(chunk: Buffer): _FrameEvent[] {
    const events: _FrameEvent[] = [];
    let data = chunk;
    if (this.#skip > 0) {
      const dropped = Math.min(this.#skip, data.length);
      this.#skip -= dropped;
      data = data.subarray(dropped);
    }
    this.#pending = this.#pending.length === 0 ? data : Buffer.concat([this.#pending, data]);
    while (this.#pending.length >= 4) {
      const length = this.#pending.readUInt32BE(0);
      if (length > this.maxBytes) {
        events.push({ oversized: length });
        const available = this.#pending.length - 4;
        this.#skip = Math.max(0, length - available);
        this.#pending = this.#pending.subarray(4 + Math.min(length, available));
        continue;
      }
      if (this.#pending.length < 4 + length) break;
      events.push({ frame: new Uint8Array(this.#pending.subarray(4, 4 + length)) });
      this.#pending = this.#pending.subarray(4 + length);
    }
    return events;
  }
}
