/**
 * How many WebSocket connections a relay holds: at most `perAddress` from one client address and
 * `total` in all. A connection takes its slot when its upgrade is accepted and gives it back when
 * its TCP socket closes (however it ends), so a refused or failed upgrade holds nothing. Past the
 * per-address limit an upgrade is refused with 429 (that client has enough), past the total with
 * 503 (the relay has no room, whoever asks).
 *
 * An IPv4 client counts by its address (an IPv4-mapped IPv6 address as the IPv4 one); an IPv6
 * client by its /64 prefix, since one host usually holds a whole /64 and could otherwise take a
 * new address for each connection.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import type { _UpgradeRefusal } from './relay-listener.js';

/** Counts open connections per client address and in all. */
export class _ConnectionLimits {
  readonly #perAddress: number;
  readonly #total: number;
  readonly #open = new Map<string, number>();
  #count = 0;

  /** At most `perAddress` connections from one address and `total` in all (positive integers). */
  constructor(perAddress: number, total: number) {
    this.#perAddress = perAddress;
    this.#total = total;
  }

  /**
   * Takes a slot for the upgrade `request`, given back when its socket closes; or refuses it with
   * 429 (its address has `perAddress` open) or 503 (the relay has `total` open).
   */
  admit(request: IncomingMessage): _UpgradeRefusal | undefined {
    const address = _clientAddress(request.socket.remoteAddress);
    const fromAddress = this.#open.get(address) ?? 0;
    if (fromAddress >= this.#perAddress) {
      return {
        status: 429,
        body:
          `Too many connections from ${address}: ${fromAddress} are open, the most this relay accepts ` +
          `from one address (--max-connections-per-ip ${this.#perAddress}, the maxConnectionsPerIp option ` +
          `of startRelay). Close one, or share one connection between subscriptions.\n`,
      };
    }
    if (this.#count >= this.#total) {
      return {
        status: 503,
        body:
          `The relay is full: ${this.#count} connections are open, the most it accepts ` +
          `(--max-connections ${this.#total}, the maxConnections option of startRelay). Retry later.\n`,
      };
    }
    this.#open.set(address, fromAddress + 1);
    this.#count++;
    request.socket.once('close', () => this.#release(address));
    return undefined;
  }

  #release(address: string): void {
    this.#count--;
    const left = (this.#open.get(address) ?? 1) - 1;
    if (left === 0) this.#open.delete(address);
    else this.#open.set(address, left);
  }
}

/**
 * The address a client's connections count under: IPv4 as it is (an IPv4-mapped IPv6 address as
 * its IPv4 address), IPv6 as its /64 prefix (`2001:db8:1:2::/64`), `unknown` when the socket has
 * none left (it closed during the upgrade).
 */
export function _clientAddress(remote: string | undefined): string {
  if (remote === undefined) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(remote)) return remote;
  const [head = '', tail = ''] = remote.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = remote.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
