/**
 * What the adapter has started so far, and how it is stopped: each component, once started, leaves
 * how to stop it; a failed start and `stop()` stop them in reverse order. A component that fails to
 * stop is logged and the others are still stopped, so nothing is left running.
 * @module
 */
import type { AdapterLogger } from './logger.js';

/** The components started so far, stopped last-first. */
export class _StartedComponents {
  readonly #stops: (() => unknown)[] = [];
  readonly #logger: AdapterLogger;

  constructor(logger: AdapterLogger) {
    this.#logger = logger;
  }

  /** Records how to stop a component that has just started. */
  add(stop: () => unknown): void {
    this.#stops.push(stop);
  }

  /** Stops every recorded component, the last started first. */
  async stopAll(): Promise<void> {
    for (const stop of this.#stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        this.#logger.warn({ error: (error as Error).message }, 'a component failed to stop cleanly');
      }
    }
  }
}
