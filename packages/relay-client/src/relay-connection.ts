/**
 * One relay connection that keeps itself up: it reconnects after every loss with
 * {@link reconnectDelay}, gives up a connect attempt after `connectTimeoutMs`, and reports each
 * open, frame and loss to its owner (the pool), which re-sends and resubscribes.
 * @module
 */
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { parseRelayMessage, type RelayMessage } from '@xprotocol/wire';
import WebSocket from 'ws';
import type { PolicyLookup } from './address-policy.js';
import { type BackoffOptions, reconnectDelay } from './backoff.js';

/** Where a connection is. `waiting` means a reconnect is scheduled. */
export type ConnectionState = 'connecting' | 'open' | 'waiting' | 'closed';

/** What a connection tells its owner. */
export interface ConnectionHandlers {
  onOpen(): void;
  /** A well-formed relay message (malformed frames are dropped here). */
  onFrame(message: RelayMessage): void;
  /** The socket was lost (not called after `close()`). */
  onDisconnect(reason: string): void;
  /** A connect attempt failed or the socket was lost; the next attempt is in `retryInMs`. */
  onRetry?(reason: string, retryInMs: number): void;
}

/** Options of {@link RelayConnection}. */
export interface ConnectionOptions {
  backoff: BackoffOptions;
  connectTimeoutMs: number;
  /** Largest frame accepted from the relay, in bytes. */
  maxPayload: number;
  random?: () => number;
  /** Resolves (and checks) the relay's host name: the socket connects to what it returns. */
  lookup?: PolicyLookup;
}

/** A self-healing WebSocket to one relay. */
export class RelayConnection {
  readonly url: string;
  #state: ConnectionState = 'waiting';
  #socket: WebSocket | undefined;
  /** The TCP (or TLS) socket under `#socket`, held to cork it. */
  #raw: Socket | undefined;
  /** The turn of the event loop in which a frame was sent, until it ends. */
  #turn: { raw: Socket; corked: boolean } | undefined;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastError = '';
  #attempted = false;
  readonly #handlers: ConnectionHandlers;
  readonly #options: ConnectionOptions;

  constructor(url: string, handlers: ConnectionHandlers, options: ConnectionOptions) {
    this.url = url;
    this.#handlers = handlers;
    this.#options = options;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Why the last attempt failed, for status output. */
  get lastError(): string {
    return this.#lastError;
  }

  /** True once a connect attempt has ended, opened or failed (the relay's reachability is known). */
  get attempted(): boolean {
    return this.#attempted;
  }

  /** Starts connecting (idempotent). */
  start(): void {
    if (this.#state === 'waiting' && this.#timer === undefined) this.#connect();
  }

  /** Sends a frame when open; returns false (and sends nothing) otherwise. */
  send(frame: string): boolean {
    if (this.#state !== 'open' || !this.#socket) return false;
    this.#gather();
    this.#socket.send(frame);
    return true;
  }

  /**
   * The first frame of a turn of the event loop leaves at once: a lone request or answer waits
   * for nothing, and the relay works on it while this process goes on. The frames that follow it
   * in the same turn (the answers of one commit, the requests of concurrent calls) are corked and
   * leave together in one write when the turn's I/O callbacks are done: one system call and one
   * wake-up of the relay instead of one per frame.
   */
  #gather(): void {
    const raw = this.#raw;
    if (!raw) return;
    const turn = this.#turn;
    if (turn?.raw === raw) {
      if (!turn.corked) {
        turn.corked = true;
        raw.cork();
      }
      return;
    }
    const started = { raw, corked: false };
    this.#turn = started;
    setImmediate(() => {
      if (started.corked) started.raw.uncork();
      if (this.#turn === started) this.#turn = undefined;
    });
  }

  /** Closes for good; no reconnect follows. */
  close(): void {
    this.#state = 'closed';
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const socket = this.#socket;
    this.#socket = undefined;
    this.#raw = undefined;
    if (socket) {
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
    }
  }

  #connect(): void {
    this.#timer = undefined;
    if (this.#state === 'closed') return;
    this.#state = 'connecting';
    let raw: Socket | undefined;
    const socket = new WebSocket(this.url, {
      maxPayload: this.#options.maxPayload,
      handshakeTimeout: this.#options.connectTimeoutMs,
      // Not offered: an event's content is base64 of ciphertext, which compresses little, and a
      // relay that accepted would put zlib (on libuv's thread pool) on the path of every frame.
      perMessageDeflate: false,
      ...(this.#options.lookup && { lookup: this.#options.lookup as never }),
      // What ws does by default, keeping the socket (ws exposes no way to cork it).
      createConnection: ((options: Parameters<typeof netConnect>[0] & Record<string, unknown>) => {
        raw = _connectSocket(options, this.url.startsWith('wss:'));
        return raw;
      }) as never,
    });
    this.#socket = socket;
    this.#raw = undefined;
    let lost = false;
    const onLost = (reason: string) => {
      if (lost || this.#socket !== socket) return;
      lost = true;
      const wasOpen = this.#state === 'open';
      this.#socket = undefined;
      this.#raw = undefined;
      this.#lastError = reason;
      this.#attempted = true;
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
      if (this.#state === 'closed') return;
      this.#state = 'waiting';
      if (wasOpen) this.#handlers.onDisconnect(reason);
      const delay = reconnectDelay(this.#attempt++, this.#options.backoff, this.#options.random);
      this.#handlers.onRetry?.(reason, delay);
      this.#timer = setTimeout(() => this.#connect(), delay);
      this.#timer.unref?.();
    };
    socket.on('open', () => {
      if (this.#socket !== socket) return;
      this.#raw = raw;
      this.#state = 'open';
      this.#attempted = true;
      this.#attempt = 0;
      this.#lastError = '';
      this.#handlers.onOpen();
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const parsed = parseRelayMessage(data.toString());
      if (parsed.ok) this.#handlers.onFrame(parsed.message);
    });
    socket.on('close', (code, reason) =>
      onLost(`closed (${code}${reason.length ? `: ${reason.toString()}` : ''})`),
    );
    socket.on('error', (error) => onLost(error.message));
  }
}

/** ws's own connect for `ws:` and `wss:` URLs (`net.connect`, or `tls.connect` with SNI). */
function _connectSocket(options: Record<string, unknown>, secure: boolean): Socket {
  if (secure) {
    const host = String(options.host ?? '');
    return tlsConnect({
      ...options,
      path: undefined,
      servername: typeof options.servername === 'string' ? options.servername : isIP(host) ? '' : host,
    } as never);
  }
  return netConnect({ ...options, path: options.socketPath } as never);
}
