// The replicas' shared journal (state/shared-journal.ts) against a real Postgres server: one claim
// per request id however many replicas race for it; a replica that lost its lease can neither start
// nor answer what it claimed; and exactly one survivor adopts a dead replica's unsent answers and
// unfinished calls.
import { randomBytes } from 'node:crypto';
import type { XpEvent } from '@xprotocol/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdoptedWork, SharedJournal } from '../src/state/shared-journal.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';

let postgres: TestPostgres;
const journals: SharedJournal[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await Promise.all(journals.map((journal) => journal.close()));
  await postgres?.stop();
});

const endpoint = randomBytes(32).toString('hex');
const event = (n: number): XpEvent =>
  ({
    id: randomBytes(32).toString('hex'),
    pubkey: endpoint,
    kind: 'com.test.add',
    created_at: Math.floor(Date.now() / 1000),
    tags: [],
    content: String(n),
    sig: '',
  }) as XpEvent;

async function open(url: string, leaseSeconds: number): Promise<SharedJournal> {
  const journal = await SharedJournal.open({ url, endpoint, leaseSeconds });
  journals.push(journal);
  return journal;
}

describe('the shared journal on Postgres', () => {
  it('gives each request id to exactly one of the replicas that claim it at once', async () => {
    const url = await postgres.createDatabase();
    const replicas = await Promise.all([open(url, 30), open(url, 30), open(url, 30)]);
    const requests = Array.from({ length: 50 }, (_, i) => event(i));
    const wins = await Promise.all(
      requests.map(async (request) => {
        const claimed = await Promise.all(replicas.map((replica) => replica.claim(request)));
        return claimed.filter(Boolean).length;
      }),
    );
    expect(wins).toEqual(requests.map(() => 1));
  });

  it('hands a lapsed replica’s answers and unfinished calls to exactly one survivor', async () => {
    const url = await postgres.createDatabase();
    // The dead replica never renews its lease (it is never started): it lapses after 1 s.
    const dead = await open(url, 1);
    const [started, claimed, answered] = [event(1), event(2), event(3)];
    const answer = event(4);
    expect(await dead.claim(started)).toBe(true);
    await dead.started(started.id);
    expect(await dead.claim(claimed)).toBe(true);
    expect(await dead.claim(answered)).toBe(true);
    await dead.answered(answered.id, answer, answer.created_at + 600);

    const adopted: AdoptedWork[] = [];
    const survivors = [await open(url, 1), await open(url, 1)];
    await Promise.all(
      survivors.map((survivor) =>
        survivor.startLeases(async (work) => {
          adopted.push(work);
        }),
      ),
    );
    const deadline = Date.now() + 30_000;
    while (adopted.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // Past a few more renewals, still only one adoption.
    await new Promise((r) => setTimeout(r, 1500));
    expect(adopted).toHaveLength(1);
    const [work] = adopted;
    expect(work!.answers.map((entry) => entry.event.id)).toEqual([answer.id]);
    expect(work!.started.map((request) => request.id)).toEqual([started.id]);
    expect(work!.claimed.map((request) => request.id)).toEqual([claimed.id]);

    // The dead replica, come back, can no longer answer what it had started: the survivor does.
    await expect(dead.answered(started.id, event(5), answer.created_at + 600)).rejects.toThrow(
      /no longer owns it/,
    );
    await expect(dead.started(claimed.id)).rejects.toThrow(/no longer owns it/);
    // The answer waits in the survivor's outbox now, and a new claim of the same id still fails.
    const owner = survivors.find((survivor) => survivor.replica !== dead.replica)!;
    const pending = await Promise.all(survivors.map((survivor) => survivor.outbox.pending(0)));
    expect(pending.flat().map((entry) => entry.event.id)).toEqual([answer.id]);
    expect(await owner.claim(started)).toBe(false);
  });

  it('counts the replicas whose lease is live, for splitting rate limits, and forgets one that stopped', async () => {
    const url = await postgres.createDatabase();
    const replicas = [await open(url, 2), await open(url, 2), await open(url, 2)];
    await Promise.all(replicas.map((replica) => replica.startLeases(async () => {})));
    expect(replicas.map((replica) => replica.liveReplicas)).toEqual([3, 3, 3]);
    await replicas[2]!.close();
    const deadline = Date.now() + 30_000;
    while (replicas[0]!.liveReplicas !== 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(replicas[0]!.liveReplicas).toBe(2);
  });

  it('never shows the password of the database URL in an error', async () => {
    const url = await postgres.createDatabase();
    const wrong = url.replace(`:${postgres.password}@`, ':not-the-password-7f3a@');
    const failure = await SharedJournal.open({ url: wrong, endpoint, leaseSeconds: 5 }).catch((e) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(String(failure.message)).toMatch(
      /cannot open the shared state database postgres:\/\/[^:]+:\*\*\*@/,
    );
    expect(String(failure.message)).not.toContain('not-the-password-7f3a');
    const notPostgres = await SharedJournal.open({
      url: 'mysql://u:secret-pw@127.0.0.1/db',
      endpoint,
      leaseSeconds: 5,
    }).catch((e) => e);
    expect(String(notPostgres.message)).toMatch(
      /must be a postgres:\/\/user:password@host:port\/database URL/,
    );
    expect(String(notPostgres.message)).not.toContain('secret-pw');
  });
});
