/**
 * How much the endpoint lets run: calls at once (`max_concurrent_calls`; more wait in line, in
 * order), and each caller's calls per minute on each source (`rate_limit.requests_per_minute`,
 * default 600; docs/protocol.md §4, step 8).
 * @module
 */
import { TokenBuckets, type XpErrorPayload, xpError } from '@xprotocol/wire';

/** The slots of calls running at once; a call waits for one. */
export class _CallSlots {
  readonly #max: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number) {
    this.#max = max;
  }

  /** Takes a slot, waiting in line when every slot is taken. */
  async acquire(): Promise<void> {
    if (this.#running < this.#max) {
      this.#running++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Gives a slot back: to the first call in line, if any. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }
}

/**
 * The rate limits of the sources, one token bucket per caller and source. Replicas of one key
 * (docs/deploy.md) split each rate: with `replicas()` live, a call takes that many tokens, so
 * each replica lets through its share and all of them together at most the configured rate.
 */
export class _SourceRateLimits {
  readonly #perMinute: ReadonlyMap<string, number>;
  readonly #replicas: () => number;
  readonly #buckets = new Map<string, TokenBuckets>();

  constructor(perMinute: ReadonlyMap<string, number>, replicas: () => number = () => 1) {
    this.#perMinute = perMinute;
    this.#replicas = replicas;
  }

  /** Takes the tokens of one call of `caller` on `source` at `nowMs`; the `RATE_LIMITED` error when too few are left. */
  take(source: string, caller: string, nowMs: number): XpErrorPayload | undefined {
    const limited = this.#bucket(source).take(caller, nowMs, this.#replicas());
    return limited.ok
      ? undefined
      : xpError('RATE_LIMITED', `rate limit of source ${source} exceeded`, {
          retry_after: limited.retryAfterSeconds,
        });
  }

  #bucket(source: string): TokenBuckets {
    let bucket = this.#buckets.get(source);
    if (!bucket) {
      bucket = new TokenBuckets(this.#perMinute.get(source) ?? 600);
      this.#buckets.set(source, bucket);
    }
    return bucket;
  }
}
