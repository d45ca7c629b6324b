/**
 * Runs fuzz targets with fast-check: a fixed seed gives the same inputs, each input is timed (one
 * that takes longer than the hang limit fails the target, as a crash does), and the process's
 * memory is read around each target. The first failing input is shrunk and reported.
 * @module
 */
import fc from 'fast-check';
import type { FuzzTarget } from './target.js';

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  /** Inputs in all, shared among the targets by weight. */
  inputs: number;
  seed: number;
  /** An input that takes longer than this fails its target, in ms. Default 2000. */
  hangMs?: number;
  /** Called when a target finishes. */
  onResult?: (result: FuzzResult) => void;
}

/** What one target's run found. */
export interface FuzzResult {
  name: string;
  rule: string;
  inputs: number;
  /** The shrunk input that broke the rule, and how; undefined when none did. */
  failure?: { input: string; error: string };
  /** The slowest input, in ms. */
  slowestMs: number;
  /** Wall time of the target, in ms. */
  elapsedMs: number;
  /** Resident memory growth over the run, in MiB (after a GC when exposed). */
  rssGrowthMiB: number;
  /** Live heap growth over the run, in MiB (after a GC when exposed): what the inputs left behind. */
  heapGrowthMiB: number;
}

/** Runs `targets` and resolves with one result per target. */
export async function runFuzz(targets: readonly FuzzTarget[], options: FuzzOptions): Promise<FuzzResult[]> {
  const hangMs = options.hangMs ?? 2000;
  const total = targets.reduce((sum, t) => sum + t.weight, 0);
  const results: FuzzResult[] = [];
  for (const target of targets) {
    const inputs = Math.max(1, Math.round((options.inputs * target.weight) / total));
    const opened = await target.open();
    let slowestMs = 0;
    const timed = async (input: unknown) => {
      const start = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no end after ${hangMs} ms (the hang limit): the input hangs`)),
          hangMs,
        );
      });
      try {
        await Promise.race([opened.check(input as never), hang]);
      } finally {
        clearTimeout(timer);
      }
      const took = performance.now() - start;
      slowestMs = Math.max(slowestMs, took);
      if (took > hangMs)
        throw new Error(`one input took ${took.toFixed(0)} ms (the hang limit is ${hangMs} ms)`);
    };
    const rssBefore = _rss();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const details = await fc.check(fc.asyncProperty(opened.arbitrary, timed), {
      numRuns: inputs,
      seed: options.seed,
      endOnFailure: false,
    });
    const elapsedMs = performance.now() - started;
    await opened.close?.();
    const result: FuzzResult = {
      name: target.name,
      rule: target.rule,
      inputs: details.numRuns,
      slowestMs,
      elapsedMs,
      rssGrowthMiB: (_rss() - rssBefore) / 2 ** 20,
      heapGrowthMiB: (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20,
      ...(details.failed && {
        failure: {
          input: fc.stringify(details.counterexample?.[0]).slice(0, 2000),
          error: String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance),
        },
      }),
    };
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}

function _rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}
