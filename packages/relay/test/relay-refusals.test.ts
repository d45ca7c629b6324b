// The relay reports each event it refuses to an observer (`onRefused`), with the reason its sender
// was told: dev tools show why an event went nowhere. A real relay, a real WebSocket client.
import { afterEach, describe, expect, it } from 'vitest';
import { type Relay, type RelayRefusal, startRelay } from '../src/index.js';
import { makeEvent, newSecret, TestClient } from './support/client.js';

let relay: Relay | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  client?.close();
  await relay?.close();
});

describe('onRefused', () => {
  it('reports a refused event with the reason its sender got, its claimed key and kind; an accepted one not at all', async () => {
    const refusals: RelayRefusal[] = [];
    relay = await startRelay({ port: 0, onRefused: (refusal) => refusals.push(refusal) });
    client = await TestClient.connect(relay.url);
    const good = makeEvent(newSecret());
    expect((await client.publish(good))[2]).toBe(true);
    const flipped = (Number.parseInt(good.sig[0]!, 16) ^ 1).toString(16);
    const tampered = { ...good, id: good.id, sig: flipped + good.sig.slice(1) };
    const ok = await client.publish(tampered);
    expect(ok[2]).toBe(false);
    expect(refusals).toEqual([{ id: good.id, reason: ok[3], pubkey: good.pubkey, kind: good.kind }]);
    expect(refusals[0]!.reason).toMatch(/^invalid: /);
  });

  it('an observer that throws does not break the relay', async () => {
    relay = await startRelay({
      port: 0,
      onRefused: () => {
        throw new Error('observer failed');
      },
    });
    client = await TestClient.connect(relay.url);
    const event = makeEvent(newSecret());
    const tampered = { ...event, content: `${event.content}!` };
    expect((await client.publish(tampered))[2]).toBe(false);
    expect((await client.publish(makeEvent(newSecret())))[2]).toBe(true);
  });
});
