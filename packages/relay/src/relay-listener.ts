/**
 * The relay's HTTP side: a plain HTTP request is told to upgrade (426), a WebSocket upgrade is
 * first put to the relay's gate (its `Origin`, the connection limits) and, when the gate lets it
 * through, taken with a frame limit sized for the largest event; the server listens — or says why
 * it cannot.
 * @module
 */
import { createServer, type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { RelayError } from './errors.js';

/** Why an upgrade is refused: the HTTP status and a plain-text body saying what to do. */
export interface _UpgradeRefusal {
  status: number;
  body: string;
}

/**
 * Decides on a WebSocket upgrade before anything is read from the connection: `undefined` lets it
 * through (having taken whatever slot it needs), a refusal is sent as the HTTP answer.
 */
export type _UpgradeGate = (request: IncomingMessage) => _UpgradeRefusal | undefined;

/** The HTTP server and the WebSocket server on it, not listening yet. */
export interface _RelayListener {
  httpServer: Server;
  wss: WebSocketServer;
}

/**
 * Creates the servers; `maxEventBytes` sizes the largest frame a client may send, and `gate` decides
 * on each upgrade before the WebSocket handshake. The WebSocket server emits `connection` for each
 * upgrade it completes.
 */
export function _relayListener(maxEventBytes: number, gate: _UpgradeGate): _RelayListener {
  const httpServer: Server = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    response.end('This is an XProtocol relay: connect with a WebSocket client.\n');
  });
  // The frame carries ["EVENT", event]: allow the event limit plus room for the envelope, so an
  // oversized event gets a `too-large:` answer rather than a closed socket.
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxEventBytes + 64 * 1024 });
  httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {
      // A client that resets the connection mid-handshake: its 'close' frees whatever it held.
    });
    const refusal = gate(request);
    if (refusal !== undefined) {
      _refuseUpgrade(socket, refusal);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });
  // An accept error once listening (EMFILE…) must not end the process; listen errors are reported
  // by the listen promise.
  httpServer.on('error', () => {});
  return { httpServer, wss };
}

/** Answers an upgrade with `refusal` (plain text, never HTML) and closes the connection. */
function _refuseUpgrade(socket: Duplex, refusal: _UpgradeRefusal): void {
  const body = Buffer.from(refusal.body, 'utf8');
  socket.once('finish', () => socket.destroy());
  socket.write(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${body.length}\r\n\r\n`,
  );
  socket.end(body);
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
