/**
 * Frames on a real relay connection (`@xprotocol/relay` on loopback, one WebSocket): each frame is
 * answered by rule before the next request is — a frame that does not parse by a NOTICE, an EVENT
 * by an OK (or a NOTICE), a REQ by EOSE or CLOSED — and the connection keeps working.
 * @module
 */
import { startRelay } from '@xprotocol/relay';
import { CLIENT_MESSAGE_TYPES, parseClientMessage } from '@xprotocol/wire';
import { WebSocket } from 'ws';
import { frame } from '../arbitraries.js';
import { type FuzzTarget, rule } from '../target.js';

export const relayConnection: FuzzTarget<string> = {
  name: 'relay-connection',
  rule: 'each frame sent to a relay is answered by rule (NOTICE, OK, EOSE or CLOSED) and the connection keeps working',
  weight: 3,
  async open() {
    const relay = await startRelay({ port: 0, eventsPerMinutePerKey: 1_000_000 });
    const socket = new WebSocket(relay.url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    let received: unknown[][] = [];
    let onMessage: (() => void) | undefined;
    socket.on('message', (data) => {
      received.push(JSON.parse(String(data)) as unknown[]);
      onMessage?.();
    });
    let next = 0;
    return {
      arbitrary: frame(CLIENT_MESSAGE_TYPES),
      check: async (text: string) => {
        const probe = `probe-${++next}`;
        received = [];
        const done = new Promise<void>((resolve) => {
          onMessage = () => {
            if (received.some((m) => m[0] === 'EOSE' && m[1] === probe)) resolve();
          };
        });
        socket.send(text);
        socket.send(JSON.stringify(['REQ', probe, { ids: ['0'.repeat(64)] }]));
        await done;
        socket.send(JSON.stringify(['CLOSE', probe]));
        const parsed = parseClientMessage(text);
        const before = received.slice(
          0,
          received.findIndex((m) => m[0] === 'EOSE' && m[1] === probe),
        );
        if (!parsed.ok) {
          rule(
            before.some((m) => m[0] === 'NOTICE'),
            `a frame that does not parse got no NOTICE: ${parsed.reason}`,
          );
        } else if (parsed.message.type === 'EVENT' || parsed.message.type === 'AUTH') {
          rule(
            before.some((m) => m[0] === 'OK' || m[0] === 'NOTICE'),
            `${parsed.message.type} got no OK or NOTICE`,
          );
        } else if (parsed.message.type === 'REQ') {
          const id = parsed.message.subscriptionId;
          rule(
            before.some((m) => (m[0] === 'EOSE' || m[0] === 'CLOSED') && m[1] === id),
            'REQ got neither EOSE nor CLOSED',
          );
          socket.send(JSON.stringify(['CLOSE', id]));
        }
      },
      async close() {
        socket.close();
        await relay.close();
      },
    };
  },
};
