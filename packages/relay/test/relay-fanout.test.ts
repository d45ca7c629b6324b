// Fan-out does not wait for the commit: live subscribers get a checked event while its batch is
// still being written; the publisher's OK still waits for the commit. These tests hold the commit
// open with a store whose puts resolve only when released.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryEventStore, type PutOutcome, type Relay, type RelayEvent, startRelay } from '../src/index.js';
import { type Frame, makeEvent, newSecret, TestClient } from './support/client.js';

/** A store whose puts stay uncommitted until `commit()` (or fail on `fail()`). */
class HeldCommitStore extends MemoryEventStore {
  #held: { settle: () => void; fail: (error: Error) => void }[] = [];
  puts = 0;
  override put(event: RelayEvent, expiresAt: number): Promise<PutOutcome> {
    this.puts++;
    return new Promise((resolve, reject) => {
      this.#held.push({
        settle: () => resolve(super.put(event, expiresAt)),
        fail: reject,
      });
    });
  }
  commit(): void {
    for (const held of this.#held.splice(0)) held.settle();
  }
  fail(message: string): void {
    for (const held of this.#held.splice(0)) held.fail(new Error(message));
  }
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};
const isEvent = (id: string) => (f: Frame) => f[0] === 'EVENT' && (f[2] as RelayEvent).id === id;
const isOk = (id: string) => (f: Frame) => f[0] === 'OK' && f[1] === id;

let relay: Relay | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

describe('relay: fan-out while the commit is pending', () => {
  it('delivers to a live subscription before the commit, and answers OK only after it', async () => {
    const store = new HeldCommitStore();
    relay = await startRelay({ port: 0, store });
    const subscriber = await TestClient.connect(relay.url);
    const publisher = await TestClient.connect(relay.url);
    await subscriber.request('live', { kinds: ['com.test.fanout'] });
    const event = makeEvent(newSecret(), { kind: 'com.test.fanout' });
    publisher.send(['EVENT', event]);
    await subscriber.waitFor(isEvent(event.id));
    expect(publisher.frames.some(isOk(event.id)), 'OK before the commit').toBe(false);
    store.commit();
    expect((await publisher.waitFor(isOk(event.id)))[2]).toBe(true);
    subscriber.close();
    publisher.close();
  });

  it('gives a REQ registered during the commit the in-flight event exactly once', async () => {
    const store = new HeldCommitStore();
    relay = await startRelay({ port: 0, store });
    const publisher = await TestClient.connect(relay.url);
    const late = await TestClient.connect(relay.url);
    const event = makeEvent(newSecret(), { kind: 'com.test.fanout' });
    publisher.send(['EVENT', event]);
    await until(() => store.puts === 1);
    // Not in the store's answer (uncommitted), not live when it was broadcast: after EOSE.
    await late.request('late', { kinds: ['com.test.fanout'] });
    await late.waitFor(isEvent(event.id));
    expect(late.frames.filter((f) => f[1] === 'late').map((f) => f[0])).toEqual(['EOSE', 'EVENT']);
    store.commit();
    await publisher.waitFor(isOk(event.id));
    // A fresh REQ now reads it from the store; the late subscription got it once.
    expect((await late.request('again', { ids: [event.id] })).map((e) => e.id)).toEqual([event.id]);
    expect(late.eventsFor('late').map((e) => e.id)).toEqual([event.id]);
    publisher.close();
    late.close();
  });

  it('answers a copy of an in-flight event after the commit, as a duplicate, and delivers it once', async () => {
    const store = new HeldCommitStore();
    relay = await startRelay({ port: 0, store });
    const subscriber = await TestClient.connect(relay.url);
    const first = await TestClient.connect(relay.url);
    const second = await TestClient.connect(relay.url);
    await subscriber.request('live', { kinds: ['com.test.fanout'] });
    const event = makeEvent(newSecret(), { kind: 'com.test.fanout' });
    first.send(['EVENT', event]);
    await until(() => store.puts === 1);
    second.send(['EVENT', event]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.frames.some(isOk(event.id)), 'duplicate answered before the commit').toBe(false);
    store.commit();
    expect((await first.waitFor(isOk(event.id))).slice(2)).toEqual([true, '']);
    const duplicate = await second.waitFor(isOk(event.id));
    expect(duplicate[2]).toBe(true);
    expect(String(duplicate[3])).toMatch(/^duplicate:/);
    expect(store.puts).toBe(1);
    expect(subscriber.eventsFor('live').map((e) => e.id)).toEqual([event.id]);
    subscriber.close();
    first.close();
    second.close();
  });

  it('answers OK false "error:" to the publisher and to a copy when the commit fails', async () => {
    const store = new HeldCommitStore();
    relay = await startRelay({ port: 0, store });
    const first = await TestClient.connect(relay.url);
    const second = await TestClient.connect(relay.url);
    const event = makeEvent(newSecret(), { kind: 'com.test.fanout' });
    first.send(['EVENT', event]);
    await until(() => store.puts === 1);
    second.send(['EVENT', event]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    store.fail('disk full');
    for (const client of [first, second]) {
      const ok = await client.waitFor(isOk(event.id));
      expect(ok[2]).toBe(false);
      expect(String(ok[3])).toMatch(/^error: could not store the event: disk full/);
    }
    // Not remembered as stored: a retry is stored and answered OK true.
    const retry = first.publish(event);
    await until(() => store.puts === 2);
    store.commit();
    expect((await retry)[2]).toBe(true);
    first.close();
    second.close();
  });
});
