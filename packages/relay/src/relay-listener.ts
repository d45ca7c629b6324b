/**
 * The relay's HTTP side: a plain HTTP request is told to upgrade (426), a WebSocket upgrade is
 * first put to the relay's gate (its `Origin`, the connection limits) and, when the gate lets it
 * through, taken with a frame limit sized for the largest event; the server listens — or says why
 * it cannot. Before any of that, each TCP socket is counted (socket-limits.ts) and must deliver its
 * upgrade request within the handshake timeout.
 * @module
 */
import { createServer, type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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

/** What the listener needs besides the upgrade gate. */
export interface _ListenerLimits {
  /** Sizes the largest frame a client may send. */
  maxEventBytes: number;
  /** A socket whose upgrade request has not fully arrived by then is closed. */
  handshakeTimeoutMs: number;
  /**
   * Counts every TCP socket from the moment it connects (socket-limits.ts); false when it has
   * destroyed the socket.
   */
  admitSocket: (socket: Socket) => boolean;
  /** Told of each socket closed because its upgrade request did not arrive in time. */
  onHandshakeTimeout?: () => void;
}

/**
 * Creates the servers; `gate` decides on each upgrade before the WebSocket handshake. The
 * WebSocket server emits `connection` for each upgrade it completes.
 */
export function _relayListener(limits: _ListenerLimits, gate: _UpgradeGate): _RelayListener {
  const { maxEventBytes, handshakeTimeoutMs, admitSocket, onHandshakeTimeout } = limits;
  const httpServer: Server = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    response.end('This is an XProtocol relay: connect with a WebSocket client.\n');
  });
  // Node's own request timeouts do not start until the first byte arrives, and last a minute or
  // more: a socket gets the relay's own deadline, from the moment it connects, to deliver a whole
  // upgrade request (a few hundred bytes, so a short deadline costs an honest client nothing).
  const deadlines = new WeakMap<Duplex, ReturnType<typeof setTimeout>>();
  httpServer.on('connection', (socket: Socket) => {
    if (!admitSocket(socket)) return;
    const deadline = setTimeout(() => {
      onHandshakeTimeout?.();
      socket.destroy();
    }, handshakeTimeoutMs);
    deadlines.set(socket, deadline);
    socket.once('close', () => clearTimeout(deadline));
  });
  // The frame carries ["EVENT", event]: allow the event limit plus room for the envelope, so an
  // oversized event gets a `too-large:` answer rather than a closed socket.
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxEventBytes + 64 * 1024 });
  httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    clearTimeout(deadlines.get(socket));
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
