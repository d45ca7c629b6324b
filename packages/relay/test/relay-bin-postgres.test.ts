// Two `xprotocol-relay` processes (the built bin) on one Postgres database, started by this file
// from the npm packages (support/postgres.ts), with real WebSocket clients: an event accepted by
// either reaches the live subscribers of both, exactly once; `OK` comes after the commit; a copy
// published to the other process is stored once and answered as the duplicate it is; a burst
// (notifications coalesced) and a row committed with no notification at all still reach every
// subscriber. Bad database URLs are refused at start without printing the password.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RelayEvent } from '../src/index.js';
import { type Frame, makeEvent, newSecret, TestClient } from './support/client.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { killBins, type RelayBin, runBin, startBin, stopBin } from './support/relay-bin.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop(), 60_000);
afterEach(killBins);

const isEvent = (subscription: string, id: string) => (f: Frame) =>
  f[0] === 'EVENT' && f[1] === subscription && (f[2] as RelayEvent).id === id;

/** Two relays on a new database, a subscriber on each (kind `com.test.shared`), and a SQL client. */
async function twoRelays(): Promise<{
  a: RelayBin;
  b: RelayBin;
  onA: TestClient;
  onB: TestClient;
  sql: pg.Client;
  close: () => Promise<void>;
}> {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([
    startBin(['--port', '0', '--db', url]),
    startBin(['--port', '0', '--db', url]),
  ]);
  const onA = await TestClient.connect(a.url);
  const onB = await TestClient.connect(b.url);
  await onA.request('live', { kinds: ['com.test.shared'] });
  await onB.request('live', { kinds: ['com.test.shared'] });
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  return {
    a,
    b,
    onA,
    onB,
    sql,
    close: async () => {
      onA.close();
      onB.close();
      await sql.end();
      expect(await stopBin(a)).toBe(0);
      expect(await stopBin(b)).toBe(0);
    },
  };
}

const rowsWithId = async (sql: pg.Client, id: string) =>
  Number(
    (
      await sql.query('SELECT count(*) AS n FROM xprotocol_relay_events WHERE id = $1', [
        Buffer.from(id, 'hex'),
      ])
    ).rows[0].n,
  );

describe('xprotocol-relay on Postgres: several processes, one database', () => {
  it('delivers an event published to one relay to a live subscriber of the other, after the commit', async () => {
    const relays = await twoRelays();
    const publisher = await TestClient.connect(relays.a.url);
    const event = makeEvent(newSecret(), { kind: 'com.test.shared' });
    const ok = await publisher.publish(event);
    expect(ok).toEqual(['OK', event.id, true, '']);
    // OK only after COMMIT: another connection sees the row the moment OK arrives.
    expect(await rowsWithId(relays.sql, event.id)).toBe(1);
    await relays.onB.waitFor(isEvent('live', event.id));
    await relays.onA.waitFor(isEvent('live', event.id));
    // A later REQ on the other relay finds it stored.
    const reader = await TestClient.connect(relays.b.url);
    expect(await reader.request('stored', { ids: [event.id] })).toEqual([event]);
    reader.close();
    publisher.close();
    // Exactly once on each subscriber, including on the relay that accepted it.
    expect(relays.onA.eventsFor('live').filter((e) => e.id === event.id)).toHaveLength(1);
    expect(relays.onB.eventsFor('live').filter((e) => e.id === event.id)).toHaveLength(1);
    await relays.close();
  });

  it('stores an event published to both relays once; the second answer is the duplicate', async () => {
    const relays = await twoRelays();
    const toA = await TestClient.connect(relays.a.url);
    const toB = await TestClient.connect(relays.b.url);
    const secret = newSecret();
    // One after the other: B answers the copy as a duplicate.
    const first = makeEvent(secret, { kind: 'com.test.shared', content: 'first' });
    expect(await toA.publish(first)).toEqual(['OK', first.id, true, '']);
    expect(await toB.publish(first)).toEqual(['OK', first.id, true, 'duplicate: already have this event']);
    // At once: one relay stores it, the other answers duplicate.
    const both = makeEvent(secret, { kind: 'com.test.shared', content: 'both' });
    const answers = await Promise.all([toA.publish(both), toB.publish(both)]);
    expect(answers.map((frame) => frame[2])).toEqual([true, true]);
    expect(answers.map((frame) => frame[3]).sort()).toEqual(['', 'duplicate: already have this event']);
    for (const event of [first, both]) expect(await rowsWithId(relays.sql, event.id)).toBe(1);
    // Each subscriber got each event once (a later one shows nothing more was on its way).
    const last = makeEvent(secret, { kind: 'com.test.shared', content: 'last' });
    expect((await toA.publish(last))[2]).toBe(true);
    for (const subscriber of [relays.onA, relays.onB]) {
      await subscriber.waitFor(isEvent('live', last.id));
      expect(subscriber.eventsFor('live').map((e) => e.content)).toEqual(['first', 'both', 'last']);
    }
    toA.close();
    toB.close();
    await relays.close();
  });

  it('delivers a burst to the other relay complete and in order (notifications coalesced)', async () => {
    const relays = await twoRelays();
    const publisher = await TestClient.connect(relays.a.url);
    const secret = newSecret();
    const burst = Array.from({ length: 300 }, (_, n) =>
      makeEvent(secret, { kind: 'com.test.shared', content: `burst ${n}` }),
    );
    for (const event of burst) publisher.send(['EVENT', event]);
    await publisher.waitFor((f) => f[0] === 'OK' && f[1] === burst.at(-1)!.id, 20_000);
    await relays.onB.waitFor(isEvent('live', burst.at(-1)!.id), 20_000);
    expect(relays.onB.eventsFor('live').map((e) => e.content)).toEqual(burst.map((e) => e.content));
    const committed = await relays.sql.query('SELECT count(*) AS n FROM xprotocol_relay_events');
    expect(Number(committed.rows[0].n)).toBe(burst.length);
    publisher.close();
    await relays.close();
  });

  it('delivers an event committed without a notification (a lost NOTIFY) with the next read', async () => {
    const relays = await twoRelays();
    const secret = newSecret();
    const silent = makeEvent(secret, { kind: 'com.test.shared', content: 'silent' });
    // Written as the store writes a row, minus the NOTIFY that would wake the relays.
    await relays.sql.query(
      `INSERT INTO xprotocol_relay_events (id, pubkey, kind, created_at, expires_at, tags, json)
       VALUES ($1, $2, $3, $4, $5, '{}', $6)`,
      [
        Buffer.from(silent.id, 'hex'),
        Buffer.from(silent.pubkey.slice(8), 'hex'),
        silent.kind,
        silent.created_at,
        silent.created_at + 3600,
        JSON.stringify(silent),
      ],
    );
    const publisher = await TestClient.connect(relays.a.url);
    const next = makeEvent(secret, { kind: 'com.test.shared', content: 'next' });
    expect((await publisher.publish(next))[2]).toBe(true);
    for (const subscriber of [relays.onA, relays.onB]) {
      await subscriber.waitFor(isEvent('live', next.id));
      await subscriber.waitFor(isEvent('live', silent.id));
      expect(
        subscriber
          .eventsFor('live')
          .map((e) => e.content)
          .sort(),
      ).toEqual(['next', 'silent']);
    }
    publisher.close();
    await relays.close();
  });
});

describe('xprotocol-relay --db with a database URL', () => {
  it('names the unreachable database at start, without its password', async () => {
    const closed = `postgres://relay:hunter2-secret@127.0.0.1:1/nowhere`;
    const { code, stdout, stderr } = await runBin(['--port', '0', '--db', closed]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'cannot connect to the Postgres database postgres://relay:***@127.0.0.1:1/nowhere',
    );
    expect(stderr).toContain('ECONNREFUSED');
    expect(stderr).not.toContain('hunter2-secret');
  });

  it('says the password was refused, without printing it', async () => {
    const url = await server.createDatabase();
    const wrong = url.replace(`:${server.password}@`, ':hunter2-secret@');
    const { code, stderr } = await runBin(['--port', '0', '--db', wrong]);
    expect(code).toBe(1);
    expect(stderr).toContain('password authentication failed for user "relay"');
    expect(stderr).not.toContain('hunter2-secret');
    expect(stderr).not.toContain(server.password);
  });

  it('refuses a URL it cannot read or another scheme with exit 2', async () => {
    const bad = await runBin(['--port', '0', '--db', 'postgres://relay:hunter2-secret@127.0.0.1:port/x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--db expects');
    expect(bad.stderr).not.toContain('hunter2-secret');
    const other = await runBin(['--port', '0', '--db', 'mysql://relay@127.0.0.1/x']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('a SQLite file path or a postgres:// (postgresql://) URL, got "mysql:');
  });

  it('documents the database URL in --help', async () => {
    const { code, stdout } = await runBin(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--db FILE\|URL/);
    expect(stdout).toContain('postgres://');
  });

  it('says where it listens without the password', async () => {
    const url = await server.createDatabase();
    const relay = await startBin(['--port', '0', '--db', url]);
    expect(await stopBin(relay)).toBe(0);
    const log = relay.stderr.join('');
    expect(log).toContain(`database postgres://relay:***@127.0.0.1:${server.port}/`);
    expect(log).not.toContain(server.password);
  });
});
