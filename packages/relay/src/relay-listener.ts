/**
 * The relay's HTTP side: a plain HTTP request is told to upgrade (426), a WebSocket upgrade is
 * taken with a frame limit sized for the largest event, and the server listens — or says why it
 * cannot.
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { RelayError } from './errors.js';

/** The HTTP server and the WebSocket server on it, not listening yet. */
export interface _RelayListener {
  httpServer: Server;
  wss: WebSocketServer;
}

/** Creates the servers; `maxEventBytes` sizes the largest frame a client may send. */
export function _relayListener(maxEventBytes: number): _RelayListener {
  const httpServer: Server = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    response.end('This is an XProtocol relay: connect with a WebSocket client.\n');
  });
  // The frame carries ["EVENT", event]: allow the event limit plus room for the envelope, so an
  // oversized event gets a `too-large:` answer rather than a closed socket.
  const wss = new WebSocketServer({ server: httpServer, maxPayload: maxEventBytes + 64 * 1024 });
  // ws re-emits the HTTP server's errors (EADDRINUSE…); the listen promise reports them.
  wss.on('error', () => {});
  return { httpServer, wss };
}

/** Listens on `host:port`; rejects with `LISTEN_FAILED` (e.g. the port is taken). */
export function _listen(httpServer: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error) =>
      reject(
        new RelayError('LISTEN_FAILED', `cannot listen on ${host}:${port}: ${error.message}`, {
          cause: error,
        }),
      );
    httpServer.once('error', onError);
    httpServer.listen(port, host, () => {
      httpServer.off('error', onError);
      resolve();
    });
  });
}

/** The `ws://` URL of a listening server (an IPv6 address in brackets). */
export function _relayUrl(address: AddressInfo): string {
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `ws://${urlHost}:${address.port}`;
}
