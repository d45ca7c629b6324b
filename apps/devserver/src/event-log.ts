/**
 * The pretty event log: one line per event the local relay handles — time, kind, short sender →
 * recipient keys, size and outcome (`OK`, `OK duplicate`, or the refusal). It observes the relay
 * through its store (every accepted event passes through `put`) and its refusal counter; it sees
 * only the signed envelope, so decrypted payloads are never printed (they are never available).
 * @module
 */
import type { EventStore, PutOutcome, Relay, RelayEvent, RelayRefusal } from '@xprotocol/relay';
import type { Filter } from '@xprotocol/wire';
import type { Style } from './style.js';

/** One event as the log shows it. */
export interface EventLogEntry {
  /** When the relay finished with it, in ms since the epoch. */
  at: number;
  kind: string;
  /** The sender's `ed25519:` key. */
  from: string;
  /** The recipient (`p` tag), or `undefined` for a public event such as an announce. */
  to: string | undefined;
  /** Bytes of the event's JSON. */
  bytes: number;
  /** `stored` and `duplicate` are answered `OK`; `failed` is an `OK false` after a store error. */
  outcome: PutOutcome | 'failed';
  /** The event id (hex). */
  id: string;
  /** The request an answer names in its `e` tag (an answer's `.result` or `xp.error`), if any. */
  replyTo?: string | undefined;
}

/** The first 8 hex digits of an `ed25519:` key, or `*` for no key. */
export function shortKey(key: string | undefined): string {
  if (key === undefined) return '*';
  return (key.startsWith('ed25519:') ? key.slice(8) : key).slice(0, 8);
}

/** `512 B`, `1.2 kB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * One log line (no newline).
 * @example
 * formatEventLine({ at: Date.UTC(2026, 0, 1, 9, 5, 7, 42), kind: 'com.demo.fs.read_text_file',
 *   from: 'ed25519:3f2a91c0…', to: 'ed25519:7be0d412…', bytes: 612, outcome: 'stored', id: 'ab…' }, style);
 * // '09:05:07.042  com.demo.fs.read_text_file         3f2a91c0 → 7be0d412    612 B  OK'
 */
export function formatEventLine(entry: EventLogEntry, style: Style): string {
  const time = new Date(entry.at).toISOString().slice(11, 23);
  const outcome =
    entry.outcome === 'stored'
      ? style.ok('OK')
      : entry.outcome === 'duplicate'
        ? style.dim('OK duplicate')
        : style.bad('refused: could not store');
  return `${style.dim(time)}  ${entry.kind.padEnd(34)} ${shortKey(entry.from)} → ${shortKey(entry.to).padEnd(8)} ${formatBytes(entry.bytes).padStart(8)}  ${outcome}`;
}

/**
 * An {@link EventStore} that reports every `put` to `onEvent` after the inner store answered,
 * i.e. when the relay is about to send its `OK`. Everything else is passed through.
 */
export class ObservedEventStore implements EventStore {
  readonly #inner: EventStore;
  readonly #onEvent: (entry: EventLogEntry) => void;
  readonly #now: () => number;

  constructor(inner: EventStore, onEvent: (entry: EventLogEntry) => void, now: () => number = Date.now) {
    this.#inner = inner;
    this.#onEvent = onEvent;
    this.#now = now;
  }

  async put(event: RelayEvent, expiresAt: number): Promise<PutOutcome> {
    const report = (outcome: EventLogEntry['outcome']) =>
      this.#onEvent({
        at: this.#now(),
        kind: event.kind,
        from: event.pubkey,
        to: event.tags.find((tag) => tag[0] === 'p')?.[1],
        bytes: Buffer.byteLength(JSON.stringify(event)),
        outcome,
        id: event.id,
        replyTo: event.tags.find((tag) => tag[0] === 'e')?.[1],
      });
    let outcome: PutOutcome;
    try {
      outcome = await this.#inner.put(event, expiresAt);
    } catch (error) {
      report('failed');
      throw error;
    }
    report(outcome);
    return outcome;
  }

  query(filter: Filter, nowSeconds: number): Promise<RelayEvent[]> {
    return this.#inner.query(filter, nowSeconds);
  }

  expire(nowSeconds: number): Promise<number> {
    return this.#inner.expire(nowSeconds);
  }

  count(): Promise<number> {
    return this.#inner.count();
  }

  /** Passed on, so the relay counts what a durable store already holds against its quotas. */
  async forEachStored(visit: (pubkey: string, expiresAt: number, bytes: number) => void): Promise<void> {
    await this.#inner.forEachStored?.(visit);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/**
 * One line for an event the relay refused before its store (invalid, expired, rate-limited, too
 * large), with the reason its sender was told in `OK false`, and the kind and signing key the
 * event claimed (unverified: a refused event may lie about them).
 */
export function formatRefusalLine(refusal: RelayRefusal, style: Style, at: number = Date.now()): string {
  const time = new Date(at).toISOString().slice(11, 23);
  const kind = (refusal.kind ?? '(no kind)').padEnd(34);
  const from = refusal.pubkey ? shortKey(refusal.pubkey) : '?';
  return `${style.dim(time)}  ${kind} ${from.padEnd(8)}             ${style.bad(`refused: ${refusal.reason}`)}`;
}

/**
 * Calls `onRefused` with how many events the relay refused since the last call, checking its
 * counter every `intervalMs` (and once more when stopped). Returns a function that stops watching.
 */
export function watchRefusalCount(
  relay: Pick<Relay, 'stats'>,
  onRefused: (count: number) => void,
  intervalMs = 250,
): () => void {
  let seen = relay.stats().refused;
  const check = () => {
    const refused = relay.stats().refused;
    if (refused > seen) {
      const count = refused - seen;
      seen = refused;
      onRefused(count);
    }
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    check();
  };
}
