// Replays against the built adapter bin (docs/protocol.md §4, dedupe and freshness), with real
// relays on loopback and requests signed with real keys: a call replayed after 10,000 other
// requests, after a restart on the same state database, just inside and just outside the replay
// window and the clock skew, and after a flood past the dedupe memory's capacity. The adapter
// listens on two relays; a replay goes through the one that has not seen the request yet, so the
// relays' own dedupe cannot hide it. A call that ran is a line in the fixture server's effects
// file; an event the endpoint drops is a debug line naming its id.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createEventTemplate,
  type Identity,
  type PublicIdentity,
  sealEvent,
  signEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { StateDatabase } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapperConfig } from './support/adapter-configs.js';
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
const backends = { signatures: nodeSignatures, cipher: nodeCipher };

const procs = new Processes();
const pools: RelayPool[] = [];
let relayA: string;
let relayB: string;
let client: Identity;
/** Publishes through one relay only. */
let viaA: RelayPool;
let viaB: RelayPool;

beforeAll(async () => {
  // Rate limits of the relays out of the way: 10,000 requests come from one key.
  ({ url: relayA } = await procs.relay(['--rate', '1000000']));
  ({ url: relayB } = await procs.relay(['--rate', '1000000']));
  const key = await procs.keygen('client.key');
  client = await readKeyFile(key.path, backends);
  viaA = await RelayPool.open({ urls: [relayA] });
  viaB = await RelayPool.open({ urls: [relayB] });
  pools.push(viaA, viaB);
}, 60_000);
afterAll(async () => {
  for (const pool of pools) await pool.close();
  await procs.close();
});

/** Waits until `check` holds (the test's timeout bounds the wait). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An adapter wrapping the fixture's `add` under `com.test.replay`, logging at debug level. */
class ReplayAdapter {
  readonly name: string;
  readonly relayExtra: string;
  readonly effects: string;
  config: string | undefined;
  keys!: PublicIdentity;
  child!: ChildProcess;
  logs: string[] = [];
  /** NOT_FOUND answers counted in `logs` up to `#counted`. */
  #notFound = 0;
  #counted = 0;

  /** `relayExtra`: lines added to the `relay` section (indented two spaces). */
  constructor(name: string, relayExtra: string) {
    this.name = name;
    this.relayExtra = relayExtra;
    this.effects = join(procs.dir, `${name}-effects.txt`);
  }

  /** Starts the adapter bin (the first time, writes its key, tools and configuration). */
  async start(): Promise<void> {
    if (!this.config) {
      const key = await procs.keygen(`${this.name}.key`);
      this.keys = { ed25519: key.ed25519, x25519: key.x25519 } as PublicIdentity;
      const tools = procs.file(`${this.name}-tools.json`, JSON.stringify([ADD]));
      const text = wrapperConfig({
        keyFile: `./${this.name}.key`,
        relayUrl: `${relayA}, ${relayB}`,
        source: {
          name: 'fixture',
          namespace: 'com.test.replay',
          body: `    transport: stdio
    command: "'${process.execPath}' '${FIXTURE}'"
    env:
      FIXTURE_TOOLS_FILE: ${tools}
      FIXTURE_EFFECTS_FILE: ${this.effects}`,
        },
        sourceExtra: `    rate_limit:
      requests_per_minute: 1000000`,
        grantTo: client.keys.ed25519,
        stateDatabase: `./${this.name}-state.db`,
        logLevel: 'debug',
      }).replace(/^relay:\n {2}urls: \[.*\]\n/m, (section) => `${section}${this.relayExtra}`);
      this.config = procs.file(`${this.name}.yml`, text);
    }
    const started = await procs.adapter(this.config);
    this.child = started.child;
    this.logs = started.logs;
    this.#notFound = 0;
    this.#counted = 0;
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await exited(this.child);
  }

  /** The calls the fixture ran, as `<a>+<b>`. */
  ran(): string[] {
    if (!existsSync(this.effects)) return [];
    return readFileSync(this.effects, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const args = JSON.parse(line.slice(line.indexOf(' ') + 1)) as { a: number; b: number };
        return `${args.a}+${args.b}`;
      });
  }

  /** The endpoint's debug line for a dropped event, once it is logged. */
  async dropped(event: XpEvent): Promise<string> {
    const match = (line: string) => line.includes('"msg":"inbound event dropped"') && line.includes(event.id);
    await until(() => this.logs.some(match));
    return (JSON.parse(this.logs.find(match)!) as { reason: string }).reason;
  }

  /** Requests answered NOT_FOUND so far by this process (one info line each, counted once). */
  notFound(): number {
    for (; this.#counted < this.logs.length; this.#counted++) {
      if (this.logs[this.#counted]!.includes('"code":"NOT_FOUND"')) this.#notFound++;
    }
    return this.#notFound;
  }

  /** A sealed call of `add`, created at `createdAt`. */
  add(a: number, b: number, createdAt = nowSeconds()): XpEvent {
    return sealEvent(
      { kind: 'com.test.replay.add', payload: { a, b }, created_at: createdAt, expiration: createdAt + 3600 },
      client,
      this.keys,
      backends,
    );
  }

  /** A request of a kind the adapter does not serve: refused and answered NOT_FOUND. */
  unknown(serial: number, createdAt = nowSeconds()): XpEvent {
    return signEvent(
      createEventTemplate({
        kind: `com.test.replay.none_${serial}`,
        content: '',
        tags: [
          ['p', this.keys.ed25519],
          ['x25519', client.keys.x25519],
        ],
        created_at: createdAt,
      }),
      client.ed25519.secretKey,
      nodeSignatures,
    );
  }

  /**
   * A request the adapter takes in (past the addressing step, so remembered) and refuses without
   * an answer: a catalog request in the clear, which may carry no x25519 tag, that is not JSON.
   */
  unanswerable(serial: number): XpEvent {
    return signEvent(
      createEventTemplate({
        kind: 'xp.schema.catalog',
        content: `not json ${serial}`,
        tags: [['p', this.keys.ed25519]],
        created_at: nowSeconds(),
      }),
      client.ed25519.secretKey,
      nodeSignatures,
    );
  }

  /** Requests refused without an answer so far by this process (one debug line each). */
  unanswered(): number {
    return this.logs.filter((line) => line.includes('the request has no x25519 tag to answer to')).length;
  }

  /** Resolves with the adapter's first answer to `request` (published by it on the relays). */
  answer(request: XpEvent): Promise<XpEvent> {
    return new Promise((resolve) => {
      const subscription = viaA.subscribe([{ '#e': [request.id], authors: [this.keys.ed25519] }], {
        onEvent: (event) => {
          subscription.close();
          resolve(event);
        },
      });
    });
  }
}

/** Publishes `events` through `pool`, 500 at a time. */
async function publishAll(pool: RelayPool, events: readonly XpEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 500) {
    await Promise.all(events.slice(i, i + 500).map((event) => pool.publish(event)));
  }
}

describe('an adapter with a 120 s window, 60 s of clock skew and the default memory', () => {
  const adapter = new ReplayAdapter('window', '  replay_window_seconds: 120\n  max_clock_skew_seconds: 60\n');
  let call: XpEvent;
  beforeAll(() => adapter.start(), 60_000);

  it('runs a call replayed after 10,000 other requests were received once', async () => {
    call = adapter.add(1, 2);
    const answered = adapter.answer(call);
    await viaA.publish(call);
    await answered;
    // Unanswerable, so that the adapter and both relays are not busy with 10,000 answers: the
    // dedupe memory under 10,000 answered requests is tested in @xprotocol/mcp-bridge.
    const many = Array.from({ length: 10_000 }, (_, i) => adapter.unanswerable(i));
    await publishAll(viaA, many);
    await until(() => adapter.unanswered() >= 10_000);
    // Replayed through relay B, which never saw it; then a probe behind it on the same relay. Had
    // the replay run, its effect would be written before the probe's.
    await viaB.publish(call);
    const probe = adapter.add(100, 1);
    const probed = adapter.answer(probe);
    await viaB.publish(probe);
    await probed;
    expect(adapter.ran()).toEqual(['1+2', '100+1']);
  }, 240_000);

  it('drops a call replayed after a restart on the same state database as a duplicate', async () => {
    await adapter.stop();
    await adapter.start();
    // Relay B sends the new process what it stored for it: the call is among them.
    expect(await adapter.dropped(call)).toMatch(/^duplicate of /);
    expect(adapter.ran()).toEqual(['1+2', '100+1']);
  }, 120_000);

  it('runs a call just inside the window and the skew, and drops one just outside them', async () => {
    const now = nowSeconds();
    // Just outside stays outside however long delivery takes; just inside has 20 s to spare.
    const staleOut = adapter.add(3, 0, now - 121);
    const staleIn = adapter.add(3, 1, now - 100);
    const futureIn = adapter.add(3, 2, now + 60);
    const futureOut = adapter.add(3, 3, now + 80);
    const answers = [staleIn, futureIn].map((request) => adapter.answer(request));
    await publishAll(viaA, [staleOut, staleIn, futureIn, futureOut]);
    await Promise.all(answers);
    expect(await adapter.dropped(staleOut)).toMatch(/^stale: created_at \d+, now \d+$/);
    expect(await adapter.dropped(futureOut)).toMatch(/^future: created_at \d+, now \d+$/);
    expect(adapter.ran().slice(2).sort()).toEqual(['3+1', '3+2']);
  }, 60_000);
});

describe('an adapter whose dedupe memory holds 1,000 ids', () => {
  const adapter = new ReplayAdapter('small', '  replay_memory_max_ids: 1000\n');
  beforeAll(() => adapter.start(), 60_000);

  it('under a flood of 2,500 requests keeps at most 1,000 ids, and never runs a forgotten call again', async () => {
    const now = nowSeconds();
    const first = adapter.add(7, 7, now - 2600);
    const answered = adapter.answer(first);
    await viaA.publish(first);
    await answered;
    const flood = Array.from({ length: 2500 }, (_, i) => adapter.unknown(i, now - 2500 + i));
    await publishAll(viaA, flood);
    await until(() => adapter.notFound() >= 2500);
    // Logged once a forgetting committed (behind the answers' records).
    await until(() => adapter.logs.some((line) => line.includes('"msg":"the dedupe memory is full')));
    await adapter.stop();

    const state = new StateDatabase(join(procs.dir, 'small-state.db'));
    try {
      expect(flood.filter((request) => state.isKnown(request.id)).length).toBeLessThanOrEqual(1000);
      expect(state.isKnown(first.id)).toBe(false);
      expect(state.replayFloor).toBeGreaterThan(first.created_at);
    } finally {
      await state.close();
    }

    // A new process (its relay pool remembers nothing) gets the forgotten call through relay B.
    await adapter.start();
    await viaB.publish(first);
    expect(await adapter.dropped(first)).toMatch(/^stale: created_at \d+ is before \d+, the oldest/);
    expect(adapter.ran()).toEqual(['7+7']);
  }, 240_000);
});
