/**
 * One client's connection to the relay: its socket, its subscriptions, the events of it still
 * being checked, and the one way frames go out to it (which drops a slow consumer).
 * @module
 */
import type { Filter } from '@xprotocol/wire';
import type { WebSocket } from 'ws';
import type { RelayEvent } from './store.js';

/** Events of one connection checked at once; past it the relay stops reading that socket. */
export const _MAX_CHECKING_PER_CONNECTION = 1024;

/** One open subscription of a connection. */
export interface _Subscription {
  filters: Filter[];
  /** While stored events load, live matches wait here. */
  pending: RelayEvent[] | undefined;
  /** Ids sent while loading, to skip their duplicates in `pending`. */
  sentIds: Set<string> | undefined;
}

/** A client connected to the relay. */
export class _ClientConnection {
  readonly socket: WebSocket;
  readonly subscriptions = new Map<string, _Subscription>();
  /** False once a keep-alive ping went out, true again when its pong comes back. */
  alive = true;
  /** Events received and not yet admitted (their checks run off the relay thread). */
  checking = 0;
  /** Settles when the last received event has been admitted or refused. */
  admitted: Promise<void> = Promise.resolve();
  readonly #maxBuffered: number;

  constructor(socket: WebSocket, maxBufferedBytes: number) {
    this.socket = socket;
    this.#maxBuffered = maxBufferedBytes;
  }

  /**
   * Sends `frame` when the socket is open; a client whose unsent output is over the limit is
   * closed instead (it reconnects and resubscribes with `since`). False when nothing was sent.
   */
  send(frame: string): boolean {
    const { socket } = this;
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > this.#maxBuffered) {
      socket.close(1013, 'slow consumer: too much unsent data; reconnect and resubscribe with since');
      return false;
    }
    socket.send(frame);
    return true;
  }

  /**
   * Runs `step` after the events sent before it have been admitted or refused: a client's frames
   * are answered in the order it sent them (an EVENT's refusal before the EOSE of a REQ sent after
   * it), as when verification ran inline. Without events in flight, at once.
   */
  inOrder(step: () => void): void {
    if (this.checking === 0) {
      step();
      return;
    }
    this.admitted = this.admitted.then(step).catch(() => {
      // The steps answer their own failures; the chain must go on for the next frame.
    });
  }
}
