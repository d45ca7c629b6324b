/**
 * The console's live event feed: every event the relay handles (from the observed store), each
 * answer joined to its request (latency) and, for an `xp.error`, to the reason the adapter logged
 * when it refused the call; and every event the relay refused, with the reason its sender was told
 * in `OK false`. A bounded history is replayed to a new subscriber, then it gets each
 * new record as it happens.
 * @module
 */
import type { EventLogEntry } from './event-log.js';

/** One row of the live log. */
export type ConsoleEvent =
  | {
      type: 'event';
      seq: number;
      at: number;
      id: string;
      kind: string;
      from: string;
      to: string | undefined;
      bytes: number;
      /** What the relay did with it: stored, duplicate, or failed (could not store). */
      verdict: EventLogEntry['outcome'];
      /** The request this answers (its `e` tag). */
      replyTo?: string;
      /** From the request reaching the relay to this answer reaching it, in ms. */
      latencyMs?: number;
      /** An `xp.error` answer: the adapter's error code and message (it logged them before sealing). */
      refusal?: { code: string; message: string };
    }
  | {
      type: 'refused';
      seq: number;
      at: number;
      /** How many events this record stands for (1: the relay reports each refusal). */
      count: number;
      /** Why the relay refused it, as its sender was told. */
      reason: string;
      kind?: string;
      from?: string;
    };

/** A {@link ConsoleEvent} before it gets its sequence number. */
type _Unnumbered = ConsoleEvent extends infer E ? (E extends ConsoleEvent ? Omit<E, 'seq'> : never) : never;

/** The feed. */
export class ConsoleEvents {
  readonly #history: ConsoleEvent[] = [];
  readonly #limit: number;
  readonly #listeners = new Set<(event: ConsoleEvent) => void>();
  /** Request id → when the relay took it (for the answer's latency). */
  readonly #requests = new Map<string, number>();
  /** Request id → the refusal the adapter logged, until its `xp.error` passes the relay. */
  readonly #refusals = new Map<string, { code: string; message: string }>();
  #seq = 0;

  constructor(limit = 1000) {
    this.#limit = limit;
  }

  /** The relay took (or failed to store) an event. */
  relayed(entry: EventLogEntry): void {
    const row: _Unnumbered = {
      type: 'event',
      at: entry.at,
      id: entry.id,
      kind: entry.kind,
      from: entry.from,
      to: entry.to,
      bytes: entry.bytes,
      verdict: entry.outcome,
    };
    if (entry.replyTo !== undefined) {
      row.replyTo = entry.replyTo;
      const asked = this.#requests.get(entry.replyTo);
      if (asked !== undefined) row.latencyMs = entry.at - asked;
      const refusal = this.#refusals.get(entry.replyTo);
      if (refusal !== undefined) {
        row.refusal = refusal;
        this.#refusals.delete(entry.replyTo);
      }
    } else if (!this.#requests.has(entry.id)) {
      this.#requests.set(entry.id, entry.at);
      _bound(this.#requests, this.#limit);
    }
    this.#push(row);
  }

  /** The adapter refused a call (`xp.error` on its way): remember why, for its answer's row. */
  refusedByAdapter(requestId: string, code: string, message: string): void {
    this.#refusals.set(requestId, { code, message });
    _bound(this.#refusals, this.#limit);
  }

  /** The relay refused an event (`OK false`) with `reason`: shown with who sent it and its kind. */
  refusedByRelay(reason: string, kind: string | undefined, from: string | undefined): void {
    this.#push({
      type: 'refused',
      at: Date.now(),
      count: 1,
      reason,
      ...(kind !== undefined && { kind }),
      ...(from !== undefined && { from }),
    });
  }

  /** What happened so far (oldest first, at most the limit). */
  history(): readonly ConsoleEvent[] {
    return this.#history;
  }

  /** Calls `listener` with each new record; returns a function that stops. */
  subscribe(listener: (event: ConsoleEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #push(row: _Unnumbered): void {
    const event = { ...row, seq: ++this.#seq } as ConsoleEvent;
    this.#history.push(event);
    if (this.#history.length > this.#limit) this.#history.shift();
    for (const listener of this.#listeners) listener(event);
  }
}

/** Drops the oldest entries of a map beyond `limit`. */
function _bound(map: Map<string, unknown>, limit: number): void {
  while (map.size > limit) map.delete(map.keys().next().value as string);
}
