// The kill test of docs/deploy.md: one Postgres, three relays on it, three adapter replicas with
// one key and one `state_database: postgres://…` (call journal, outbox, pins and names shared), each wrapping its own stdio MCP server that
// records every call it runs. A caller publishes 1,000 sealed calls through the relays. While
// they run, one relay and one replica are killed with SIGKILL, then started again (the relay on
// its port, the replica with its configuration). Then: every request has exactly one answer (its
// result, or the interrupted error for a call the killed replica had started), no call ran twice
// across the three servers, and every request and answer is still stored by the relays. The
// figures are printed: sent, answered, run at a server, run twice, lost.
import { join } from 'node:path';
import type { XpEvent } from '@xprotocol/crypto';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapperConfig } from './support/adapter-configs.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { freePort, Processes } from './support/processes.js';
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

const CALLS = 1000;
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

/** The ids among `ids` that the relay at `url` has stored (asked in pages of 100 ids). */
async function storedIds(url: string, ids: readonly string[]): Promise<Set<string>> {
  const pool = await RelayPool.open({ urls: [url], reconnect: { initialMs: 200, maxMs: 500 } });
  const found = new Set<string>();
  try {
    for (let at = 0; at < ids.length; at += 100) {
      const page = ids.slice(at, at + 100);
      await new Promise<void>((resolve, reject) => {
        const sub = pool.subscribe([{ ids: page, limit: page.length }], {
          onEvent: (event: XpEvent) => found.add(event.id),
          onEose: () => {
            sub.close();
            resolve();
          },
          onClosed: (_relay, reason) => reject(new Error(`the relay closed the query: ${reason}`)),
        });
      });
    }
  } finally {
    await pool.close();
  }
  return found;
}

describe('three relays and three adapter replicas on one Postgres database', () => {
  it('answers 1,000 calls once each, runs none twice, loses none, with a relay and a replica killed', async () => {
    const url = await postgres!.createDatabase();
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    const relayArgs = (port: number) => ['--port', String(port), '--db', url];
    const relays = await Promise.all(ports.map((port) => procs.relay(relayArgs(port))));
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
          // One state database for all three: the call journal, the outbox, pins and names.
          stateDatabase: url,
        })}shared_state:
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

    // Mid-run: the first relay and the first replica (once it has run calls of its own) die.
    await until(
      () => answers.size >= CALLS / 5 && runsOf(effectsOf('r1')).length > 0,
      240_000,
      'answers, and calls run by the first replica',
    );
    relays[0]!.child.kill('SIGKILL');
    replicas[0]!.child.kill('SIGKILL');
    await Promise.all([exited(relays[0]!.child), exited(replicas[0]!.child)]);
    const answeredAtKill = answers.size;
    expect(answeredAtKill).toBeLessThan(CALLS);

    // Both start again: the relay on its port and database, the replica as a new lease holder.
    relays[0] = await procs.relay(relayArgs(ports[0]!));
    replicas[0] = await procs.adapter(configOf('r1'));

    await until(() => answers.size === CALLS, 300_000, `an answer to each of the ${CALLS} requests`);
    // Publishing them all once more changes nothing: the replicas share what they ran.
    await burst.publishAll();
    await new Promise((r) => setTimeout(r, 2000));

    const perReplica = REPLICAS.map((name) => runsOf(effectsOf(name)));
    const runs = perReplica.flat();
    const count = new Map<number, number>();
    for (const a of runs) count.set(a, (count.get(a) ?? 0) + 1);
    const answerIds = [...answers.values()].flatMap((seen) => [...seen.keys()]);
    const stored = await storedIds(relays[0]!.url, [...burst.byRequest.keys(), ...answerIds]);
    const figures = {
      sent: CALLS,
      answered: [...answers.values()].filter((seen) => seen.size > 0).length,
      runAtServer: runs.length,
      runTwice: [...count.values()].filter((n) => n > 1).length,
      lost: CALLS - answers.size,
      answeredAtKill,
      runPerReplica: perReplica.map((r) => r.length),
      eventsMissingFromRelays: burst.byRequest.size + answerIds.length - stored.size,
    };
    console.log(`replica kill test: ${JSON.stringify(figures)}`);

    const tally = expectAtMostOnce(
      burst,
      runs,
      'com.test.replicas.add.result',
      /interrupted: another adapter replica stopped/,
    );
    console.log(`replica kill test answers: ${JSON.stringify(tally)}`);
    expect(figures.runTwice).toBe(0);
    expect(figures.lost).toBe(0);
    expect(figures.eventsMissingFromRelays).toBe(0);
    expect(perReplica[1]!.length).toBeGreaterThan(0);
    expect(perReplica[2]!.length).toBeGreaterThan(0);
  }, 900_000);
});
