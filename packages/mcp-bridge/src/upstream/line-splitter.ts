/**
 * Splits a byte stream into `\n`-terminated lines with a cap on one line, so a writer that never
 * ends its line cannot grow our memory past the cap (plus one chunk). A line is joined once, when
 * its newline arrives: no copy per chunk. A line over the cap is not kept but skipped to its
 * newline, and its JSON-RPC envelope read on the way ({@link _EnvelopeScanner}), so that only the
 * request it answers fails; a line still without a newline after a second, larger cap means the
 * writer does not write lines at all.
 * @module
 */
import { type _Envelope, _EnvelopeScanner } from './jsonrpc-envelope.js';

/** Where the lines go. */
export interface _LineSink {
  /** A line within the cap, without its `\n`. */
  line(line: Buffer): void;
  /** A line over the cap, once its newline arrived: its length and its envelope. */
  skipped(bytes: number, envelope: _Envelope): void;
}

/** The lines of a byte stream, each at most `maxLineBytes` long (without its `\n`). */
export class _LineSplitter {
  readonly maxLineBytes: number;
  /** The longest line skipped to its end; past it, {@link push} reports the stream broken. */
  readonly maxSkippedLineBytes: number;
  /** The chunks of the line not ended yet. */
  #parts: Buffer[] = [];
  #bytes = 0;
  /** The line over the cap being skipped, if one is. */
  #skipping: _EnvelopeScanner | undefined;

  constructor(maxLineBytes: number, maxSkippedLineBytes: number) {
    this.maxLineBytes = maxLineBytes;
    this.maxSkippedLineBytes = maxSkippedLineBytes;
  }

  /**
   * Hands each line ended in `chunk` to the sink, in order, and keeps the rest. Returns
   * `undefined`, or — as soon as a line has gone past `maxSkippedLineBytes` without a newline —
   * the number of bytes received for it: nothing after it is handed over, and what was kept is
   * dropped. `stop` is checked after each line (a handler may end the stream).
   */
  push(chunk: Buffer, sink: _LineSink, stop: () => boolean = () => false): number | undefined {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (this.#skipping) {
        const skipping = this.#skipping;
        skipping.feed(chunk.subarray(start, end === -1 ? chunk.length : end));
        if (skipping.bytes > this.maxSkippedLineBytes) return this.#overflow(skipping.bytes);
        if (end === -1) return undefined;
        this.#skipping = undefined;
        start = end + 1;
        sink.skipped(skipping.bytes, skipping.envelope());
      } else {
        if (end === -1) break;
        const bytes = this.#bytes + (end - start);
        if (bytes > this.maxLineBytes) {
          this.#skip();
          continue;
        }
        const tail = chunk.subarray(start, end);
        const line = this.#parts.length === 0 ? tail : Buffer.concat([...this.#parts, tail], bytes);
        this.#parts = [];
        this.#bytes = 0;
        start = end + 1;
        sink.line(line);
      }
      if (stop()) return undefined;
    }
    const rest = chunk.length - start;
    if (rest === 0) return undefined;
    if (this.#bytes + rest > this.maxLineBytes) {
      this.#skip();
      return this.push(chunk.subarray(start), sink, stop);
    }
    this.#parts.push(start === 0 ? chunk : chunk.subarray(start));
    this.#bytes += rest;
    return undefined;
  }

  /** Drops the line not ended yet. */
  clear(): void {
    this.#parts = [];
    this.#bytes = 0;
    this.#skipping = undefined;
  }

  /** From now on the line not ended yet is skipped: what was kept of it is read, then dropped. */
  #skip(): void {
    const scanner = new _EnvelopeScanner();
    for (const part of this.#parts) scanner.feed(part);
    this.#parts = [];
    this.#bytes = 0;
    this.#skipping = scanner;
  }

  #overflow(received: number): number {
    this.clear();
    return received;
  }
}
