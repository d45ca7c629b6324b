import { formatKey } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Relay, startRelay } from '../src/index.js';
import { makeEvent, newSecret, TestClient } from './support/client.js';

let relay: Relay;
const clients: TestClient[] = [];
const connect = async () => {
  const client = await TestClient.connect(relay.url);
  clients.push(client);
  return client;
};

beforeEach(async () => {
  relay = await startRelay({ port: 0 });
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await relay.close();
});

describe('relay: accepting events', () => {
  it('binds to loopback and prints a ws:// URL', () => {
    expect(relay.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  });

  it('rejects with LISTEN_FAILED, not a crash, when the port is taken', async () => {
    await expect(startRelay({ port: relay.port })).rejects.toMatchObject({
      code: 'LISTEN_FAILED',
      message: expect.stringMatching(/EADDRINUSE/),
    });
  });

  it('accepts a signed event, stores it and serves it to a REQ', async () => {
    const client = await connect();
    const event = makeEvent(newSecret());
    expect(await client.publish(event)).toEqual(['OK', event.id, true, '']);
    const found = await client.request('s1', { ids: [event.id] });
    expect(found).toEqual([event]);
  });

  it('answers a duplicate with OK true and the duplicate: prefix, and stores it once', async () => {
    const client = await connect();
    const event = makeEvent(newSecret());
    await client.publish(event);
    const again = await client.publish(event);
    expect(again[2]).toBe(true);
    expect(again[3]).toMatch(/^duplicate: /);
    expect(await client.request('s', { ids: [event.id] })).toHaveLength(1);
    expect(relay.stats().duplicates).toBe(1);
  });

  it('refuses a tampered signature with invalid: and stores nothing', async () => {
    const client = await connect();
    const event = makeEvent(newSecret());
    const flipped = (Number.parseInt(event.sig[0]!, 16) ^ 1).toString(16);
    const tampered = { ...event, sig: flipped + event.sig.slice(1) };
    const ok = await client.publish(tampered);
    expect(ok[2]).toBe(false);
    expect(ok[3]).toMatch(/^invalid: event\.sig/);
    expect(await client.request('s', { ids: [event.id] })).toEqual([]);
  });

  it('refuses a tampered content (the id no longer matches) with invalid:', async () => {
    const client = await connect();
    const event = makeEvent(newSecret());
    const ok = await client.publish({ ...event, content: 'changed' });
    expect(ok).toEqual([
      'OK',
      event.id,
      false,
      expect.stringMatching(/^invalid: event\.id: expected [0-9a-f]{64}/),
    ]);
  });

  it('refuses malformed events naming the field', async () => {
    const client = await connect();
    const event = makeEvent(newSecret());
    const ok = await client.publish({ ...event, created_at: -1 });
    expect(ok[3]).toMatch(/^invalid: event\.created_at: expected a non-negative safe integer/);
  });

  it('refuses events too far in the future and older than the retention', async () => {
    const client = await connect();
    const secret = newSecret();
    const now = Math.floor(Date.now() / 1000);
    const future = makeEvent(secret, { created_at: now + 3600 });
    expect((await client.publish(future))[3]).toMatch(/^invalid: created_at \d+ is more than 300 s ahead/);
    const stale = makeEvent(secret, { created_at: now - 7200 });
    expect((await client.publish(stale))[3]).toMatch(
      /^invalid: created_at \d+ is older than this relay's retention/,
    );
  });

  it('refuses an expired event and keeps an unexpired one until its expiration', async () => {
    const client = await connect();
    const secret = newSecret();
    const now = Math.floor(Date.now() / 1000);
    const expired = makeEvent(secret, { created_at: now - 10, tags: [['expiration', String(now - 5)]] });
    expect((await client.publish(expired))[3]).toMatch(/^invalid: event expired at/);
    const live = makeEvent(secret, { tags: [['expiration', String(now + 60)]] });
    expect((await client.publish(live))[2]).toBe(true);
  });

  it('answers an oversized event with too-large: instead of closing the socket', async () => {
    relay = await restartWith({ maxEventBytes: 2048 });
    const client = await connect();
    const event = makeEvent(newSecret(), { content: 'x'.repeat(4096) });
    const ok = await client.publish(event);
    expect(ok[2]).toBe(false);
    expect(ok[3]).toMatch(/^too-large: event is \d+ bytes; this relay accepts at most 2048/);
    expect(client.closed).toBeUndefined();
  });

  it('rate-limits per signing key with rate-limited: and a retry hint, other keys unaffected', async () => {
    relay = await restartWith({ eventsPerMinutePerKey: 3 });
    const client = await connect();
    const noisy = newSecret();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await client.publish(makeEvent(noisy, { content: `n${i}` })));
    expect(answers.slice(0, 3).every((a) => a[2] === true)).toBe(true);
    expect(answers[3]![2]).toBe(false);
    expect(answers[3]![3]).toMatch(/^rate-limited: slow down: retry after \d+ s/);
    expect((await client.publish(makeEvent(newSecret())))[2]).toBe(true);
  });

  it('sends NOTICE for frames that are not protocol messages, and keeps the connection', async () => {
    const client = await connect();
    client.socket.send('not json');
    expect(await client.waitFor((f) => f[0] === 'NOTICE')).toEqual([
      'NOTICE',
      'invalid: message is not valid JSON',
    ]);
    client.send(['PUBLISH', {}]);
    const notice = await client.waitFor((f) => f[0] === 'NOTICE' && String(f[1]).includes('PUBLISH'));
    expect(notice[1]).toMatch(/unknown message type "PUBLISH"; expected "EVENT", "REQ", "CLOSE" or "AUTH"/);
    expect((await client.publish(makeEvent(newSecret())))[2]).toBe(true);
  });

  it('refuses an AUTH it never asked for: OK false restricted when the event names an id', async () => {
    const client = await connect();
    client.send(['AUTH', { id: 'f'.repeat(64) }]);
    expect(await client.waitFor((f) => f[0] === 'OK' && f[1] === 'f'.repeat(64))).toEqual([
      'OK',
      'f'.repeat(64),
      false,
      'restricted: this relay sends no AUTH challenge; publish and subscribe without AUTH',
    ]);
    client.send(['AUTH', 42]);
    const notice = await client.waitFor((f) => f[0] === 'NOTICE' && String(f[1]).startsWith('restricted:'));
    expect(notice[1]).toMatch(/sends no AUTH challenge/);
  });
});

describe('relay: subscriptions', () => {
  it('filters by kinds, authors, #p, #e, since, until and limit (newest first)', async () => {
    const client = await connect();
    const alice = newSecret();
    const bob = newSecret();
    const bobKey = formatKey('ed25519', nodeSignatures.publicKey(bob));
    const now = Math.floor(Date.now() / 1000);
    const a1 = makeEvent(alice, { created_at: now - 30, kind: 'com.test.a' });
    const a2 = makeEvent(alice, { created_at: now - 20, kind: 'com.test.b', tags: [['p', bobKey]] });
    const b1 = makeEvent(bob, { created_at: now - 10, kind: 'com.test.a', tags: [['e', a1.id]] });
    for (const event of [a1, a2, b1]) await client.publish(event);
    expect((await client.request('k', { kinds: ['com.test.a'] })).map((e) => e.id)).toEqual([b1.id, a1.id]);
    expect((await client.request('au', { authors: [bobKey] })).map((e) => e.id)).toEqual([b1.id]);
    expect((await client.request('p', { '#p': [bobKey] })).map((e) => e.id)).toEqual([a2.id]);
    expect((await client.request('e', { '#e': [a1.id] })).map((e) => e.id)).toEqual([b1.id]);
    expect((await client.request('t', { since: now - 25, until: now - 15 })).map((e) => e.id)).toEqual([
      a2.id,
    ]);
    expect((await client.request('l', { limit: 2 })).map((e) => e.id)).toEqual([b1.id, a2.id]);
    // Several filters are ORed and an event matching two of them is sent once.
    expect(
      (await client.request('or', { ids: [a1.id] }, { kinds: ['com.test.a'] })).map((e) => e.id).sort(),
    ).toEqual([a1.id, b1.id].sort());
  });

  it('delivers live events after EOSE and stops after CLOSE', async () => {
    const subscriber = await connect();
    const publisher = await connect();
    await subscriber.request('live', { kinds: ['com.test.live'] });
    const first = makeEvent(newSecret(), { kind: 'com.test.live' });
    await publisher.publish(first);
    expect((await subscriber.waitFor((f) => f[0] === 'EVENT' && f[1] === 'live'))[2]).toEqual(first);
    subscriber.send(['CLOSE', 'live']);
    // A REQ round trip after CLOSE proves the relay processed it before the next publish.
    await subscriber.request('sync', { ids: ['0'.repeat(64)] });
    await publisher.publish(makeEvent(newSecret(), { kind: 'com.test.live' }));
    await subscriber.request('sync2', { ids: ['0'.repeat(64)] });
    expect(subscriber.eventsFor('live')).toEqual([first]);
  });

  it('refuses bad filters with CLOSED invalid: naming the filter', async () => {
    const client = await connect();
    client.send(['REQ', 'bad', { kinds: 'com.test.a' }]);
    const closed = await client.waitFor((f) => f[0] === 'CLOSED' && f[1] === 'bad');
    expect(closed[2]).toBe('invalid: filter 0: filter field kinds must be an array of strings');
    client.send(['REQ', 'bad2', { tags: ['x'] }]);
    const closed2 = await client.waitFor((f) => f[0] === 'CLOSED' && f[1] === 'bad2');
    expect(closed2[2]).toMatch(/unsupported filter field "tags"/);
  });

  it('ends the open subscription of a REQ refused for too many filters, as for a bad filter', async () => {
    relay = await restartWith({ maxFiltersPerRequest: 2 });
    const subscriber = await connect();
    const publisher = await connect();
    await subscriber.request('live', { kinds: ['com.test.more'] });
    subscriber.send(['REQ', 'live', { kinds: ['com.test.more'] }, {}, {}]);
    const closed = await subscriber.waitFor((f) => f[0] === 'CLOSED' && f[1] === 'live');
    expect(closed[2]).toBe('invalid: at most 2 filters per REQ');
    await publisher.publish(makeEvent(newSecret(), { kind: 'com.test.more' }));
    // The probe's EOSE comes after anything the relay sent this connection before it.
    await subscriber.request('probe', { ids: ['0'.repeat(64)] });
    expect(subscriber.eventsFor('live')).toEqual([]);
  });

  it('limits open subscriptions per connection with CLOSED restricted:', async () => {
    relay = await restartWith({ maxSubscriptionsPerConnection: 2 });
    const client = await connect();
    await client.request('a', { limit: 1 });
    await client.request('b', { limit: 1 });
    client.send(['REQ', 'c', { limit: 1 }]);
    expect((await client.waitFor((f) => f[0] === 'CLOSED' && f[1] === 'c'))[2]).toMatch(
      /^restricted: at most 2/,
    );
  });
});

async function restartWith(options: Parameters<typeof startRelay>[0]): Promise<Relay> {
  await relay.close();
  return startRelay({ port: 0, ...options });
}
