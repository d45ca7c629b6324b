// The relay suite's baseline: a bare WebSocket server (the same `ws` library the relay uses) that
// answers every EVENT with OK at once and, for fan-out, forwards it to every open REQ, with no
// verification, storage or filters. What the relay adds is measured against it.
// Usage: node ws-stub.mjs  → prints ws://127.0.0.1:<port> on stdout.
import { WebSocketServer } from 'ws';

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
/** @type {Map<import('ws').WebSocket, string[]>} socket → its subscription ids */
const subscriptions = new Map();

server.on('connection', (socket) => {
  subscriptions.set(socket, []);
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString('utf8'));
    if (frame[0] === 'EVENT') {
      const event = frame[1];
      socket.send(JSON.stringify(['OK', event.id, true, '']));
      for (const [peer, ids] of subscriptions) {
        for (const id of ids) peer.send(JSON.stringify(['EVENT', id, event]));
      }
    } else if (frame[0] === 'REQ') {
      subscriptions.get(socket).push(frame[1]);
      socket.send(JSON.stringify(['EOSE', frame[1]]));
    }
  });
  socket.on('close', () => subscriptions.delete(socket));
});
server.on('listening', () => {
  console.log(`ws://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => process.exit(0));
