/**
 * Writes the running adapter's status snapshot (status-snapshot.ts) into its state database, where
 * `xprotocol-adapter status` reads it: no listener, no port — what may read the status is what
 * may read the state file. It is written when the adapter starts, within
 * {@link STATUS_SETTLE_MS} of a change (a call answered, a problem logged, the phase), every
 * {@link STATUS_REFRESH_MS} when what the relays and sources report changed, at least every
 * {@link STATUS_HEARTBEAT_MS} (the write time says the adapter is alive; an idle adapter so writes
 * one page of WAL every few seconds, not its whole snapshot every tick), and once more on stop,
 * with the time it stopped. One write at a time; changes meanwhile go into the next one. A write
 * that fails is logged once, until one succeeds again.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import type { BridgeLogger, InboundOutcome, StateDatabase } from '@xprotocol/mcp-bridge';
import type { AdapterConfig } from '../config/index.js';
import {
  CallTally,
  healthSnapshot,
  RecentProblems,
  STATUS_HEARTBEAT_MS,
  STATUS_REFRESH_MS,
  STATUS_SETTLE_MS,
  type StatusHealth,
  type StatusSnapshot,
} from './status-snapshot.js';

/** Options of {@link StatusReporter}. */
export interface StatusReporterOptions {
  mode: AdapterConfig['mode'];
  /** Where a failed write is reported (not the tapped logger: its warning would ask for a write). */
  logger: BridgeLogger;
  /** Default: this process's. */
  pid?: number;
  /** The clock, in ms. */
  now?: () => number;
  /** Default {@link STATUS_REFRESH_MS}. */
  refreshMs?: number;
  /** Default {@link STATUS_SETTLE_MS}. */
  settleMs?: number;
}

/** What the reporter writes about, once the state database is open. */
export interface StatusSources {
  state: Pick<StateDatabase, 'saveStatus'>;
  /** The adapter's ed25519 key; none for a pure MCP gateway. */
  key: string | undefined;
  /** The delegation chain the adapter runs with, as its check accepted it (`expiresAt` in Unix seconds). */
  chain?: { root: string; links: number; capabilities: readonly string[]; expiresAt: number } | undefined;
  /** What the sources and relays report now; read at each write. */
  health: () => StatusHealth;
}

/**
 * The adapter's status writer. Made first, so that what is logged and counted before the state
 * database is open is kept too; it writes from {@link StatusReporter.start} on.
 */
export class StatusReporter {
  readonly #o: StatusReporterOptions;
  #on: StatusSources | undefined;
  readonly #now: () => number;
  readonly #calls = new CallTally();
  readonly #problems = new RecentProblems();
  #phase: StatusSnapshot['phase'] = 'starting';
  #startedAt = 0;
  #refresh: ReturnType<typeof setInterval> | undefined;
  #settle: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #failing = false;
  /** The last snapshot written, as JSON, and when. */
  #written: { json: string; at: number } | undefined;

  constructor(options: StatusReporterOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** Writes the first snapshot (phase `starting`) through `on.state`, then keeps it fresh. */
  async start(on: StatusSources): Promise<void> {
    this.#on = on;
    this.#startedAt = this.#now();
    await this.#write();
    this.#refresh = setInterval(() => void this.#write(), this.#o.refreshMs ?? STATUS_REFRESH_MS);
    // The adapter's own work keeps the process alive, never its status.
    this.#refresh.unref();
  }

  /** The adapter serves. */
  ready(): void {
    this.#phase = 'ready';
    this.#changed();
  }

  /** The adapter has begun to stop (calls in flight are being answered). */
  stopping(): void {
    this.#phase = 'stopping';
    this.#changed();
  }

  /** What became of one inbound event (`XpEndpointOptions.onOutcome`). */
  outcome(outcome: InboundOutcome, request: XpEvent | undefined): void {
    if (this.#calls.record(outcome, request, this.#now())) this.#changed();
  }

  /** A record the adapter logged; warnings and errors are kept. */
  problem(level: string, fields: Record<string, unknown>, message: string): void {
    if (this.#problems.record(level, fields, message, this.#now())) this.#changed();
  }

  /** Stops refreshing and writes the last snapshot, with the time the adapter stopped. */
  async stop(): Promise<void> {
    if (this.#stopped || this.#on === undefined) return;
    this.#stopped = true;
    clearInterval(this.#refresh);
    clearTimeout(this.#settle);
    this.#phase = 'stopping';
    await this.#writing;
    await this.#save(this.#now());
  }

  /** Something changed: write soon (once, for everything that changes meanwhile). */
  #changed(): void {
    if (this.#stopped || this.#settle !== undefined || this.#on === undefined) return;
    this.#settle = setTimeout(() => {
      this.#settle = undefined;
      void this.#write();
    }, this.#o.settleMs ?? STATUS_SETTLE_MS);
    this.#settle.unref();
  }

  /** One write at a time; one asked for meanwhile follows it, with what is new by then. */
  #write(): Promise<void> {
    if (this.#writing) {
      this.#again = true;
      return this.#writing;
    }
    this.#writing = (async () => {
      do {
        this.#again = false;
        await this.#save(undefined);
      } while (this.#again && !this.#stopped);
    })().finally(() => {
      this.#writing = undefined;
    });
    return this.#writing;
  }

  /** Writes the snapshot, unless it is the one written last and that is recent enough. */
  async #save(stoppedAt: number | undefined): Promise<void> {
    const on = this.#on!;
    try {
      const writtenAt = this.#now();
      const snapshot = this.#snapshot(on);
      const json = JSON.stringify(snapshot);
      const last = this.#written;
      if (stoppedAt === undefined && last?.json === json && writtenAt - last.at < STATUS_HEARTBEAT_MS) return;
      await on.state.saveStatus({
        pid: this.#o.pid ?? process.pid,
        startedAt: this.#startedAt,
        writtenAt,
        stoppedAt,
        snapshot,
      });
      this.#written = { json, at: writtenAt };
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) {
        this.#o.logger.warn(
          { error: (error as Error).message },
          `cannot write the adapter's status into the state database: ${(error as Error).message}; \`xprotocol-adapter status\` may say it is not running`,
        );
      }
      this.#failing = true;
    }
  }

  #snapshot(on: StatusSources): StatusSnapshot {
    const { chain } = on;
    return {
      mode: this.#o.mode,
      phase: this.#phase,
      key: on.key ?? null,
      chain: chain
        ? {
            root: chain.root,
            links: chain.links,
            capabilities: [...chain.capabilities],
            expires_at: new Date(chain.expiresAt * 1000).toISOString(),
          }
        : null,
      ...healthSnapshot(on.health()),
      calls: this.#calls.counts(),
      errors: this.#problems.list(),
    };
  }
}
