// The face's side of MCP sessions across XProtocol, closing (caller/xp-mcp-back-channel.ts): the
// session ends of the clients that just went away are published before the face finishes closing
// (the relay pool closes after it), and a one-way message the closing pool drops is logged at
// debug, never as a warning. A unit test with a stub caller whose publishes the test settles.
import { generateIdentity } from '@xprotocol/crypto';
import { MCP_SESSION_END_KIND } from '@xprotocol/wire';
import { describe, expect, it } from 'vitest';
import { _XpBackChannel } from '../src/caller/xp-mcp-back-channel.js';
import type { _LinkClient } from '../src/gateway/gateway-link.js';
import type { BridgeLogger, XpCaller } from '../src/index.js';

/** A publish the test settles: the relay's OK (`accept`) or the pool's refusal (`refuse`). */
interface Publish {
  kind: string;
  accept(): void;
  refuse(error: Error): void;
}

function setup() {
  const publishes: Publish[] = [];
  const caller = {
    keys: generateIdentity().keys,
    subscribe: () => ({ close() {} }),
    send: (message: { kind: string }) =>
      new Promise((resolve, reject) => {
        publishes.push({ kind: message.kind, accept: () => resolve({}), refuse: reject });
      }),
  } as unknown as XpCaller;
  const logged: { level: string; message: string }[] = [];
  const logger: BridgeLogger = {
    debug: (_fields, message) => logged.push({ level: 'debug', message }),
    info: (_fields, message) => logged.push({ level: 'info', message }),
    warn: (_fields, message) => logged.push({ level: 'warn', message }),
    error: (_fields, message) => logged.push({ level: 'error', message }),
  };
  const channel = new _XpBackChannel({ caller, logger });
  const client: _LinkClient = {
    capabilities: () => ({}),
    clientInfo: () => undefined,
    request: async () => ({}),
    notification: async () => {},
  };
  // The client's session talked to one endpoint, then the client went away.
  channel.begin(client, undefined, generateIdentity().keys).done();
  channel.end(client);
  return { channel, publishes, logged };
}

/** Lets every pending promise callback run (no timer involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('closing the MCP face: the session ends', () => {
  it('close() waits until a relay took the session end of a client that just went away', async () => {
    const { channel, publishes, logged } = setup();
    expect(publishes.map((p) => p.kind)).toEqual([MCP_SESSION_END_KIND]);
    let closed = false;
    const closing = channel.close().then(() => {
      closed = true;
    });
    await settle();
    expect(closed, 'close() returned before the relay took the session end').toBe(false);
    publishes[0]!.accept();
    await closing;
    expect(logged).toEqual([]);
  });

  it('a session end the closing relay pool refuses is logged at debug, not as a warning', async () => {
    const { channel, publishes, logged } = setup();
    const closing = channel.close();
    await settle();
    publishes[0]!.refuse(new Error('the relay pool closed; the event stays in the outbox'));
    await closing;
    expect(logged.map((l) => l.level)).toEqual(['debug']);
    expect(logged[0]!.message).toMatch(/not published: the face closed/);
  });

  it('while the face is open, a session end that fails is still a warning', async () => {
    const { channel, publishes, logged } = setup();
    publishes[0]!.refuse(new Error('no relay took the event'));
    await settle();
    expect(logged).toEqual([{ level: 'warn', message: 'a session message was not published' }]);
    await channel.close();
  });
});
