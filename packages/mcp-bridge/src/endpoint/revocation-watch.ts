/**
 * Revocations from the relays, honoured while the endpoint runs (docs/protocol.md §11.2, "On
 * relays"): one subscription to `xp.key.revoke` events by the keys whose revocations can count —
 * the trusted issuers, and every issuer of a chain a caller presented whose links hold. A
 * revocation that a relay delivers live counts from the next call on; every
 * {@link DEFAULT_REVOCATION_REQUERY_SECONDS} the subscription is made again, so one that was missed
 * (a relay that dropped it from the live feed) counts at most that much later. When a chain brings
 * an issuer not watched yet, its call waits for the relays' stored revocations of that issuer
 * (at most {@link DEFAULT_REVOCATION_WAIT_MS}) before the chain is judged. Each revocation newly
 * accepted is kept in the state database, which the endpoint reads back when it starts: a relay
 * holds a revocation only for so long, the endpoint for good.
 * @module
 */
import type { Revocation } from '@xprotocol/crypto';
import type { RelayPool, Subscription } from '@xprotocol/relay-client';
import { type Filter, REVOKE_KIND } from '@xprotocol/wire';
import type { BridgeLogger } from '../logger.js';
import type { RevocationSet } from '../policy/revocation-set.js';

/** How often the revocation subscription is made again, in seconds. */
export const DEFAULT_REVOCATION_REQUERY_SECONDS = 60;
/** How long a call waits for the stored revocations of an issuer first seen in its chain, in ms. */
export const DEFAULT_REVOCATION_WAIT_MS = 5000;
/** The most keys watched: ten filters of 100 authors, within a relay's limits on a REQ. */
export const MAX_WATCHED_ISSUERS = 1000;
const AUTHORS_PER_FILTER = 100;

/** Options of {@link _RevocationWatch}. */
export interface _RevocationWatchOptions {
  pool: RelayPool;
  revocations: RevocationSet;
  /** The keys watched from the start: the trusted issuers. */
  issuers: readonly string[];
  /** Keeps each revocation newly accepted, so that it counts after a restart too. */
  keep: (revocation: Revocation) => void;
  requerySeconds: number;
  waitMs: number;
  logger: BridgeLogger;
}

/** The endpoint's subscription to revocations. */
export class _RevocationWatch {
  readonly #o: _RevocationWatchOptions;
  readonly #issuers = new Set<string>();
  #subscription: Subscription | undefined;
  /** Whether a relay answered the current subscription (or its wait ended). */
  #settled = true;
  /** Calls waiting for that. */
  #waiters: (() => void)[] = [];
  /** Counts subscriptions, so an older one's answer is told from the current one's. */
  #subscribed = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;

  constructor(options: _RevocationWatchOptions) {
    this.#o = options;
    for (const key of options.issuers.slice(0, MAX_WATCHED_ISSUERS)) this.#issuers.add(key);
  }

  /** Subscribes for the trusted issuers and starts the periodic re-query. */
  start(): void {
    if (this.#issuers.size === 0 || this.#stopped) return;
    this.#subscribe(true);
    this.#requery();
  }

  /** Ends the subscription and the re-query. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#subscription?.close();
    this.#subscription = undefined;
  }

  /**
   * Makes sure revocations by `keys` are watched. Resolves at once when they were and the relays
   * answered already; otherwise once a relay sent its stored revocations, or the wait ended.
   * `'full'` when watching them would pass {@link MAX_WATCHED_ISSUERS}: the chain is then refused,
   * since a revocation by one of them could go unnoticed.
   */
  watch(keys: readonly string[]): Promise<void> | 'full' {
    const added = [...new Set(keys)].filter((key) => !this.#issuers.has(key));
    if (added.length > 0) {
      if (this.#issuers.size + added.length > MAX_WATCHED_ISSUERS) return 'full';
      for (const key of added) this.#issuers.add(key);
      if (this.#stopped) return Promise.resolve();
      this.#subscribe(true);
      this.#requery();
    }
    if (this.#settled) return Promise.resolve();
    return new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** How many keys are watched. */
  get size(): number {
    return this.#issuers.size;
  }

  /** Starts the periodic re-query, once. */
  #requery(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#subscribe(false), this.#o.requerySeconds * 1000);
    this.#timer.unref?.();
  }

  /**
   * A new subscription for every watched key; the previous one closes once it is sent. With
   * `blocking` (a key was added), calls wait for a relay's stored revocations; a periodic re-query
   * holds nobody up.
   */
  #subscribe(blocking: boolean): void {
    const authors = [...this.#issuers];
    const filters: Filter[] = [];
    for (let i = 0; i < authors.length; i += AUTHORS_PER_FILTER) {
      filters.push({ kinds: [REVOKE_KIND], authors: authors.slice(i, i + AUTHORS_PER_FILTER) });
    }
    if (blocking) this.#settled = false;
    this.#subscribed += 1;
    const subscribed = this.#subscribed;
    const answered = () => {
      clearTimeout(wait);
      // Only the newest subscription settles the waiters: an older one has fewer keys.
      if (subscribed !== this.#subscribed || this.#settled) return;
      this.#settled = true;
      for (const resolve of this.#waiters.splice(0)) resolve();
    };
    const wait = setTimeout(answered, this.#o.waitMs);
    wait.unref?.();
    const previous = this.#subscription;
    this.#subscription = this.#o.pool.subscribe(filters, {
      onEvent: (event) => this.#receive(event.pubkey, event.content, event.id),
      onEose: answered,
      onClosed: (relay, reason) =>
        this.#o.logger.warn({ relay, reason }, 'relay closed the revocation subscription'),
    });
    previous?.close();
  }

  #receive(publisher: string, content: string, eventId: string): void {
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      this.#o.logger.warn(
        { id: eventId, publisher },
        `${REVOKE_KIND} event ignored: its content is not JSON`,
      );
      return;
    }
    const added = this.#o.revocations.add(value, publisher);
    if (!added.ok) {
      this.#o.logger.warn({ id: eventId, publisher }, `${REVOKE_KIND} event ignored: ${added.reason}`);
      return;
    }
    if (added.added) {
      this.#o.keep(added.revocation);
      this.#o.logger.info(
        { revoked: added.revocation.revoked, issuer: added.revocation.issuer },
        'revocation received: chains with this delegation are refused from now on',
      );
    }
  }
}
