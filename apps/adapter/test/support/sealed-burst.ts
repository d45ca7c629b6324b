// A burst of sealed calls to one endpoint and the at-most-once verdict on what came back: the
// crash and replica tests publish many `add` calls at once, kill an adapter while they run, and
// then check that no call ran twice and each request got exactly one answer event.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PublicIdentity, sealEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { expect } from 'vitest';

/** The stdio fixture server that records every call it runs in its effects file. */
export const COUNTING_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'servers', 'rug-pull-server.mjs');

/** The one tool the burst calls: `{a, b}` → their sum. */
export const ADD_TOOL = {
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

/** Sealed requests in flight and every distinct answer event seen for each. */
export interface SealedBurst {
  readonly caller: XpCaller;
  readonly pool: RelayPool;
  /** Request id → the call's index `i` (its arguments are `{a: i, b: 1000}`). */
  readonly byRequest: ReadonlyMap<string, number>;
  /** Request id → answer event id → the answer, from whichever replica or relay it came. */
  readonly answers: Map<string, Map<string, XpEvent>>;
  /** Publishes every request (again). */
  publishAll(): Promise<void>;
}

/**
 * Opens a relay pool as the caller of `callerKeyPath`, resolves the endpoint `endpointKey`, seals
 * `calls` requests of `kind` and listens for their answers; nothing is published yet.
 */
export async function sealedBurst(options: {
  callerKeyPath: string;
  relayUrls: readonly string[];
  endpointKey: string;
  kind: string;
  calls: number;
}): Promise<SealedBurst> {
  const crypto = { signatures: nodeSignatures, cipher: nodeCipher };
  const identity = await readKeyFile(options.callerKeyPath, crypto);
  const pool = await RelayPool.open({
    urls: [...options.relayUrls],
    reconnect: { initialMs: 200, maxMs: 500 },
  });
  const caller = new XpCaller({ identity, pool, ...crypto });
  const target: PublicIdentity = (await caller.resolve(options.endpointKey, 30_000)).keys;
  const now = Math.floor(Date.now() / 1000);
  const requests = Array.from({ length: options.calls }, (_, i) =>
    sealEvent(
      { kind: options.kind, payload: { a: i, b: 1000 }, created_at: now, expiration: now + 600 },
      identity,
      target,
      crypto,
    ),
  );
  const byRequest = new Map(requests.map((request, i) => [request.id, i]));
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
  return {
    caller,
    pool,
    byRequest,
    answers,
    publishAll: async () => {
      await Promise.all(requests.map((request) => pool.publish(request)));
    },
  };
}

/** Polls `condition` every 20 ms; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once `child` has exited (at once when it already has). */
export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

/** The calls (their `a`) an effects file of the fixture server records, one entry per run. */
export function runsOf(effects: string): number[] {
  if (!existsSync(effects)) return [];
  return readFileSync(effects, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line.slice(line.indexOf(' ') + 1)) as { a: number }).a);
}

/**
 * The at-most-once verdict: no call ran twice (`runs`: the `a` of every run, on every server);
 * each request has exactly one answer event; one answered with `resultKind` ran exactly once and
 * carries its sum; any other answer is an `UPSTREAM_ERROR` matching `interrupted`, for a call that
 * ran at most once. Resolves the counts of both.
 */
export function expectAtMostOnce(
  burst: SealedBurst,
  runs: readonly number[],
  resultKind: string,
  interrupted: RegExp,
): { results: number; interrupted: number } {
  const count = new Map<number, number>();
  for (const a of runs) count.set(a, (count.get(a) ?? 0) + 1);
  expect([...count].filter(([, n]) => n > 1)).toEqual([]);
  const tally = { results: 0, interrupted: 0 };
  for (const [requestId, i] of burst.byRequest) {
    const distinct = [...(burst.answers.get(requestId)?.values() ?? [])];
    expect(
      distinct.map((answer) => answer.kind),
      `answers to call ${i}`,
    ).toHaveLength(1);
    const answer = distinct[0]!;
    const opened = burst.caller.open(answer);
    if (answer.kind === resultKind) {
      tally.results++;
      expect(count.get(i), `runs of call ${i}, answered with a result`).toBe(1);
      expect(opened.plaintext).toContain(String(i + 1000));
    } else {
      expect(answer.kind).toBe('xp.error');
      expect(JSON.parse(opened.plaintext)).toMatchObject({ code: 'UPSTREAM_ERROR' });
      expect(opened.plaintext).toMatch(interrupted);
      expect(count.get(i) ?? 0).toBeLessThanOrEqual(1);
      tally.interrupted++;
    }
  }
  expect(tally.results + tally.interrupted).toBe(burst.byRequest.size);
  expect(tally.results).toBeGreaterThan(0);
  return tally;
}
