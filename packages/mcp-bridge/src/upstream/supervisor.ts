/**
 * Supervision of a stdio upstream: when the child exits on its own (a crash, a kill, an exit
 * mid-call), the calls in flight fail at once with what happened, the child is started again
 * after a capped exponential backoff with jitter and re-initialized, and the owner is told so it
 * can list the tools again. A crash loop opens the source's {@link CrashBreaker}: no restart and
 * an immediate error for each call until the cool-down ends. See docs/architecture.md,
 * "Upstream supervision".
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { BridgeError } from '../errors.js';
import { type BridgeLogger, silentLogger } from '../logger.js';
import { _formatDelay, backoffDelay } from './backoff.js';
import { CrashBreaker, type CrashBreakerOptions } from './breaker.js';
import { StdioChildTransport } from './stdio-transport.js';

/** Options of the supervision of a stdio upstream (`UpstreamSessionOptions.supervise`). */
export interface SupervisionOptions {
  /** First restart delay, in ms. Default 500. */
  minRestartMs?: number;
  /** Restart delay cap, in ms. Default 30000. */
  maxRestartMs?: number;
  /** When a crash loop stops restarts. */
  breaker?: CrashBreakerOptions;
  /** Called after a restarted child is initialized again (list the tools again). */
  onRestarted?: () => void;
}

/** How a child process ended, e.g. `exit code 3` or `signal SIGKILL`. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `exit code ${code ?? 'unknown'}`;
}

/**
 * The child process behind a stdio transport ({@link StdioChildTransport.child}), for its pid and
 * how it ended; `undefined` for any other transport.
 */
export function _childOf(transport: unknown): ChildProcess | undefined {
  return transport instanceof StdioChildTransport ? transport.child : undefined;
}

/** Restart scheduling and the crash-loop breaker of one source. */
export class UpstreamSupervisor {
  readonly #source: string;
  readonly #options: SupervisionOptions;
  readonly #logger: BridgeLogger;
  readonly breaker: CrashBreaker;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #attempt = 0;
  #stopped = false;
  #restarts = 0;

  constructor(source: string, options: SupervisionOptions, logger: BridgeLogger = silentLogger) {
    this.#source = source;
    this.#options = options;
    this.#logger = logger;
    this.breaker = new CrashBreaker(options.breaker);
  }

  /** Throws `UPSTREAM_UNAVAILABLE` at once while the breaker is open. */
  admit(): void {
    const until = this.breaker.openUntil();
    if (until === undefined) return;
    const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
    throw new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      `${this.#source}: the server crashed ${this.breaker.maxCrashes} time${this.breaker.maxCrashes === 1 ? '' : 's'} within ${Math.round(this.breaker.windowMs / 1000)} s; not restarting it until ${new Date(until).toISOString()} (in ${seconds} s)`,
    );
  }

  /**
   * Records a crash of a live child (`how`: `exit code 3`, `signal SIGKILL`) and schedules a
   * restart through `restart`: after the backoff, or when the breaker closes.
   */
  crashed(how: string, restart: () => Promise<void>): void {
    this.#record(`ended (${how})`, restart);
  }

  /**
   * Records a start that failed (`reason`: what happened on its first line, the child's stderr
   * lines after it). A start the supervisor made is retried like a crash (`restart`); a start
   * the owner asked for (a call, a listing) is retried by the owner, so without `restart` it is
   * only counted toward the breaker, and logged only when it opens the breaker.
   */
  failedToStart(reason: string, restart?: () => Promise<void>): void {
    this.#record(`failed to start: ${reason}`, restart);
  }

  #record(what: string, restart: (() => Promise<void>) | undefined): void {
    if (this.#stopped) return;
    const opened = this.breaker.crashed();
    // The first line says what happened; the lines after it (a child's stderr) close the message.
    const [head = what, ...rest] = what.split('\n');
    const detail = rest.map((line) => `\n${line}`).join('');
    if (opened) {
      this.#logger.error(
        { source: this.#source, cooldownMs: this.breaker.cooldownMs },
        `upstream MCP server "${this.#source}" is crash-looping (last: ${head}); not restarting it for ${_formatDelay(this.breaker.cooldownMs)}${detail}`,
      );
      if (restart) this.#schedule(this.breaker.cooldownMs, restart);
      return;
    }
    if (!restart) return;
    this.#attempt++;
    const delay = backoffDelay(this.#attempt, {
      minMs: this.#options.minRestartMs ?? 500,
      maxMs: this.#options.maxRestartMs ?? 30_000,
    });
    this.#logger.warn(
      { source: this.#source, restartInMs: delay, restart: this.#attempt },
      `upstream MCP server "${this.#source}" ${head}; restarting it in ${_formatDelay(delay)} (restart ${this.#attempt})${detail}`,
    );
    this.#schedule(delay, restart);
  }

  /** Restarts that brought the server back (started and initialized again), for the metrics. */
  get restarts(): number {
    return this.#restarts;
  }

  /** A session is up and answered: the next crash starts the backoff from the beginning. */
  healthy(): void {
    this.#attempt = 0;
    this.breaker.healthy();
  }

  /** Cancels any scheduled restart; no more restarts. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delayMs: number, restart: () => Promise<void>): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#stopped) return;
      restart().then(
        () => {
          this.#restarts++;
          this.#options.onRestarted?.();
        },
        // A failed start is counted by the session (it calls crashed() again); nothing else here.
        () => {},
      );
    }, delayMs);
    this.#timer.unref();
  }
}
