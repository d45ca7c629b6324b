// Adapter replicas on Postgres (docs/deploy.md): two relays on one Postgres database, three adapter
// bins with one key sharing their call journal and outbox in the same database, each wrapping its
// own stdio MCP server that records every call it runs in its own file. A caller publishes 200
// sealed calls to both relays, so every replica receives every request twice. One replica is
// killed with SIGKILL while calls run; the survivors take over its lease. Then: no call ran twice
// across the three servers, every request has exactly one answer event, a call answered with a
// result ran exactly once, and only a call the killed replica had started is answered
// `UPSTREAM_ERROR` (interrupted).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapperConfig } from './support/adapter-configs.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { Processes } from './support/processes.js';
import {
  ADD_TOOL as ADD,
  exited,
  expectAtMostOnce,
  COUNTING_FIXTURE as FIXTURE,
  runsOf,
  type SealedBurst,
  sealedBurst,
  until,
} from './support/sealed-burst.js';

const CALLS = 200;
const REPLICAS = ['r1', 'r2', 'r3'];

const procs = new Processes();
let postgres: TestPostgres | undefined;
let burst: SealedBurst | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await burst?.pool.close();
  await procs.close();
  await postgres?.stop();
});

describe('adapter replicas with one key on one Postgres database', () => {
  it('runs no call twice and answers each once, with one replica killed mid-run', async () => {
    const url = await postgres!.createDatabase();
    const relays = await Promise.all([procs.relay(['--db', url]), procs.relay(['--db', url])]);
    const relayUrls = relays.map((relay) => relay.url);
    const key = await procs.keygen('b.key');
    const client = await procs.keygen('client.key');
    const toolsFile = procs.file('tools.json', JSON.stringify([ADD]));
    const effectsOf = (name: string) => join(procs.dir, `effects-${name}.txt`);
    const configOf = (name: string) =>
      procs.file(
        `${name}.yml`,
        `${wrapperConfig({
          keyFile: './b.key',
          relayUrl: relayUrls.join(', '),
          source: {
            name: 'fixture',
            namespace: 'com.test.replicas',
            body: `    transport: stdio
    command: "'${process.execPath}' '${FIXTURE}'"
    env:
      FIXTURE_TOOLS_FILE: ${toolsFile}
      FIXTURE_EFFECTS_FILE: ${effectsOf(name)}`,
          },
          sourceExtra: `    rate_limit:
      requests_per_minute: 1000000`,
          grantTo: client.ed25519,
          stateDatabase: `./${name}-state.db`,
        })}shared_state:
  database: ${url}
  lease_seconds: 3
`,
      );
    const replicas = await Promise.all(REPLICAS.map((name) => procs.adapter(configOf(name))));

    burst = await sealedBurst({
      callerKeyPath: client.path,
      relayUrls,
      endpointKey: key.ed25519,
      kind: 'com.test.replicas.add',
      calls: CALLS,
    });
    const { answers } = burst;
    await burst.publishAll();

    // Kill the first replica once it has run calls of its own and answers are flowing.
    await until(
      () => answers.size >= CALLS / 5 && runsOf(effectsOf('r1')).length > 0,
      120_000,
      'answers, and calls run by the first replica',
    );
    replicas[0]!.child.kill('SIGKILL');
    await exited(replicas[0]!.child);
    expect(answers.size).toBeLessThan(CALLS);

    // The survivors adopt its lease once it lapses (3 s): its answers, its interrupted calls.
    await until(() => answers.size === CALLS, 180_000, `an answer to each of the ${CALLS} requests`);
    // Publishing them all once more changes nothing: the replicas share what they ran.
    await burst.publishAll();
    await new Promise((r) => setTimeout(r, 2000));

    // No call ran twice, on one server or across them; only a call the killed replica had started
    // is answered without a result, by a survivor; each survivor did a share of the work.
    const perReplica = REPLICAS.map((name) => runsOf(effectsOf(name)));
    expectAtMostOnce(
      burst,
      perReplica.flat(),
      'com.test.replicas.add.result',
      /interrupted: another adapter replica stopped/,
    );
    expect(perReplica[1]!.length).toBeGreaterThan(0);
    expect(perReplica[2]!.length).toBeGreaterThan(0);
  }, 420_000);
});
