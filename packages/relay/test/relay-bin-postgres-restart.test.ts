// Two `xprotocol-relay` processes on one Postgres database that is restarted under them (a fast
// shutdown that ends every connection, then a start on the same data): while it is down a publish
// is refused with OK false, never acknowledged and lost; once it is back both relays store and
// fan out again without a restart of their own, and a live subscriber of the other relay gets the
// events committed after the restart (its listening connection is made again).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RelayEvent } from '../src/index.js';
import { type Frame, makeEvent, newSecret, TestClient } from './support/client.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { killBins, startBin, stopBin } from './support/relay-bin.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop(), 60_000);
afterEach(killBins);

const isEvent = (subscription: string, id: string) => (f: Frame) =>
  f[0] === 'EVENT' && f[1] === subscription && (f[2] as RelayEvent).id === id;

/** Publishes fresh events until one is accepted; resolves with it and the refusals before it. */
async function publishUntilAccepted(
  publisher: TestClient,
  secret: Uint8Array,
  timeoutMs: number,
): Promise<{ accepted: RelayEvent; refused: Frame[] }> {
  const deadline = Date.now() + timeoutMs;
  const refused: Frame[] = [];
  for (let n = 0; ; n++) {
    const event = makeEvent(secret, { kind: 'com.test.shared', content: `after restart ${n}` });
    const ok = await publisher.publish(event);
    if (ok[2] === true) return { accepted: event as RelayEvent, refused };
    refused.push(ok);
    if (Date.now() > deadline) {
      throw new Error(`no publish accepted ${timeoutMs} ms after the restart; last: ${JSON.stringify(ok)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('xprotocol-relay on Postgres: the database restarts under two relays', () => {
  it('refuses while the database is down and serves again, across both relays, once it is back', async () => {
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([
      startBin(['--port', '0', '--db', url]),
      startBin(['--port', '0', '--db', url]),
    ]);
    const publisher = await TestClient.connect(a.url);
    const onB = await TestClient.connect(b.url);
    await onB.request('live', { kinds: ['com.test.shared'] });
    const secret = newSecret();

    const before = makeEvent(secret, { kind: 'com.test.shared', content: 'before' });
    expect(await publisher.publish(before)).toEqual(['OK', before.id, true, '']);
    await onB.waitFor(isEvent('live', before.id));

    let whileDown: Frame | undefined;
    const during = makeEvent(secret, { kind: 'com.test.shared', content: 'while down' });
    await server.restart(async () => {
      whileDown = await publisher.publish(during);
    });
    // Refused, with a reason: the publisher knows to send it again.
    expect(whileDown?.[2]).toBe(false);
    expect(String(whileDown?.[3])).toMatch(/^error: could not store the event: .*ECONNREFUSED/);

    // Back: accepted by the relay that had refused, delivered live by the other one.
    const { accepted } = await publishUntilAccepted(publisher, secret, 30_000);
    await onB.waitFor(isEvent('live', accepted.id), 10_000);
    // The refused event was not stored: sent again now, it is new, not a duplicate.
    expect(await publisher.publish(during)).toEqual(['OK', during.id, true, '']);
    await onB.waitFor(isEvent('live', during.id), 10_000);
    // The relays kept running through it and stop cleanly.
    publisher.close();
    onB.close();
    expect(await stopBin(a)).toBe(0);
    expect(await stopBin(b)).toBe(0);
  }, 120_000);
});
