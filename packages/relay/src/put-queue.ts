/**
 * The puts a store has accepted and not yet written, and when to write them: a batch goes out as
 * soon as it is full, else after the batch window (or on the next turn of the event loop), so a
 * burst of publishes becomes one transaction. Shared by the SQLite and Postgres stores, which
 * differ only in how a batch is written.
 * @module
 */
import { RelayError } from './errors.js';
import type { PutOutcome, RelayEvent } from './store.js';
import { _isIdHex, _isKeyString } from './stored-keys.js';

/** @internal One accepted put: settled when its batch is durable. */
export interface _PendingPut {
  event: RelayEvent;
  expiresAt: number;
  resolve: (outcome: PutOutcome) => void;
  reject: (error: Error) => void;
}

/** @internal */
export class _PutQueue {
  #pending: _PendingPut[] = [];
  #cancelSend: (() => void) | undefined;

  /**
   * @param maxBatch most puts in one batch; a full batch is sent at once.
   * @param batchWindowMs how long the first put of a batch waits for others (0: the next turn).
   * @param send called when a batch should go out; it takes puts with {@link take}.
   */
  constructor(
    readonly maxBatch: number,
    private readonly batchWindowMs: number,
    private readonly send: () => void,
  ) {}

  /** Number of puts waiting. */
  get length(): number {
    return this.#pending.length;
  }

  /** Accepts a put (refusing an id or key a store cannot hold); resolves when its batch is durable. */
  add(event: RelayEvent, expiresAt: number): Promise<PutOutcome> {
    if (!_isIdHex(event.id) || !_isKeyString(event.pubkey)) {
      return Promise.reject(
        new RelayError(
          'STORE_FAILED',
          `expected an event id of 64 lowercase hex digits and an ed25519: key, got ${JSON.stringify(event.id.slice(0, 80))} and ${JSON.stringify(event.pubkey.slice(0, 80))}`,
        ),
      );
    }
    return new Promise<PutOutcome>((resolve, reject) => {
      this.#pending.push({ event, expiresAt, resolve, reject });
      if (this.#pending.length >= this.maxBatch) this.send();
      else if (this.#cancelSend === undefined) {
        if (this.batchWindowMs > 0) {
          const timer = setTimeout(() => this.send(), this.batchWindowMs);
          this.#cancelSend = () => clearTimeout(timer);
        } else {
          const immediate = setImmediate(() => this.send());
          this.#cancelSend = () => clearImmediate(immediate);
        }
      }
    });
  }

  /** Cancels a scheduled send and takes up to `max` waiting puts, oldest first. */
  take(max = Number.POSITIVE_INFINITY): _PendingPut[] {
    this.#cancelSend?.();
    this.#cancelSend = undefined;
    return max >= this.#pending.length ? this.#pending.splice(0) : this.#pending.splice(0, max);
  }
}
