/**
 * A relay that checks nothing: the suite lists it beside the real relay in the adapter's
 * configuration, so it can hand the adapter events a real relay refuses (a tampered id, a wrong
 * signature, a replay, an expired request) and see whether the adapter refuses them itself.
 * It speaks the relay protocol of docs/protocol.md §9: `REQ` gets an immediate `EOSE`, every
 * `EVENT` is acknowledged `OK true` and recorded, and {@link InjectorRelay.inject} pushes any JSON
 * value to the subscriptions whose filters match it.
 * @module
 */

import type { XpEvent } from '@xprotocol/crypto';
import { type Filter, type FilterLimits, matchesAny, parseFilter } from '@xprotocol/wire';
import { type WebSocket, WebSocketServer } from 'ws';

const LIMITS: FilterLimits = { maxValues: 1000, maxLimit: 500 };

type Subscriptions = Map<string, Filter[]>;

/** A permissive relay on loopback. */
export class InjectorRelay {
  readonly #server: WebSocketServer;
  readonly #subscriptions = new Map<WebSocket, Subscriptions>();
  readonly #listeners = new Set<(event: XpEvent) => void>();
  /** Every event a client published here, in arrival order. */
  readonly published: XpEvent[] = [];

  private constructor(server: WebSocketServer) {
    this.#server = server;
    server.on('connection', (socket) => {
      this.#subscriptions.set(socket, new Map());
      socket.on('close', () => this.#subscriptions.delete(socket));
      socket.on('message', (data) => this.#onMessage(socket, String(data)));
    });
  }

  /** Starts listening on `127.0.0.1` (port 0 picks a free one). */
  static start(port = 0): Promise<InjectorRelay> {
    return new Promise((resolve, reject) => {
      const server = new WebSocketServer({ host: '127.0.0.1', port });
      server.once('listening', () => resolve(new InjectorRelay(server)));
      server.once('error', reject);
    });
  }

  /** `ws://127.0.0.1:port`. */
  get url(): string {
    const address = this.#server.address();
    return `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  /** How many subscriptions are open (the adapter subscribes once it runs). */
  subscriptionCount(): number {
    let count = 0;
    for (const subs of this.#subscriptions.values()) count += subs.size;
    return count;
  }

  /** Sends `event` (checked for nothing) to every subscription whose filters match it; returns how many. */
  inject(event: Record<string, unknown>): number {
    let sent = 0;
    for (const [socket, subs] of this.#subscriptions) {
      for (const [id, filters] of subs) {
        if (!matchesAny(event as unknown as XpEvent, filters)) continue;
        socket.send(JSON.stringify(['EVENT', id, event]));
        sent++;
      }
    }
    return sent;
  }

  /** Calls `listener` with every event published here from now on. */
  onPublish(listener: (event: XpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onMessage(socket: WebSocket, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(message)) return;
    const subs = this.#subscriptions.get(socket);
    if (!subs) return;
    if (message[0] === 'REQ' && typeof message[1] === 'string') {
      const filters = message.slice(2).map((f) => parseFilter(f, LIMITS));
      subs.set(
        message[1],
        filters.flatMap((f) => (f.ok ? [f.filter] : [])),
      );
      socket.send(JSON.stringify(['EOSE', message[1]]));
    } else if (message[0] === 'CLOSE' && typeof message[1] === 'string') {
      subs.delete(message[1]);
    } else if (message[0] === 'EVENT' && message[1] && typeof message[1] === 'object') {
      const event = message[1] as XpEvent;
      this.published.push(event);
      socket.send(JSON.stringify(['OK', event.id, true, '']));
      for (const listener of this.#listeners) listener(event);
    }
  }

  /** Closes every connection and stops listening. */
  close(): Promise<void> {
    for (const socket of this.#subscriptions.keys()) socket.terminate();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
