// One client address cannot take every connection of a relay, and the relay as a whole takes a
// bounded number: past the per-address limit an upgrade gets 429, past the total 503, each with a
// body that names the limit and its flag; a closed connection frees its slot. The real bin and real
// `ws` clients; 127.0.0.2 and 127.0.0.3 are other client addresses on Linux's loopback.

import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { closeSocket, killBins, startBin, stopBin, type Upgrade, upgrade } from './support/relay-bin.js';

const sockets: WebSocket[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map(closeSocket));
  killBins();
});

/** Opens `count` connections from `localAddress`; every one must open. */
async function openMany(url: string, count: number, localAddress = '127.0.0.1'): Promise<WebSocket[]> {
  const opened: WebSocket[] = [];
  for (let i = 0; i < count; i++) {
    const result = await upgrade(url, { localAddress });
    if (!result.open)
      throw new Error(`connection ${i + 1} from ${localAddress} refused: ${result.status} ${result.body}`);
    sockets.push(result.socket);
    opened.push(result.socket);
  }
  return opened;
}

/** The answer to one more upgrade from `localAddress` (a socket that opened is kept for cleanup). */
async function oneMore(url: string, localAddress: string): Promise<Upgrade> {
  const result = await upgrade(url, { localAddress });
  if (result.open) sockets.push(result.socket);
  return result;
}

describe('xprotocol-relay: connection limits', () => {
  it('by default refuses the 129th connection from one address with 429', async () => {
    const bin = await startBin(['--port', '0']);
    await openMany(bin.url, 128);
    const refused = await oneMore(bin.url, '127.0.0.1');
    expect(refused.open, 'a 129th connection from 127.0.0.1 was accepted').toBe(false);
    if (refused.open) return;
    expect(refused.status).toBe(429);
    expect(refused.body).toContain(
      'Too many connections from 127.0.0.1: 128 are open, the most this relay accepts from one address (--max-connections-per-ip 128,',
    );
    expect(await stopBin(bin)).toBe(0);
  });

  it('refuses past the per-address limit (429) and past the total (503), and frees a slot on close', async () => {
    const bin = await startBin(['--port', '0', '--max-connections-per-ip', '3', '--max-connections', '5']);
    const first = await openMany(bin.url, 3, '127.0.0.1');
    const perAddress = await oneMore(bin.url, '127.0.0.1');
    expect(perAddress.open).toBe(false);
    if (perAddress.open) return;
    expect(perAddress.status).toBe(429);
    expect(perAddress.body).toContain(
      'Too many connections from 127.0.0.1: 3 are open, the most this relay accepts from one address (--max-connections-per-ip 3,',
    );
    await openMany(bin.url, 2, '127.0.0.2');
    const total = await oneMore(bin.url, '127.0.0.3');
    expect(total.open).toBe(false);
    if (total.open) return;
    expect(total.status).toBe(503);
    expect(total.body).toContain(
      'The relay is full: 5 connections are open, the most it accepts (--max-connections 5,',
    );
    // A closed connection frees its slot (the relay sees the close a moment after the client).
    await closeSocket(first[0]!);
    let again: Upgrade | undefined;
    for (let attempt = 0; attempt < 100; attempt++) {
      again = await oneMore(bin.url, '127.0.0.1');
      if (again.open) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(again?.open).toBe(true);
    expect(await stopBin(bin)).toBe(0);
  });
});
