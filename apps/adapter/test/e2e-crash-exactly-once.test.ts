// The state database's group commit under a real crash (docs/architecture.md, "At most once"):
// adapter B wraps a stdio MCP server that records every call it runs in a file; a caller publishes
// 200 sealed calls at once; B is killed with SIGKILL while batches of `started` and answer records
// are in flight, then restarted on the same state database, and the relay delivers every stored
// request to it again. Whatever batch the kill cut through: no call runs twice, every request ends
// with exactly one answer event (an answer a caller could have seen is never replaced by an
// "interrupted" one), and a call that returned a result ran exactly once.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wrapperConfig } from './support/adapter-configs.js';
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

const CALLS = 200;

const procs = new Processes();
let burst: SealedBurst | undefined;
afterAll(async () => {
  await burst?.pool.close();
  await procs.close();
});

describe('crash: SIGKILL while the state database commits batches', () => {
  it('runs no call twice and gives every request exactly one answer after the restart', async () => {
    const port = await freePort();
    const { url: relayUrl } = await procs.relay([
      '--port',
      String(port),
      '--db',
      join(procs.dir, 'relay.db'),
    ]);
    const b = await procs.keygen('b.key');
    const client = await procs.keygen('client.key');
    const effects = join(procs.dir, 'effects.txt');
    const toolsFile = procs.file('tools.json', JSON.stringify([ADD]));
    const config = procs.file(
      'b.yml',
      wrapperConfig({
        keyFile: './b.key',
        relayUrl,
        source: {
          name: 'fixture',
          namespace: 'com.test.crash',
          body: `    transport: stdio
    command: "'${process.execPath}' '${FIXTURE}'"
    env:
      FIXTURE_TOOLS_FILE: ${toolsFile}
      FIXTURE_EFFECTS_FILE: ${effects}`,
        },
        sourceExtra: `    rate_limit:
      requests_per_minute: 1000000`,
        grantTo: client.ed25519,
        stateDatabase: './b-state.db',
      }),
    );
    const first = await procs.adapter(config);

    burst = await sealedBurst({
      callerKeyPath: client.path,
      relayUrls: [relayUrl],
      endpointKey: b.ed25519,
      kind: 'com.test.crash.add',
      calls: CALLS,
    });
    const { answers } = burst;
    await burst.publishAll();

    // Kill B in mid-stream: answers are going out, later calls are running, and their `started`
    // and answer records are being committed in batches.
    await until(() => answers.size >= 40, 60_000, 'the first 40 answers');
    first.child.kill('SIGKILL');
    await exited(first.child);
    const answeredBeforeKill = answers.size;
    expect(answeredBeforeKill).toBeLessThan(CALLS);

    // The same state database; the relay delivers all 200 stored requests to it again.
    await procs.adapter(config);
    await until(() => answers.size === CALLS, 120_000, `an answer to each of the ${CALLS} requests`);
    // Publishing them all once more changes nothing (the relay and B both know them).
    await burst.publishAll();
    await new Promise((r) => setTimeout(r, 1500));

    // No call ran twice; only a call the kill cut off after its `started` record is answered
    // without a result.
    expectAtMostOnce(burst, runsOf(effects), 'com.test.crash.add.result', /interrupted/);
  }, 300_000);
});
