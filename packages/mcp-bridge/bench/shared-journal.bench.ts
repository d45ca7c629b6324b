// What replicas of one key cost their Postgres database per call (docs/scale.md): the journal's
// statements of one call (claim, started, answered with its outbox row, the outbox row removed
// after the relay's OK), for one replica alone and for three replicas that each receive every
// request and race to claim it. Each iteration runs a burst of 50 calls at once, as the endpoint
// does under load. A real Postgres server, started by the bench (test/support/postgres.ts).
import { randomBytes } from 'node:crypto';
import type { XpEvent } from '@xprotocol/crypto';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { SharedJournal } from '../src/state/shared-journal.js';
import { startPostgres, type TestPostgres } from '../test/support/postgres.js';

const BURST = 50;
const endpoint = randomBytes(32).toString('hex');
let postgres: TestPostgres | undefined;
const setups: Record<string, SharedJournal[]> = {};

beforeAll(async () => {
  postgres = await startPostgres();
  const open = async (url: string) => SharedJournal.open({ url, endpoint, leaseSeconds: 15 });
  setups.one = [await open(await postgres.createDatabase())];
  const shared = await postgres.createDatabase();
  setups.three = [await open(shared), await open(shared), await open(shared)];
}, 120_000);

afterAll(async () => {
  // docs/scale.md: what a finished call costs in the journal until it leaves the window.
  const journal = setups.one?.[0];
  if (journal) {
    const { rows } = await journal.query(
      `SELECT count(*)::int AS calls, pg_total_relation_size('xp_adapter_calls')::bigint AS bytes FROM xp_adapter_calls`,
      [],
    );
    const { calls, bytes } = rows[0] as { calls: number; bytes: string };
    console.log(`shared journal: ${calls} finished calls, ${Math.round(Number(bytes) / calls)} bytes each`);
  }
  await Promise.all(
    Object.values(setups)
      .flat()
      .map((journal) => journal.close()),
  );
  await postgres?.stop();
});

const request = (): XpEvent =>
  ({
    id: randomBytes(32).toString('hex'),
    pubkey: endpoint,
    kind: 'com.test.add',
    created_at: Math.floor(Date.now() / 1000),
    tags: [],
    content: 'x'.repeat(600),
    sig: '',
  }) as XpEvent;

/** One call's journal: every replica tries the claim; the one that got it runs the rest. */
async function call(replicas: SharedJournal[]): Promise<void> {
  const event = request();
  const claims = await Promise.all(replicas.map((replica) => replica.claim(event)));
  const owner = replicas[claims.indexOf(true)]!;
  await owner.started(event.id);
  const answer = request();
  await owner.answered(event.id, answer, answer.created_at + 600);
  await owner.outbox.remove(answer.id);
}

describe(`the shared journal of ${BURST} calls at once`, () => {
  bench(
    'one replica',
    () => Promise.all(Array.from({ length: BURST }, () => call(setups.one!))).then(() => {}),
    {
      time: 3000,
    },
  );
  bench(
    'three replicas racing for each claim',
    () => Promise.all(Array.from({ length: BURST }, () => call(setups.three!))).then(() => {}),
    { time: 3000 },
  );
});
