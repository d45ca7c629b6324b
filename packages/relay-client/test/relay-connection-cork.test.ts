// The frames a connection sends during one turn of the event loop leave in one write.

import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import { RelayConnection } from '../src/relay-connection.js';
import { until } from './support.js';

const servers: WebSocketServer[] = [];
const connections: RelayConnection[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const connection of connections.splice(0)) connection.close();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
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

async function openConnection(url: string): Promise<RelayConnection> {
  let opened = false;
  const connection = new RelayConnection(
    url,
    { onOpen: () => (opened = true), onFrame: () => {}, onDisconnect: () => {} },
    { backoff: { initialMs: 50, maxMs: 100 }, connectTimeoutMs: 5000, maxPayload: 1 << 20 },
  );
  connections.push(connection);
  connection.start();
  await until(() => opened, 8000, 'the connection to open');
  return connection;
}

describe('RelayConnection', () => {
  it('sends the frames of one turn in one write to the socket, in order', async () => {
    const { url, received } = await recordingServer();
    const connection = await openConnection(url);
    const writev = vi.spyOn(Socket.prototype, '_writev' as never);
    const write = vi.spyOn(Socket.prototype, '_write' as never);
    const frames = Array.from({ length: 10 }, (_, i) => JSON.stringify(['EVENT', { n: i }]));
    for (const frame of frames) expect(connection.send(frame)).toBe(true);
    await until(() => received.length === frames.length, 8000, 'every frame at the server');
    expect(received).toEqual(frames);
    // Uncorked, each frame is its own write (ws writes a frame's header and payload together).
    expect(writev.mock.calls.length + write.mock.calls.length).toBe(1);
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
});
