/**
 * The relay's storage quota: how many bytes of events it holds per signing key and in all. An
 * event's bytes are its JSON in UTF-8 — the text the SQLite store keeps and fan-out sends. An
 * admitted event is counted before it goes to the store (so a burst of events in one batch cannot
 * all pass the check against the same old total); a put that stores nothing (a duplicate, a failed
 * commit) gives its bytes back; and the expiry sweep gives back the bytes of the events it deleted.
 * Events leave a store only by expiry (this relay implements no deletion requests), so these three
 * cover every change.
 *
 * The sweep deletes events without saying whose they were, so the account groups each key's bytes
 * by the minute its events expire in (`expiresAt` rounded up to a multiple of 60): after a sweep at
 * `now` has committed, every minute that ended by `now` is forgotten — the sweep deleted all its
 * events. Rounding up means bytes are released at the latest one sweep after the minute ends,
 * never before the store has deleted them.
 *
 * Across restarts the account is computed from the store when the relay starts rather than
 * persisted: the store's own rows are the truth, so the account cannot drift from them after a
 * crash, a copied file or a store written by another relay, and the SQLite layout needs no new
 * table or migration. Reading it costs one pass over the stored events' sizes (SQLite reads them
 * from the row headers), bounded by the relay's storage ceiling. Stored events that expired while
 * the relay was stopped are swept first, so they do not count.
 *
 * Memory: one entry per key holding bytes and one per (key, minute); the ceiling bounds how many
 * events, hence keys, there can be.
 * @module
 */
import type { ReasonPrefix } from '@xprotocol/wire';
import type { EventStore } from './store.js';

/** Seconds in one expiry group of the account. */
const MINUTE = 60;

/** The limits of a {@link _StorageQuota}. */
export interface _StorageLimits {
  /** Most bytes of events held for one signing key. */
  perKey: number;
  /** Most bytes of events held in all. */
  total: number;
  /** Seconds between expiry sweeps (a retry hint waits for the sweep after the expiry). */
  sweepSeconds: number;
}

/** The verdict on an event's bytes: counted, or refused with a reason prefix and sentence. */
export type _QuotaVerdict = { ok: true } | { ok: false; prefix: ReasonPrefix; message: string };

/** Bytes of events held per signing key and in all, grouped by the minute they expire in. */
export class _StorageQuota {
  readonly #limits: _StorageLimits;
  readonly #byKey = new Map<string, number>();
  /** By the end of an expiry minute (unix seconds): the bytes of each key expiring in it. */
  readonly #byMinute = new Map<number, Map<string, number>>();
  #total = 0;

  constructor(limits: _StorageLimits) {
    this.#limits = limits;
  }

  /** Bytes of events held in all now (what the relay's `stored_bytes` metric reads). */
  get totalBytes(): number {
    return this.#total;
  }

  /** Counts `bytes` of an event of `pubkey` expiring at `expiresAt`, whatever the limits. */
  add(pubkey: string, expiresAt: number, bytes: number): void {
    const end = Math.ceil(expiresAt / MINUTE) * MINUTE;
    let minute = this.#byMinute.get(end);
    if (minute === undefined) {
      minute = new Map();
      this.#byMinute.set(end, minute);
    }
    minute.set(pubkey, (minute.get(pubkey) ?? 0) + bytes);
    this.#byKey.set(pubkey, this.#heldBy(pubkey) + bytes);
    this.#total += bytes;
  }

  /**
   * Counts the event when it fits both limits; otherwise refuses it: `too-large:` when it alone is
   * over a limit (it can never be stored), `rate-limited:` with the numbers and a retry hint (when
   * the oldest bytes in the way expire) when the key's quota or the ceiling is full.
   */
  reserve(pubkey: string, expiresAt: number, bytes: number, nowSeconds: number): _QuotaVerdict {
    const { perKey, total } = this.#limits;
    if (bytes > perKey || bytes > total) {
      const [limit, what] =
        bytes > perKey ? [perKey, 'per key (--max-bytes-per-key)'] : [total, 'in all (--max-stored-bytes)'];
      return {
        ok: false,
        prefix: 'too-large',
        message: `event is ${bytes} bytes; this relay stores at most ${limit} bytes of events ${what}`,
      };
    }
    const held = this.#heldBy(pubkey);
    if (held + bytes > perKey) {
      const wait = this.#retryAfter(nowSeconds, pubkey);
      return {
        ok: false,
        prefix: 'rate-limited',
        message: `storage quota of ${pubkey} is full: the key holds ${held} bytes of events; this one is ${bytes} bytes and the quota is ${perKey} bytes per key (--max-bytes-per-key); retry after ${wait} s, when its oldest stored events have expired`,
      };
    }
    if (this.#total + bytes > total) {
      const wait = this.#retryAfter(nowSeconds, undefined);
      return {
        ok: false,
        prefix: 'rate-limited',
        message: `the relay's storage is full: it holds ${this.#total} bytes of events; this one is ${bytes} bytes and the ceiling is ${total} bytes (--max-stored-bytes); retry after ${wait} s, when the oldest stored events have expired`,
      };
    }
    this.add(pubkey, expiresAt, bytes);
    return { ok: true };
  }

  /**
   * Gives back the bytes of a reserved event that was not stored (a duplicate, a failed commit).
   * Nothing when a sweep already released its minute.
   */
  release(pubkey: string, expiresAt: number, bytes: number): void {
    const end = Math.ceil(expiresAt / MINUTE) * MINUTE;
    const minute = this.#byMinute.get(end);
    const held = minute?.get(pubkey);
    if (minute === undefined || held === undefined) return;
    const freed = Math.min(bytes, held);
    if (held === freed) minute.delete(pubkey);
    else minute.set(pubkey, held - freed);
    if (minute.size === 0) this.#byMinute.delete(end);
    this.#take(pubkey, freed);
  }

  /** After a sweep deleted every event expired at `nowSeconds`: forgets the minutes ended by then. */
  expired(nowSeconds: number): void {
    for (const [end, minute] of this.#byMinute) {
      if (end > nowSeconds) continue;
      for (const [pubkey, bytes] of minute) this.#take(pubkey, bytes);
      this.#byMinute.delete(end);
    }
  }

  /** Bytes held for `pubkey` (including events whose put has not committed yet). */
  #heldBy(pubkey: string): number {
    return this.#byKey.get(pubkey) ?? 0;
  }

  #take(pubkey: string, bytes: number): void {
    const left = this.#heldBy(pubkey) - bytes;
    if (left > 0) this.#byKey.set(pubkey, left);
    else this.#byKey.delete(pubkey);
    this.#total -= bytes;
  }

  /**
   * Seconds until the earliest bytes of `pubkey` (or of anyone) are released: the end of their
   * expiry minute, plus one sweep interval. At least 1.
   */
  #retryAfter(nowSeconds: number, pubkey: string | undefined): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [end, minute] of this.#byMinute) {
      if (end < earliest && (pubkey === undefined || minute.has(pubkey))) earliest = end;
    }
    const until = Number.isFinite(earliest) ? earliest - nowSeconds : 0;
    return Math.max(1, until) + this.#limits.sweepSeconds;
  }
}

/**
 * Starts the account of a relay about to listen: sweeps what expired while it was stopped, then
 * counts every event `store` holds (its {@link EventStore.forEachStored}). A store without
 * `forEachStored` starts with nothing counted.
 */
export async function _countStored(
  quota: _StorageQuota,
  store: EventStore,
  nowSeconds: number,
): Promise<void> {
  await store.expire(nowSeconds);
  await store.forEachStored?.((pubkey, expiresAt, bytes) => quota.add(pubkey, expiresAt, bytes));
}
