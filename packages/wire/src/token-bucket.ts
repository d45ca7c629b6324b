/**
 * Token buckets keyed by a string (a signing key): capacity `perMinute`, refilled continuously at
 * `perMinute / 60` tokens a second. Idle full buckets are forgotten so memory stays bounded by the
 * number of recently active keys.
 * @module
 */

/** The outcome of taking one token. */
export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** A set of per-key token buckets sharing one rate. */
export class TokenBuckets {
  readonly #capacity: number;
  readonly #refillPerMs: number;
  readonly #buckets = new Map<string, Bucket>();
  readonly #maxKeys: number;

  /**
   * @param perMinute - capacity and refill per minute (> 0).
   * @param maxKeys - most keys tracked at once; beyond it, full buckets are evicted first.
   */
  constructor(perMinute: number, maxKeys = 100_000) {
    if (!(perMinute > 0)) throw new RangeError(`perMinute must be > 0, got ${perMinute}`);
    this.#capacity = perMinute;
    this.#refillPerMs = perMinute / 60_000;
    this.#maxKeys = maxKeys;
  }

  /**
   * Takes `cost` tokens (default 1; at most the capacity) for `key` at time `nowMs`: a cost of N
   * lets through 1/N of the rate, which is how N processes that each keep their own buckets split
   * one rate between them.
   */
  take(key: string, nowMs: number, cost = 1): TakeResult {
    const need = Math.min(Math.max(1, cost), this.#capacity);
    let bucket = this.#buckets.get(key);
    if (bucket) {
      const elapsed = Math.max(0, nowMs - bucket.updatedMs);
      bucket.tokens = Math.min(this.#capacity, bucket.tokens + elapsed * this.#refillPerMs);
      bucket.updatedMs = nowMs;
    } else {
      if (this.#buckets.size >= this.#maxKeys) this.#evict(nowMs);
      bucket = { tokens: this.#capacity, updatedMs: nowMs };
      this.#buckets.set(key, bucket);
    }
    if (bucket.tokens >= need) {
      bucket.tokens -= need;
      return { ok: true };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((need - bucket.tokens) / this.#refillPerMs / 1000));
    return { ok: false, retryAfterSeconds };
  }

  /** Number of keys currently tracked. */
  get size(): number {
    return this.#buckets.size;
  }

  #evict(nowMs: number): void {
    for (const [key, bucket] of this.#buckets) {
      const tokens = bucket.tokens + Math.max(0, nowMs - bucket.updatedMs) * this.#refillPerMs;
      if (tokens >= this.#capacity) this.#buckets.delete(key);
    }
    // Still full: drop the oldest entry (Map keeps insertion order), never grow without bound.
    if (this.#buckets.size >= this.#maxKeys) {
      const oldest = this.#buckets.keys().next();
      if (!oldest.done) this.#buckets.delete(oldest.value);
    }
  }
}
