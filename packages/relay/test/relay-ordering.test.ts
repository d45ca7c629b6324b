import { afterEach, describe, expect, it } from 'vitest';
import { type EventStore, MemoryEventStore, type Relay, type RelayEvent, startRelay } from '../src/index.js';
import { makeEvent, newSecret, TestClient } from './support/client.js';

/** A store whose queries wait until released: it holds a REQ in its loading phase. */
class SlowQueryStore extends MemoryEventStore {
  release: () => void = () => {};
  readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  queries = 0;
  override async query(...args: Parameters<EventStore['query']>): Promise<RelayEvent[]> {
    this.queries++;
    const result = await super.query(...args);
    await this.gate;
    return result;
  }
}

let relay: Relay | undefined;
afterEach(async () => {
  await relay?.close();
});

describe('relay: no gap between stored and live events', () => {
  it('delivers an event accepted while a REQ is loading exactly once, after EOSE', async () => {
    const store = new SlowQueryStore();
    relay = await startRelay({ port: 0, store });
    const subscriber = await TestClient.connect(relay.url);
    const publisher = await TestClient.connect(relay.url);
    const secret = newSecret();
    const before = makeEvent(secret, { kind: 'com.test.gap', content: 'before' });
    await store.put(before, Math.floor(Date.now() / 1000) + 60);
    subscriber.send(['REQ', 'g', { kinds: ['com.test.gap'] }]);
    while (store.queries === 0) await new Promise((r) => setTimeout(r, 5));
    // Accepted while the subscription is loading: must not be lost, must not be sent twice.
    const during = makeEvent(secret, { kind: 'com.test.gap', content: 'during' });
    expect((await publisher.publish(during))[2]).toBe(true);
    store.release();
    await subscriber.waitFor((f) => f[0] === 'EOSE' && f[1] === 'g');
    await subscriber.waitFor((f) => f[0] === 'EVENT' && (f[2] as RelayEvent).id === during.id);
    const after = makeEvent(secret, { kind: 'com.test.gap', content: 'after' });
    await publisher.publish(after);
    await subscriber.waitFor((f) => f[0] === 'EVENT' && (f[2] as RelayEvent).id === after.id);
    const kinds = subscriber.frames
      .filter((f) => f[1] === 'g')
      .map((f) => (f[0] === 'EVENT' ? (f[2] as RelayEvent).content : f[0]));
    expect(kinds).toEqual(['before', 'EOSE', 'during', 'after']);
    subscriber.close();
    publisher.close();
  });
});

describe("relay: one connection's events keep their order", () => {
  it('fans out a burst in the order it was sent while the signatures are checked in parallel', async () => {
    relay = await startRelay({ port: 0 });
    const subscriber = await TestClient.connect(relay.url);
    const publisher = await TestClient.connect(relay.url);
    subscriber.send(['REQ', 'o', { kinds: ['com.test.order'] }]);
    await subscriber.waitFor((f) => f[0] === 'EOSE' && f[1] === 'o');
    const secrets = [newSecret(), newSecret(), newSecret()];
    const events = Array.from({ length: 300 }, (_, i) =>
      makeEvent(secrets[i % 3]!, { kind: 'com.test.order', content: `n${i}`, tags: [['n', String(i)]] }),
    );
    // Every fourth event carries a bad signature: refused, and it must not hold the others up.
    const sent = events.map((event, i) => (i % 4 === 3 ? { ...event, sig: events[i - 1]!.sig } : event));
    for (const event of sent) publisher.send(['EVENT', event]);
    const valid = events.filter((_, i) => i % 4 !== 3);
    const last = valid.at(-1)!;
    await subscriber.waitFor((f) => f[0] === 'EVENT' && (f[2] as RelayEvent).id === last.id, 30_000);
    const received = subscriber.frames
      .filter((f) => f[0] === 'EVENT' && f[1] === 'o')
      .map((f) => (f[2] as RelayEvent).content);
    expect(received).toEqual(valid.map((e) => e.content));
    await publisher.waitFor(() => publisher.frames.filter((f) => f[0] === 'OK').length === 300, 30_000);
    const refused = publisher.frames.filter((f) => f[0] === 'OK' && f[2] === false);
    expect(refused).toHaveLength(75);
    subscriber.close();
    publisher.close();
  });

  it("answers a client's frames in the order it sent them, though events are checked off the thread", async () => {
    relay = await startRelay({ port: 0 });
    const client = await TestClient.connect(relay.url);
    const secret = newSecret();
    const frames: unknown[][] = [];
    const expected: string[] = [];
    for (let i = 0; i < 20; i++) {
      const event = makeEvent(secret, { kind: 'com.test.answers', content: `a${i}` });
      const bad = { ...event, sig: makeEvent(secret, { kind: 'com.test.other' }).sig };
      frames.push(['EVENT', bad], ['REQ', `r${i}`, { ids: [event.id] }]);
      expected.push(`OK ${bad.id}`, `EOSE r${i}`);
    }
    for (const frame of frames) client.send(frame);
    await client.waitFor((f) => f[0] === 'EOSE' && f[1] === 'r19', 30_000);
    const answers = client.frames
      .filter((f) => f[0] === 'OK' || f[0] === 'EOSE')
      .map((f) => `${f[0]} ${f[1]}`);
    expect(answers).toEqual(expected);
    client.close();
  });
});
