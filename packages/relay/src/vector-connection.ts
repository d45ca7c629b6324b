/**
 * One WebSocket connection of a relay vector case: frames sent as text (or binary), every frame
 * received kept in order until a step reads it, and how the relay closed the connection.
 * @module
 */
import WebSocket from 'ws';

/** A connection a vector case reads frame by frame. */
export class _VectorConnection {
  readonly #socket: WebSocket;
  readonly #received: string[] = [];
  #waiting: (() => void) | undefined;
  #closeCode: number | undefined;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data, isBinary) => {
      this.#received.push(isBinary ? `<binary frame of ${(data as Buffer).length} bytes>` : data.toString());
      this.#waiting?.();
    });
    socket.on('close', (code) => {
      this.#closeCode = code;
      this.#waiting?.();
    });
    socket.on('error', () => {
      // A refused or reset connection ends in 'close', which the step reading it reports.
    });
  }

  /** Opens a connection to `url`, or rejects within `timeoutMs`. */
  static open(url: string, timeoutMs: number): Promise<_VectorConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { maxPayload: 16 * 1024 * 1024, handshakeTimeout: timeoutMs });
      socket.once('open', () => resolve(new _VectorConnection(socket)));
      socket.once('error', (error) => reject(new Error(`cannot connect to ${url}: ${error.message}`)));
    });
  }

  /** Sends one frame; false when the connection is no longer open. */
  send(frame: string | Buffer, binary = false): Promise<boolean> {
    if (this.#socket.readyState !== WebSocket.OPEN) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.#socket.send(frame, { binary }, (error) => resolve(error === undefined || error === null));
    });
  }

  /**
   * The next frame received, or why there is none: `closed` (with the code) when the relay closed
   * the connection, `timeout` when nothing came within `timeoutMs`.
   */
  async next(timeoutMs: number): Promise<{ frame: string } | { closed: number } | { timeout: true }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = this.#received.shift();
      if (frame !== undefined) return { frame };
      if (this.#closeCode !== undefined) return { closed: this.#closeCode };
      const left = deadline - Date.now();
      if (left <= 0) return { timeout: true };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#waiting = undefined;
    }
  }

  /** Closes the connection (the case is over). */
  close(): void {
    this.#socket.terminate();
  }
}
