// The frames a connection sends during one turn of the event loop after its first leave in one
// write, on the socket ws would have opened itself.
import { type AddressInfo, createServer, type Server, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import { RelayConnection } from '../src/relay-connection.js';
import { until } from './support.js';

const servers: (WebSocketServer | Server)[] = [];
const connections: RelayConnection[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const connection of connections.splice(0)) connection.close();
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
  );
});

/** A WebSocket server on loopback that keeps every text frame it receives. */
async function recordingServer(): Promise<{ url: string; received: string[] }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const received: string[] = [];
  server.on('connection', (socket) => socket.on('message', (data) => received.push(data.toString())));
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function startConnection(url: string, onOpen: () => void = () => {}): RelayConnection {
  const connection = new RelayConnection(
    url,
    { onOpen, onFrame: () => {}, onDisconnect: () => {} },
    { backoff: { initialMs: 50, maxMs: 100 }, connectTimeoutMs: 5000, maxPayload: 1 << 20 },
  );
  connections.push(connection);
  connection.start();
  return connection;
}

async function openConnection(url: string): Promise<RelayConnection> {
  let opened = false;
  const connection = startConnection(url, () => (opened = true));
  await until(() => opened, 8000, 'the connection to open');
  return connection;
}

/** A TCP server on loopback that keeps the first bytes each connection sends. */
async function firstBytesServer(): Promise<{ port: number; first: Buffer[] }> {
  const first: Buffer[] = [];
  const server = createServer((socket) => {
    socket.once('data', (data) => {
      first.push(data);
      socket.destroy();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, first };
}

describe('RelayConnection', () => {
  it('sends the first frame of a turn at once and the rest of the turn in one more write, in order', async () => {
    const { url, received } = await recordingServer();
    const connection = await openConnection(url);
    // Node's internal write methods of a socket: one call per write handed to the kernel.
    const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const writev = vi.spyOn(proto, '_writev');
    const write = vi.spyOn(proto, '_write');
    const writes = () => writev.mock.calls.length + write.mock.calls.length;
    const frames = Array.from({ length: 10 }, (_, i) => JSON.stringify(['EVENT', { n: i }]));
    expect(connection.send(frames[0]!)).toBe(true);
    // A lone frame waits for nothing.
    expect(writes()).toBe(1);
    for (const frame of frames.slice(1)) expect(connection.send(frame)).toBe(true);
    expect(writes()).toBe(1);
    await until(() => received.length === frames.length, 8000, 'every frame at the server');
    expect(received).toEqual(frames);
    // Uncorked, each frame is its own write (ws writes a frame's header and payload together).
    expect(writes()).toBe(2);
  });

  it('sends a frame of a later turn in a write of its own, without waiting for more', async () => {
    const { url, received } = await recordingServer();
    const connection = await openConnection(url);
    connection.send('["EVENT",{"n":1}]');
    await until(() => received.length === 1, 8000, 'the first frame');
    connection.send('["EVENT",{"n":2}]');
    await until(() => received.length === 2, 8000, 'the second frame');
    expect(received).toEqual(['["EVENT",{"n":1}]', '["EVENT",{"n":2}]']);
  });

  it('connects wss: URLs over TLS with the host name as SNI, ws: URLs in the clear, offering no compression', async () => {
    const tls = await firstBytesServer();
    const tlsConnection = startConnection(`wss://localhost:${tls.port}/`);
    await until(() => tls.first.length > 0, 8000, 'the TLS client hello');
    tlsConnection.close();
    // A TLS handshake record, naming the host (server name indication).
    expect(tls.first[0]![0]).toBe(0x16);
    expect(tls.first[0]!.includes('localhost')).toBe(true);
    const clear = await firstBytesServer();
    const clearConnection = startConnection(`ws://127.0.0.1:${clear.port}/relay`);
    await until(() => clear.first.length > 0, 8000, 'the HTTP upgrade request');
    clearConnection.close();
    const upgrade = clear.first[0]!.toString('latin1');
    expect(upgrade).toMatch(/^GET \/relay HTTP\/1\.1\r\n/);
    // No compression offered (see RelayConnection).
    expect(upgrade.toLowerCase()).not.toContain('sec-websocket-extensions');
  });
});
