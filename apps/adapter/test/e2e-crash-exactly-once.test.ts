// The state database's group commit under a real crash (docs/architecture.md, "At most once"):
// adapter B wraps a stdio MCP server that records every call it runs in a file; a caller publishes
// 200 sealed calls at once; B is killed with SIGKILL while batches of `started` and answer records
// are in flight, then restarted on the same state database, and the relay delivers every stored
// request to it again. Whatever batch the kill cut through: no call runs twice, every request ends
// with exactly one answer event (an answer a caller could have seen is never replaced by an
// "interrupted" one), and a call that returned a result ran exactly once.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PublicIdentity, sealEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, describe, expect, it } from 'vitest';
import { wrapperConfig } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'rug-pull-server.mjs');
const ADD = {
  name: 'add',
  description: 'Adds two numbers a and b and returns their sum, for quick arithmetic in a conversation.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'number', description: 'The first number' },
      b: { type: 'number', description: 'The second number' },
    },
    required: ['a', 'b'],
  },
};
const CALLS = 200;

const procs = new Processes();
let pool: RelayPool | undefined;
afterAll(async () => {
  await pool?.close();
  await procs.close();
});

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

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

    const identity = await readKeyFile(client.path, { signatures: nodeSignatures, cipher: nodeCipher });
    pool = await RelayPool.open({ urls: [relayUrl], reconnect: { initialMs: 200, maxMs: 500 } });
    const caller = new XpCaller({ identity, pool, signatures: nodeSignatures, cipher: nodeCipher });
    const target: PublicIdentity = (await caller.resolve(b.ed25519, 30_000)).keys;
    const now = Math.floor(Date.now() / 1000);
    const requests: XpEvent[] = Array.from({ length: CALLS }, (_, i) =>
      sealEvent(
        { kind: 'com.test.crash.add', payload: { a: i, b: 1000 }, created_at: now, expiration: now + 600 },
        identity,
        target,
        { signatures: nodeSignatures, cipher: nodeCipher },
      ),
    );
    const byRequest = new Map(requests.map((request, i) => [request.id, i]));
    // Every distinct answer event per request, whatever relay delivery or restart it came from.
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
    const ran = () =>
      existsSync(effects)
        ? readFileSync(effects, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
        : [];
    await Promise.all(requests.map((request) => pool!.publish(request)));

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
    await Promise.all(requests.map((request) => pool!.publish(request)));
    await new Promise((r) => setTimeout(r, 1500));

    const runs = new Map<number, number>();
    for (const line of ran()) {
      const args = JSON.parse(line.slice(line.indexOf(' ') + 1)) as { a: number };
      runs.set(args.a, (runs.get(args.a) ?? 0) + 1);
    }
    // No call ran twice.
    expect([...runs].filter(([, count]) => count > 1)).toEqual([]);
    let results = 0;
    let interrupted = 0;
    for (const [requestId, i] of byRequest) {
      const distinct = [...(answers.get(requestId)?.values() ?? [])];
      // Exactly one answer event per request.
      expect(
        distinct.map((answer) => answer.kind),
        `answers to call ${i}`,
      ).toHaveLength(1);
      const answer = distinct[0]!;
      const opened = caller.open(answer);
      if (answer.kind === 'com.test.crash.add.result') {
        results++;
        expect(runs.get(i), `runs of call ${i}, answered with a result`).toBe(1);
        expect(opened.plaintext).toContain(String(i + 1000));
      } else {
        // Only a call the kill cut off after its `started` record is answered without a result.
        expect(answer.kind).toBe('xp.error');
        expect(JSON.parse(opened.plaintext)).toMatchObject({ code: 'UPSTREAM_ERROR' });
        expect(opened.plaintext).toMatch(/interrupted/);
        expect(runs.get(i) ?? 0).toBeLessThanOrEqual(1);
        interrupted++;
      }
    }
    expect(results + interrupted).toBe(CALLS);
    expect(results).toBeGreaterThan(0);
  }, 300_000);
});
