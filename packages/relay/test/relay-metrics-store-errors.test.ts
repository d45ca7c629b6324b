// The relay's store failures in its metrics: a relay on loopback (startRelay with `admin`) over a
// store whose commits and reads fail on demand — the fault a full disk or a lost database gives.
// A publisher gets `OK false "error: …"`, and /metrics counts the refusal as `store_error` and the
// failed operations by name; the admin listener refuses a non-loopback bind without allowRemote.
import { describe, expect, it } from 'vitest';
import { MemoryEventStore, type PutOutcome, type RelayEvent, startRelay } from '../src/index.js';
import { makeEvent, newSecret, TestClient } from './support/client.js';

/** A memory store whose put and query fail while `failing` is set. */
class FailingStore extends MemoryEventStore {
  failing = false;

  override async put(event: RelayEvent, expiresAt: number): Promise<PutOutcome> {
    if (this.failing) throw new Error('disk full (injected)');
    return super.put(event, expiresAt);
  }

  override async query(...args: Parameters<MemoryEventStore['query']>): Promise<RelayEvent[]> {
    if (this.failing) throw new Error('database gone (injected)');
    return super.query(...args);
  }
}

function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('relay metrics: store failures', () => {
  it('counts a failed commit as a store_error refusal and the failed put and query by operation', async () => {
    const store = new FailingStore();
    const relay = await startRelay({ store, admin: { port: 0 } });
    try {
      expect(relay.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const client = await TestClient.connect(relay.url);
      store.failing = true;
      const refused = await client.publish(makeEvent(newSecret()));
      expect(refused[2]).toBe(false);
      expect(String(refused[3])).toMatch(/^error: could not store the event: disk full/);
      const closed = await client.request('s', { kinds: ['com.test.echo'] });
      expect(closed).toEqual([]);
      expect(client.frames.some((f) => f[0] === 'CLOSED' && f[1] === 's')).toBe(true);
      store.failing = false;
      expect((await client.publish(makeEvent(newSecret())))[2]).toBe(true);
      client.close();

      const body = await (await fetch(relay.adminUrl!)).text();
      expect(sample(body, 'xprotocol_relay_events_refused_total{reason="store_error"}')).toBe(1);
      expect(sample(body, 'xprotocol_relay_store_errors_total{operation="put"}')).toBe(1);
      expect(sample(body, 'xprotocol_relay_store_errors_total{operation="query"}')).toBe(1);
      expect(sample(body, 'xprotocol_relay_store_errors_total{operation="expire"}')).toBe(0);
      expect(sample(body, 'xprotocol_relay_events_accepted_total')).toBe(1);
    } finally {
      await relay.close();
    }
  });

  it('refuses admin options that would expose the metrics without a token', async () => {
    await expect(startRelay({ admin: { port: 0, host: '0.0.0.0' } })).rejects.toThrow(
      /admin\.host 0\.0\.0\.0 is not a loopback address: give admin\.allowRemote \(with admin\.token\)/,
    );
    await expect(startRelay({ admin: { port: 0, host: '0.0.0.0', allowRemote: true } })).rejects.toThrow(
      /admin\.allowRemote needs admin\.token/,
    );
  });
});
