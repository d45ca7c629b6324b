/**
 * Suite 3, the relay: ingest (publish a signed event, wait for its `OK`; the relay checks shape,
 * id, signature, freshness and dedupe, and with SQLite answers only after the durable group
 * commit) and fan-out (publish one event, wait until 100 subscribers have it). Peers, each a
 * process of its own: a bare `ws` server that acknowledges and forwards without checks (baseline),
 * the relay with its in-memory store, the relay with SQLite (WAL, synchronous=FULL).
 * `BENCH_RELAY_BEFORE=<bin.js>` adds another build of the relay bin (e.g. the one before a change,
 * bundled) as two more peers, so a change's effect is measured in one run.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type EventTemplate, signEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { PEERS_DIR, Processes, waitForLine } from '../processes.js';
import { type Peer, type PeerResult, race } from '../race.js';
import { openSocket, Publisher, Subscribers } from '../relay-socket.js';
import { raceTable, type Size, type SuiteOptions, type SuiteResult, type Table } from '../suite.js';

const SUBSCRIBERS = 100;

/** Rounds × events per round. */
export function relayPlan(size: Size) {
  return {
    full: {
      ingest: { rounds: 8, callsPerRound: 4000, concurrency: 256 },
      fanout: { rounds: 10, callsPerRound: 200 },
    },
    quick: {
      ingest: { rounds: 6, callsPerRound: 1000, concurrency: 256 },
      fanout: { rounds: 6, callsPerRound: 40 },
    },
    // The gate checks ingest only.
    gate: { ingest: { rounds: 5, callsPerRound: 600, concurrency: 64 }, fanout: undefined },
  }[size];
}

/** `count` fresh signed events of `kind` with 1 KiB of content, by one key. */
function _events(count: number, kind: string): XpEvent[] {
  const secret = randomBytes(32);
  const now = Math.floor(Date.now() / 1000);
  const content = 'x'.repeat(1024);
  return Array.from({ length: count }, (_, i) => {
    const template: EventTemplate = { created_at: now, kind, tags: [['n', String(i)]], content };
    return signEvent(template, secret, nodeSignatures);
  });
}

export async function relaySuite(options: SuiteOptions): Promise<SuiteResult> {
  const procs = new Processes();
  const sockets: { close(): void }[] = [];
  try {
    options.log('relay: starting the bare ws baseline and two relays (memory, SQLite)');
    const stub = procs.spawn(join(PEERS_DIR, 'ws-stub.mjs'), []);
    const stubUrl = (
      await waitForLine(stub, 'stdout', (l) => l.startsWith('ws://'), 30_000, 'ws stub')
    ).trim();
    const memory = await procs.relay({ durable: false });
    const sqlite = await procs.relay({ durable: true });
    const targets = [
      { name: 'bare ws, acknowledge only (baseline)', url: stubUrl },
      { name: 'relay, in-memory store', url: memory.url },
      { name: 'relay, SQLite durable before OK', url: sqlite.url },
    ];
    const before = process.env.BENCH_RELAY_BEFORE;
    if (before) {
      options.log(`relay: also racing the build ${before} (BENCH_RELAY_BEFORE)`);
      const beforeMemory = await procs.relay({ durable: false, bin: before });
      const beforeSqlite = await procs.relay({ durable: true, bin: before });
      targets.push(
        { name: 'before: relay, in-memory store', url: beforeMemory.url },
        { name: 'before: relay, SQLite durable before OK', url: beforeSqlite.url },
      );
    }
    const plan = relayPlan(options.size);
    const tables: Table[] = [];
    const data: Record<string, PeerResult[]> = {};

    const ingestCount = plan.ingest.rounds * plan.ingest.callsPerRound + 2 * plan.ingest.concurrency;
    options.log(`relay: signing ${ingestCount} events`);
    const ingestEvents = _events(ingestCount, 'bench.ingest');
    const ingestPeers: Peer[] = [];
    for (const target of targets) {
      const socket = await openSocket(target.url);
      sockets.push(socket);
      const publisher = new Publisher(socket);
      let next = 0;
      ingestPeers.push({ name: target.name, call: () => publisher.publish(ingestEvents[next++]!) });
    }
    options.log(`relay: ingest, ${plan.ingest.concurrency} events in flight`);
    const ingest = await race(ingestPeers, { ...plan.ingest, warmup: 2 * plan.ingest.concurrency });
    data.ingest = ingest;
    tables.push(raceTable(`ingest: publish and await OK, ${plan.ingest.concurrency} in flight`, ingest));

    const ratios: Record<string, number> = {
      'relay.ingest.memory/bare': ingest[1]!.ratio,
      'relay.ingest.sqlite/bare': ingest[2]!.ratio,
      'relay.ingest.sqlite/memory': ingest[2]!.ratio / ingest[1]!.ratio,
    };
    if (plan.fanout) {
      const fanoutCount = plan.fanout.rounds * plan.fanout.callsPerRound + 4;
      const fanoutEvents = _events(fanoutCount, 'bench.fanout');
      const fanoutPeers: Peer[] = [];
      for (const target of targets) {
        const subscribers = await Subscribers.open(target.url, SUBSCRIBERS, 'bench.fanout');
        sockets.push(subscribers);
        const socket = await openSocket(target.url);
        sockets.push(socket);
        const publisher = new Publisher(socket);
        let next = 0;
        fanoutPeers.push({
          name: target.name,
          call: async () => {
            const event = fanoutEvents[next++]!;
            const arrived = subscribers.arrived(event.id);
            await publisher.publish(event);
            await arrived;
          },
        });
      }
      options.log(`relay: fan-out to ${SUBSCRIBERS} subscribers`);
      const fanout = await race(fanoutPeers, { ...plan.fanout, concurrency: 1, warmup: 4 });
      data.fanout = fanout;
      tables.push(
        raceTable(`fan-out: publish one event, await it at all ${SUBSCRIBERS} subscribers`, fanout),
      );
      ratios['relay.fanout.sqlite/bare'] = fanout[2]!.ratio;
    }
    return { id: 'relay', title: 'Relay ingest and fan-out', tables, ratios, data };
  } finally {
    for (const socket of sockets) socket.close();
    await procs.close();
  }
}
