// A client that opens TCP connections and never finishes the WebSocket handshake (a "slowloris")
// must not hold the relay's sockets: a handshake that has not arrived within the handshake timeout
// is closed, and sockets still in their handshake count against the client's address, so one
// address cannot take every descriptor while others wait. The real bin; raw TCP sockets from
// 127.0.0.1, a real `ws` client from 127.0.0.2.

import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { closeSocket, killBins, startBin, stopBin, upgrade } from './support/relay-bin.js';

const raw: Socket[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of raw.splice(0)) socket.destroy();
  await Promise.all(sockets.splice(0).map(closeSocket));
  killBins();
});

/** Opens a TCP connection to the relay at `url` and resolves once it is connected. */
function openRaw(url: string, localAddress = '127.0.0.1'): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress }, () => resolve(socket));
    socket.on('error', () => {
      // A socket the relay resets shows up as closed; the test looks at 'close'.
    });
    socket.once('close', () => reject(new Error('closed before connecting')));
    raw.push(socket);
  });
}

/** Resolves with true once `socket` closes, false if it is still open after `boundMs`. */
function closesWithin(socket: Socket, boundMs: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), boundMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('xprotocol-relay: handshakes that never finish', () => {
  it('closes a connection whose upgrade request has not arrived within --handshake-timeout-ms', async () => {
    const bin = await startBin(['--port', '0', '--handshake-timeout-ms', '1000']);
    const silent = await openRaw(bin.url);
    const partial = await openRaw(bin.url);
    partial.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n');
    // Node's own limit would keep both for a minute; the relay's closes them within seconds.
    expect(await closesWithin(silent, 20_000), 'a silent connection stayed open').toBe(true);
    expect(await closesWithin(partial, 20_000), 'a connection with half a request stayed open').toBe(true);
    expect(await stopBin(bin)).toBe(0);
  }, 60_000);

  it('counts sockets still in their handshake against their address: past the limit they are closed at once, other addresses are served', async () => {
    // 3 per address plus the handshake allowance of 16: the 20th and later sockets from 127.0.0.1
    // are closed as soon as they connect.
    const bin = await startBin(['--port', '0', '--max-connections-per-ip', '3']);
    const held: Socket[] = [];
    for (let i = 0; i < 19; i++) held.push(await openRaw(bin.url));
    const extra = await openRaw(bin.url).catch(() => undefined);
    const extraClosed = extra === undefined || (await closesWithin(extra, 10_000));
    expect(extraClosed, 'a 20th half-open socket from one address was kept').toBe(true);
    for (const socket of held)
      expect(socket.destroyed, 'a socket within the allowance was closed').toBe(false);
    const other = await upgrade(bin.url, { localAddress: '127.0.0.2' });
    expect(other.open, 'another address was refused while one address held half-open sockets').toBe(true);
    if (other.open) sockets.push(other.socket);
    expect(await stopBin(bin)).toBe(0);
  }, 60_000);
});
