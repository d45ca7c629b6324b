/**
 * One WebSocket connection to a relay, its frames read in order, written from docs/protocol.md §9
 * (one JSON array per text frame) on the `ws` package. It imports nothing from this repository:
 * it is one part of an independent XProtocol client that proves the document is enough to
 * interoperate.
 *
 * @module
 */
import WebSocket from 'ws';

/** A relay connection whose incoming text frames are read one by one, in order. */
export class RelayConnection {
  /** @param {WebSocket} socket */
  constructor(socket) {
    this.socket = socket;
    /** @type {string[]} */
    this.frames = [];
    /** @type {((frame: string | null) => void)[]} */
    this.waiters = [];
    /** @type {number | null} */
    this.closeCode = null;
    socket.on('message', (data, isBinary) => {
      const frame = isBinary ? `binary:${data.toString('hex')}` : data.toString('utf8');
      const waiter = this.waiters.shift();
      if (waiter) waiter(frame);
      else this.frames.push(frame);
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const waiter of this.waiters.splice(0)) waiter(null);
    });
  }

  /**
   * Opens a connection (bounded by `timeoutMs`).
   *
   * @param {string} url @param {number} [timeoutMs]
   * @returns {Promise<RelayConnection>}
   */
  static open(url, timeoutMs = 10_000) {
    return new Promise((resolve, reject) => {
      // The relay's frame cap (§9.1 step 1) is larger than ws's default client limit.
      const socket = new WebSocket(url, { maxPayload: 16 * 1024 * 1024 });
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error(`no connection to ${url} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve(new RelayConnection(socket));
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  /** @param {string | Buffer} frame @param {{ binary?: boolean }} [options] */
  send(frame, options = {}) {
    this.socket.send(frame, { binary: options.binary === true });
  }

  /**
   * The next frame, or null once the relay closed the connection; refuses after `timeoutMs`.
   *
   * @param {number} [timeoutMs]
   * @returns {Promise<string | null>}
   */
  next(timeoutMs = 10_000) {
    const queued = this.frames.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closeCode !== null) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const waiter = (/** @type {string | null} */ frame) => {
        clearTimeout(timer);
        resolve(frame);
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no frame from the relay within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Waits until the relay closes the connection; resolves with the close code. @param {number} [timeoutMs] */
  async closed(timeoutMs = 10_000) {
    for (;;) {
      const frame = await this.next(timeoutMs);
      if (frame === null) return this.closeCode;
    }
  }

  close() {
    this.socket.terminate();
  }
}
