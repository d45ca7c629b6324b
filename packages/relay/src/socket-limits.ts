/**
 * How many TCP sockets a relay holds before and after their WebSocket handshake. The connection
 * limits (connection-limits.ts) count upgraded connections and answer 429/503, but they only see a
 * client once its upgrade request has fully arrived; a client that opens sockets and never sends
 * the request (a "slowloris") would hold descriptors without ever being counted. Here every socket
 * counts from the moment it connects: an address may hold its connection limit plus
 * {@link HANDSHAKE_ALLOWANCE_PER_ADDRESS} sockets, the relay its total plus
 * {@link HANDSHAKE_ALLOWANCE_TOTAL}; a socket past either is closed at once, unanswered. The
 * allowances leave room for upgrades in progress, so a client at its limit still gets the 429
 * that says why. Addresses count as in connection-limits.ts (IPv4, or an IPv6 /64).
 * @module
 */
import type { Socket } from 'node:net';
import { _clientAddress } from './connection-limits.js';

/** Sockets one address may hold beyond its connection limit: handshakes in progress. */
export const HANDSHAKE_ALLOWANCE_PER_ADDRESS = 16;
/** Sockets the relay may hold beyond its total connection limit. */
export const HANDSHAKE_ALLOWANCE_TOTAL = 64;

/** Counts open TCP sockets per client address and in all. */
export class _SocketLimits {
  readonly #perAddress: number;
  readonly #total: number;
  readonly #open = new Map<string, number>();
  #count = 0;

  /** Given the relay's connection limits; the handshake allowances are added to each. */
  constructor(connectionsPerAddress: number, connections: number) {
    this.#perAddress = connectionsPerAddress + HANDSHAKE_ALLOWANCE_PER_ADDRESS;
    this.#total = connections + HANDSHAKE_ALLOWANCE_TOTAL;
  }

  /**
   * Counts `socket` until it closes, or destroys it when its address or the relay holds too many.
   * False when it was destroyed.
   */
  admit(socket: Socket): boolean {
    const address = _clientAddress(socket.remoteAddress);
    const fromAddress = this.#open.get(address) ?? 0;
    if (fromAddress >= this.#perAddress || this.#count >= this.#total) {
      socket.destroy();
      return false;
    }
    this.#open.set(address, fromAddress + 1);
    this.#count++;
    socket.once('close', () => this.#release(address));
    return true;
  }

  #release(address: string): void {
    this.#count--;
    const left = (this.#open.get(address) ?? 1) - 1;
    if (left === 0) this.#open.delete(address);
    else this.#open.set(address, left);
  }
}
