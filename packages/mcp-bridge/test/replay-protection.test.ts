// The replay rule of docs/protocol.md §4 (dedupe, step 4; freshness, step 5) against an endpoint
// whose clock the test sets: the window's edges to the second, an id remembered for as long as its
// event is fresh (clock skew included), 10,000 other events, restarts on the same and on a new
// memory, and a flood past the memory's capacity. The state database is the real one (a file);
// the relay pool is a stand-in that only takes the answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventTemplate, generateIdentity, signEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import type { RelayPool } from '@xprotocol/relay-client';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessPolicy, type InboundOutcome, StateDatabase, XpEndpoint } from '../src/index.js';

const T = 1_800_000_000;
const adapter = generateIdentity();
const client = generateIdentity();
const answers: XpEvent[] = [];
const pool = {
  enqueue: async (event: XpEvent) => {
    answers.push(event);
  },
  subscribe: () => ({ id: 's', close() {} }),
} as unknown as RelayPool;

let dir: string;
const open: { state: StateDatabase; endpoint: XpEndpoint }[] = [];
afterEach(async () => {
  for (const { endpoint, state } of open.splice(0)) {
    await endpoint.stop();
    await state.close();
  }
  answers.length = 0;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** An endpoint with no tools (every request is answered NOT_FOUND) whose clock reads `clock.now`. */
function endpoint(
  path: string,
  clock: { now: number },
  limits: { maxFutureSeconds?: number; retentionSeconds?: number; maxRememberedIds?: number } = {},
): { state: StateDatabase; endpoint: XpEndpoint } {
  const state = new StateDatabase(path);
  const made = new XpEndpoint({
    identity: adapter,
    pool,
    state,
    catalog: {
      tool: () => undefined,
      page: () => ({ contracts: [], total: 0 }),
      describe: () => [],
    } as never,
    upstreams: new Map(),
    access: new AccessPolicy({ default: 'deny', grants: [] }),
    signatures: nodeSignatures,
    cipher: nodeCipher,
    now: () => clock.now * 1000,
    ...limits,
  });
  const pair = { state, endpoint: made };
  open.push(pair);
  return pair;
}

/** Closes one endpoint and its state database (a stopped adapter). */
async function stop(pair: { state: StateDatabase; endpoint: XpEndpoint }): Promise<void> {
  open.splice(open.indexOf(pair), 1);
  await pair.endpoint.stop();
  await pair.state.close();
}

let serial = 0;
/** A request signed by the client, created at `createdAt`; answerable (it names the client's X25519 key). */
function request(createdAt: number): XpEvent {
  return signEvent(
    createEventTemplate({
      kind: `com.test.replay.tool_${serial++}`,
      content: '',
      tags: [
        ['p', adapter.keys.ed25519],
        ['x25519', client.keys.x25519],
      ],
      created_at: createdAt,
    }),
    client.ed25519.secretKey,
    nodeSignatures,
  );
}

const answered = { action: 'answered', code: 'NOT_FOUND' };

/** Hands `events` to the endpoint 500 at a time (concurrent records share a commit), in order. */
async function handleAll(e: XpEndpoint, events: readonly XpEvent[]): Promise<InboundOutcome[]> {
  const outcomes: InboundOutcome[] = [];
  for (let i = 0; i < events.length; i += 500) {
    outcomes.push(...(await Promise.all(events.slice(i, i + 500).map((event) => e.handleEvent(event)))));
  }
  return outcomes;
}
const dropped = (why: RegExp) => ({ action: 'dropped', reason: expect.stringMatching(why) });

function tempFile(): string {
  dir = mkdtempSync(join(tmpdir(), 'xp-replay-'));
  return join(dir, 'state.db');
}

/** The ids a state database file remembers, counted on a connection of the test's own. */
function rememberedIn(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM inbound_calls').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('the freshness window (docs/protocol.md §4, step 5)', () => {
  it('accepts created_at from now − window to now + skew, both bounds included, and nothing a second beyond', async () => {
    const clock = { now: T };
    const { endpoint: e } = endpoint(tempFile(), clock, { maxFutureSeconds: 30, retentionSeconds: 120 });
    expect(await e.handleEvent(request(T - 120))).toMatchObject(answered);
    expect(await e.handleEvent(request(T - 121))).toMatchObject(dropped(/^stale: /));
    expect(await e.handleEvent(request(T + 30))).toMatchObject(answered);
    expect(await e.handleEvent(request(T + 31))).toMatchObject(dropped(/^future: /));
  });

  it('remembers an id for as long as its event is fresh: a request 30 s ahead of the clock is never run twice', async () => {
    const clock = { now: T };
    const { endpoint: e } = endpoint(tempFile(), clock, { maxFutureSeconds: 30, retentionSeconds: 120 });
    const ahead = request(T + 30);
    expect(await e.handleEvent(ahead)).toMatchObject(answered);
    // Every second until the event is stale, with other requests recorded meanwhile (each of them
    // is when the memory may forget what is older than its window).
    const outcomes: InboundOutcome[] = [];
    for (let now = T + 1; now <= T + 152; now++) {
      clock.now = now;
      expect(await e.handleEvent(request(now))).toMatchObject(answered);
      outcomes.push(await e.handleEvent(ahead));
    }
    expect(outcomes.filter((o) => o.action !== 'dropped')).toEqual([]);
    // Until T + 150 its created_at is inside the window: it is refused because it is remembered.
    expect(outcomes[148]).toMatchObject(dropped(/^duplicate of /));
    expect(answers.filter((a) => a.tags.some((t) => t[0] === 'e' && t[1] === ahead.id))).toHaveLength(1);
  });
});

describe('the dedupe memory (docs/protocol.md §4, step 4)', () => {
  it('drops a request replayed after 10,000 other requests were answered', async () => {
    const clock = { now: T };
    const { endpoint: e } = endpoint(tempFile(), clock);
    const first = request(T);
    expect(await e.handleEvent(first)).toMatchObject(answered);
    const others = await handleAll(
      e,
      Array.from({ length: 10_000 }, (_, i) => request(T - (i % 3000))),
    );
    expect(others.filter((o) => o.action !== 'answered')).toEqual([]);
    expect(answers).toHaveLength(10_001);
    expect(await e.handleEvent(first)).toMatchObject(dropped(/^duplicate of /));
    expect(answers).toHaveLength(10_001);
  }, 180_000);

  it('drops a request replayed after a restart on the same state database', async () => {
    const clock = { now: T };
    const path = tempFile();
    const first = endpoint(path, clock);
    const event = request(T - 10);
    expect(await first.endpoint.handleEvent(event)).toMatchObject(answered);
    await stop(first);
    clock.now = T + 60;
    const { endpoint: restarted } = endpoint(path, clock);
    expect(await restarted.handleEvent(event)).toMatchObject(dropped(/^duplicate of /));
    expect(answers).toHaveLength(1);
  });

  it('drops, on an in-memory database, every request created before it began: a restart cannot run one again', async () => {
    const clock = { now: T };
    const first = endpoint(':memory:', clock);
    const event = request(T);
    expect(await first.endpoint.handleEvent(event)).toMatchObject(answered);
    await stop(first);
    // The restarted adapter remembers nothing: the request is still inside the window, but older
    // than the memory, which cannot tell whether it was run before.
    clock.now = T + 5;
    const { endpoint: restarted } = endpoint(':memory:', clock);
    expect(await restarted.handleEvent(event)).toMatchObject(dropped(/^stale: /));
    expect(await restarted.handleEvent(request(T + 5))).toMatchObject(answered);
    expect(answers).toHaveLength(2);
  });

  it('past its capacity, forgets the oldest ids only by refusing everything as old: no replay is run again, also after a restart', async () => {
    const clock = { now: T };
    const path = tempFile();
    const first = endpoint(path, clock, { maxRememberedIds: 1000 });
    const flood = Array.from({ length: 2500 }, (_, i) => request(T - 2500 + i));
    const outcomes = await handleAll(first.endpoint, flood);
    expect(outcomes.filter((o) => o.action !== 'answered')).toEqual([]);
    // The oldest were forgotten; their replays are refused as stale, the newest as duplicates.
    expect(await first.endpoint.handleEvent(flood[0]!)).toMatchObject(dropped(/^stale: /));
    expect(await first.endpoint.handleEvent(flood[1400]!)).toMatchObject(dropped(/^stale: /));
    expect(await first.endpoint.handleEvent(flood[2499]!)).toMatchObject(dropped(/^duplicate of /));
    // Something newer than every forgotten id is still accepted.
    expect(await first.endpoint.handleEvent(request(T))).toMatchObject(answered);
    await stop(first);
    expect(rememberedIn(path)).toBeLessThanOrEqual(1000);

    const { endpoint: restarted } = endpoint(path, clock, { maxRememberedIds: 1000 });
    const replays = await handleAll(restarted, flood);
    expect(replays.filter((o) => o.action !== 'dropped')).toEqual([]);
    expect(await restarted.handleEvent(request(T - 2400))).toMatchObject(dropped(/^stale: /));
    expect(answers).toHaveLength(2501);
  });
});
