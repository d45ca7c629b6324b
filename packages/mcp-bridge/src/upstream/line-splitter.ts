/**
 * Splits a byte stream into `\n`-terminated lines with a cap on one line, so a writer that never
 * ends its line cannot grow our memory past the cap (plus one chunk). A line is joined once, when
 * its newline arrives: no copy per chunk.
 * @module
 */

/** The lines of a byte stream, each at most `maxLineBytes` long (without its `\n`). */
export class _LineSplitter {
  readonly maxLineBytes: number;
  /** The chunks of the line not ended yet. */
  #parts: Buffer[] = [];
  #bytes = 0;

  constructor(maxLineBytes: number) {
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Hands each line ended in `chunk` to `onLine` (without the `\n`), in order, and keeps the rest.
   * Returns `undefined`, or — as soon as the line not ended yet is longer than the cap — the
   * number of bytes received for it: the lines after it in `chunk` are not handed over, and what
   * was kept is dropped. `stop` is checked after each line (a handler may end the stream).
   */
  push(chunk: Buffer, onLine: (line: Buffer) => void, stop: () => boolean = () => false): number | undefined {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (end === -1) break;
      const bytes = this.#bytes + (end - start);
      if (bytes > this.maxLineBytes) return this.#overflow(bytes);
      const tail = chunk.subarray(start, end);
      const line = this.#parts.length === 0 ? tail : Buffer.concat([...this.#parts, tail], bytes);
      this.#parts = [];
      this.#bytes = 0;
      start = end + 1;
      onLine(line);
      if (stop()) return undefined;
    }
    const rest = chunk.length - start;
    if (rest === 0) return undefined;
    if (this.#bytes + rest > this.maxLineBytes) return this.#overflow(this.#bytes + rest);
    this.#parts.push(start === 0 ? chunk : chunk.subarray(start));
    this.#bytes += rest;
    return undefined;
  }

  /** Drops the line not ended yet. */
  clear(): void {
    this.#parts = [];
    this.#bytes = 0;
  }

  #overflow(received: number): number {
    this.clear();
    return received;
  }
}
