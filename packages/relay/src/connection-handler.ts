/**
 * A client's socket from connect to close: registered with the relay, its frames parsed and
 * dispatched — `EVENT` to admission, `REQ`, `CLOSE` and `AUTH` in the order they were sent after
 * the events before them — and its pongs counted for the keep-alive.
 * @module
 */
import { parseClientMessage, reason, relayMessage } from '@xprotocol/wire';
import type { RawData, WebSocket } from 'ws';
import { _ClientConnection } from './client-connection.js';
import { _receiveEvent } from './event-admission.js';
import type { _RelayContext } from './relay-context.js';
import { _openSubscription } from './subscription-request.js';

/** Takes a new WebSocket: the relay serves it until it closes. */
export function _acceptConnection(context: _RelayContext, socket: WebSocket): void {
  const connection = new _ClientConnection(socket, context.settings.maxBuffered);
  context.connections.add(connection);
  context.stats.connections = context.connections.size;
  socket.on('pong', () => {
    connection.alive = true;
  });
  socket.on('message', (data, isBinary) => onFrame(context, connection, data, isBinary));
  socket.on('close', () => {
    context.connections.delete(connection);
    context.stats.connections = context.connections.size;
  });
  socket.on('error', () => {
    // A protocol error (e.g. a frame over maxPayload) closes the socket; 'close' cleans up.
  });
}

/** Parses a frame and hands it to its step; every frame but an EVENT waits for the events before it. */
function onFrame(
  context: _RelayContext,
  connection: _ClientConnection,
  data: RawData,
  isBinary: boolean,
): void {
  if (isBinary) {
    const why = reason('invalid', 'binary frames are not supported; send JSON text');
    connection.inOrder(() => connection.send(relayMessage.notice(why)));
    return;
  }
  const parsed = parseClientMessage(data.toString('utf8'));
  if (!parsed.ok) {
    const why = parsed.reason;
    connection.inOrder(() => connection.send(relayMessage.notice(why)));
    return;
  }
  const { message } = parsed;
  if (message.type === 'EVENT') _receiveEvent(context, connection, message.event);
  else if (message.type === 'REQ')
    connection.inOrder(
      () => void _openSubscription(context, connection, message.subscriptionId, message.filters),
    );
  else if (message.type === 'CLOSE')
    connection.inOrder(() => connection.subscriptions.delete(message.subscriptionId));
  else connection.inOrder(() => refuseAuth(connection, message.event));
}

// This relay sends no AUTH challenge, so an AUTH event answers nothing: refuse it like NIP-42
// refuses an unexpected one, by OK false when it names an id, else by NOTICE.
function refuseAuth(connection: _ClientConnection, raw: unknown): void {
  const id = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  const why = reason('restricted', 'this relay sends no AUTH challenge; publish and subscribe without AUTH');
  connection.send(
    typeof id === 'string' ? relayMessage.ok(id.slice(0, 64), false, why) : relayMessage.notice(why),
  );
}
