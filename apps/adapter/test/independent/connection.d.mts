// The types of connection.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/** A relay connection whose incoming text frames are read one by one, in order. */
export class RelayConnection {
  /**
   * Opens a connection (bounded by `timeoutMs`).
   *
   * @param {string} url @param {number} [timeoutMs]
   * @returns {Promise<RelayConnection>}
   */
  static open(url: string, timeoutMs?: number): Promise<RelayConnection>;
  /** @param {WebSocket} socket */
  constructor(socket: WebSocket);
  socket: WebSocket;
  /** @type {string[]} */
  frames: string[];
  /** @type {((frame: string | null) => void)[]} */
  waiters: ((frame: string | null) => void)[];
  /** @type {number | null} */
  closeCode: number | null;
  /** @param {string | Buffer} frame @param {{ binary?: boolean }} [options] */
  send(
    frame: string | Buffer,
    options?: {
      binary?: boolean;
    },
  ): void;
  /**
   * The next frame, or null once the relay closed the connection; refuses after `timeoutMs`.
   *
   * @param {number} [timeoutMs]
   * @returns {Promise<string | null>}
   */
  next(timeoutMs?: number): Promise<string | null>;
  /** Waits until the relay closes the connection; resolves with the close code. @param {number} [timeoutMs] */
  closed(timeoutMs?: number): Promise<number>;
  close(): void;
}
