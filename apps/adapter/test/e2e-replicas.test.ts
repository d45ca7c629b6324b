// Adapter replicas on Postgres (docs/deploy.md): two relays on one Postgres database, three adapter
// bins with one key sharing their call journal and outbox in the same database, each wrapping its
// own stdio MCP server that records every call it runs in its own file. A caller publishes 200
// sealed calls to both relays, so every replica receives every request twice. One replica is
// killed with SIGKILL while calls run; the survivors take over its lease. Then: no call ran twice
// across the three servers, every request has exactly one answer event, a call answered with a
// result ran exactly once, and only a call the killed replica had started is answered
// `UPSTREAM_ERROR` (interrupted).
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PublicIdentity, sealEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapperConfig } from './support/adapter-configs.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { Processes } from './support/processes.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'rug-pull-server.mjs');
const ADD = {
  name: 'add',
  description: 'Adds two numbers a and b and returns their sum, for quick arithmetic in a conversation.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};
const CALLS = 200;
const REPLICAS = ['r1', 'r2', 'r3'];

const procs = new Processes();
let postgres: TestPostgres | undefined;
let pool: RelayPool | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pool?.close();
  await procs.close();
  await postgres?.stop();
});

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

/** The calls (their `a`) one replica's server ran, one entry per run. */
function runsOf(effects: string): number[] {
  if (!existsSync(effects)) return [];
  return readFileSync(effects, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line.slice(line.indexOf(' ') + 1)) as { a: number }).a);
}

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

    const identity = await readKeyFile(client.path, { signatures: nodeSignatures, cipher: nodeCipher });
    pool = await RelayPool.open({ urls: relayUrls, reconnect: { initialMs: 200, maxMs: 500 } });
    const caller = new XpCaller({ identity, pool, signatures: nodeSignatures, cipher: nodeCipher });
    const target: PublicIdentity = (await caller.resolve(key.ed25519, 30_000)).keys;
    const now = Math.floor(Date.now() / 1000);
    const requests: XpEvent[] = Array.from({ length: CALLS }, (_, i) =>
      sealEvent(
        { kind: 'com.test.replicas.add', payload: { a: i, b: 1000 }, created_at: now, expiration: now + 600 },
        identity,
        target,
        { signatures: nodeSignatures, cipher: nodeCipher },
      ),
    );
    const byRequest = new Map(requests.map((request, i) => [request.id, i]));
    // Every distinct answer event per request, from whichever replica and relay it came.
    const answers = new Map<string, Map<string, XpEvent>>();
    pool.subscribe([{ '#e': [...byRequest.keys()], authors: [target.ed25519] }], {
      onEvent: (answer) => {
        const request = answer.tags.find((tag) => tag[0] === 'e')?.[1];
        if (request === undefined || !byRequest.has(request)) return;
        const seen = answers.get(request) ?? new Map<string, XpEvent>();
        seen.set(answer.id, answer);
        answers.set(request, seen);
      },
    });
    await Promise.all(requests.map((request) => pool!.publish(request)));

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
    await Promise.all(requests.map((request) => pool!.publish(request)));
    await new Promise((r) => setTimeout(r, 2000));

    const runs = new Map<number, number>();
    const perReplica = REPLICAS.map((name) => runsOf(effectsOf(name)));
    for (const a of perReplica.flat()) runs.set(a, (runs.get(a) ?? 0) + 1);
    // No call ran twice, on one server or across them; each survivor did a share of the work.
    expect([...runs].filter(([, count]) => count > 1)).toEqual([]);
    expect(perReplica[1]!.length).toBeGreaterThan(0);
    expect(perReplica[2]!.length).toBeGreaterThan(0);
    let results = 0;
    let interrupted = 0;
    for (const [requestId, i] of byRequest) {
      const distinct = [...(answers.get(requestId)?.values() ?? [])];
      expect(
        distinct.map((answer) => answer.kind),
        `answers to call ${i}`,
      ).toHaveLength(1);
      const answer = distinct[0]!;
      const opened = caller.open(answer);
      if (answer.kind === 'com.test.replicas.add.result') {
        results++;
        expect(runs.get(i), `runs of call ${i}, answered with a result`).toBe(1);
        expect(opened.plaintext).toContain(String(i + 1000));
      } else {
        // Only a call the killed replica had started is answered without a result, by a survivor.
        expect(answer.kind).toBe('xp.error');
        expect(JSON.parse(opened.plaintext)).toMatchObject({ code: 'UPSTREAM_ERROR' });
        expect(opened.plaintext).toMatch(/interrupted: another adapter replica stopped/);
        expect(runs.get(i) ?? 0).toBeLessThanOrEqual(1);
        interrupted++;
      }
    }
    expect(results + interrupted).toBe(CALLS);
    expect(results).toBeGreaterThan(0);
  }, 420_000);
});
