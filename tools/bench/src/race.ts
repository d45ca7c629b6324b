/**
 * The interleaved race every latency suite runs: in each round every peer (the baseline first in
 * round 0, then rotated) runs a batch of calls at the given concurrency, so a burst of load from
 * another process hits the baseline and the subjects alike. The ratio of a peer is the median of
 * its per-round ratios to the baseline, which a few disturbed rounds do not move.
 * @module
 */
import { median, quantile } from './stats.js';

/** One contestant: a name and the operation it times. */
export interface Peer {
  readonly name: string;
  /** One operation (a `tools/call`, a published event…); rejects when it failed. */
  readonly call: () => Promise<void>;
}

/** How to race. */
export interface RaceOptions {
  /** Rounds of interleaved batches. */
  readonly rounds: number;
  /** Operations per peer per round. */
  readonly callsPerRound: number;
  /** Operations in flight at once. */
  readonly concurrency: number;
  /** Untimed operations per peer before the first round. */
  readonly warmup?: number;
}

/** What one peer did over every round. */
export interface PeerResult {
  readonly name: string;
  readonly calls: number;
  /** Median latency of one operation, ms. */
  readonly medianMs: number;
  /** 99th percentile latency, ms. */
  readonly p99Ms: number;
  /** Operations per second: every operation over the wall time of its batches. */
  readonly callsPerSecond: number;
  /** Median over rounds of (this peer's round median ÷ the baseline's round median). */
  readonly ratio: number;
  /** Median over rounds of (this peer's round throughput ÷ the baseline's). */
  readonly throughputRatio: number;
  /** This peer's median − the baseline's median, ms. */
  readonly addedMs: number;
  /** This peer's median latency in each round, ms. */
  readonly roundMedians: readonly number[];
}

/**
 * What `subject` adds over the baseline, as a multiple of what `reference` adds: the median over
 * rounds of (subject − baseline) ÷ (reference − baseline), each a round median. Sharper than a
 * ratio of whole latencies when the shared part (client, transport, server) dominates both.
 * @example
 * overheadRatio(adapter, supergateway, direct); // 1.2: the adapter adds 1.2× what supergateway adds
 */
export function overheadRatio(subject: PeerResult, reference: PeerResult, baseline: PeerResult): number {
  return median(
    subject.roundMedians.map(
      (s, i) => (s - baseline.roundMedians[i]!) / (reference.roundMedians[i]! - baseline.roundMedians[i]!),
    ),
  );
}

interface _Round {
  latencies: number[];
  wallMs: number;
}

/** Runs `count` operations of `peer`, `concurrency` at a time; latencies in ms and the wall time. */
export async function runBatch(peer: Peer, count: number, concurrency: number): Promise<_Round> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const started = performance.now();
      await peer.call();
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { latencies, wallMs: performance.now() - started };
}

/**
 * Races `peers` (the first is the baseline) and returns one result per peer, in the given order.
 * @example
 * const [direct, gateway] = await race([directPeer, gatewayPeer], { rounds: 8, callsPerRound: 100, concurrency: 1 });
 * gateway.ratio; // e.g. 2.1: a call through the gateway takes 2.1× as long as a direct one
 */
export async function race(peers: readonly Peer[], options: RaceOptions): Promise<PeerResult[]> {
  for (const peer of peers) {
    if (options.warmup) await runBatch(peer, options.warmup, options.concurrency);
  }
  const rounds: _Round[][] = peers.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < peers.length; k++) {
      const index = (k + round) % peers.length;
      rounds[index]!.push(await runBatch(peers[index]!, options.callsPerRound, options.concurrency));
    }
  }
  return summarize(
    peers.map((p) => p.name),
    rounds,
  );
}

/** Turns per-round samples (index 0: the baseline) into {@link PeerResult}s. */
export function summarize(names: readonly string[], rounds: readonly (readonly _Round[])[]): PeerResult[] {
  const base = rounds[0]!;
  const baseMedian = median(base.flatMap((r) => r.latencies));
  return names.map((name, index) => {
    const mine = rounds[index]!;
    const all = mine.flatMap((r) => r.latencies);
    const wall = mine.reduce((sum, r) => sum + r.wallMs, 0);
    const med = median(all);
    return {
      name,
      calls: all.length,
      medianMs: med,
      p99Ms: quantile(all, 0.99),
      callsPerSecond: (1000 * all.length) / wall,
      ratio: median(mine.map((r, i) => median(r.latencies) / median(base[i]!.latencies))),
      throughputRatio: median(
        mine.map((r, i) => r.latencies.length / r.wallMs / (base[i]!.latencies.length / base[i]!.wallMs)),
      ),
      addedMs: med - baseMedian,
      roundMedians: mine.map((r) => median(r.latencies)),
    };
  });
}
