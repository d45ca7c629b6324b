/**
 * The crash-loop breaker of one upstream source: `maxCrashes` crashes within `windowMs` open it
 * for `cooldownMs`. While it is open the source is not restarted and its calls are answered at
 * once with an error that names the source and when it will be tried again; the other sources
 * are not affected. After the cool-down one restart is allowed (half-open): a crash then opens it
 * again at once, a session that lives on closes it for good.
 * @module
 */

/** Options of {@link CrashBreaker}. */
export interface CrashBreakerOptions {
  /** Crashes within `windowMs` that open the breaker. Default 5. */
  maxCrashes?: number;
  /** Default 60000. */
  windowMs?: number;
  /** How long the breaker stays open. Default 60000. */
  cooldownMs?: number;
  /** The clock, in ms (tests pass their own). */
  now?: () => number;
}

/** Counts crashes of one source and says whether it may be restarted now. */
export class CrashBreaker {
  readonly maxCrashes: number;
  readonly windowMs: number;
  readonly cooldownMs: number;
  readonly #now: () => number;
  #crashes: number[] = [];
  #openUntil = 0;
  #halfOpen = false;

  constructor(options: CrashBreakerOptions = {}) {
    this.maxCrashes = options.maxCrashes ?? 5;
    this.windowMs = options.windowMs ?? 60_000;
    this.cooldownMs = options.cooldownMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    if (!(this.maxCrashes >= 1))
      throw new RangeError(`maxCrashes: expected at least 1, got ${this.maxCrashes}`);
  }

  /** Records a crash; returns true when this crash opened the breaker. */
  crashed(): boolean {
    const now = this.#now();
    this.#crashes = this.#crashes.filter((at) => now - at < this.windowMs);
    this.#crashes.push(now);
    if (this.#halfOpen || this.#crashes.length >= this.maxCrashes) {
      this.#openUntil = now + this.cooldownMs;
      this.#halfOpen = false;
      this.#crashes = [];
      return true;
    }
    return false;
  }

  /** Crashes counted in the current window (the attempt number for the restart backoff). */
  get recentCrashes(): number {
    const now = this.#now();
    return this.#crashes.filter((at) => now - at < this.windowMs).length;
  }

  /** When the breaker closes (ms since the epoch), or `undefined` when it is closed now. */
  openUntil(): number | undefined {
    if (this.#openUntil === 0) return undefined;
    if (this.#now() < this.#openUntil) return this.#openUntil;
    // The cool-down is over: allow one restart; a crash before it proves itself reopens at once.
    this.#openUntil = 0;
    this.#halfOpen = true;
    return undefined;
  }

  /**
   * Whether the breaker is open now, without the move to half-open that {@link openUntil} makes
   * once the cool-down is over (for a scrape, which must not change what the next call sees).
   */
  isOpen(): boolean {
    return this.#openUntil !== 0 && this.#now() < this.#openUntil;
  }

  /** The session has been up long enough (or answered): forget the half-open probation. */
  healthy(): void {
    this.#halfOpen = false;
  }
}
