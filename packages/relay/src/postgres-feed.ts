/**
 * The events other relay processes stored in a shared Postgres database, read in the order they
 * were committed (docs/architecture.md, "The relay on Postgres").
 *
 * A notification on the events channel, carrying the highest sequence number of a commit, is only
 * a wake-up: the feed then reads every row past the last number it saw. A notification lost (a
 * dropped connection) or coalesced (many commits while a read runs) is therefore filled by the
 * next read, and a slow poll bounds how long a lost one can delay delivery. Sequence numbers
 * become visible in order (postgres-schema.ts, the write lock), so nothing is skipped.
 * @module
 */
import type { Client, Pool } from 'pg';
import { _EVENTS_CHANNEL, _EVENTS_TABLE } from './postgres-schema.js';
import type { RelayEvent } from './store.js';

/** Rows read per query while catching up. */
const PAGE = 512;

/** How the feed reaches the database and what it skips. */
export interface _FeedOptions {
  pool: Pool;
  /** Makes the connection that listens for notifications. */
  listener: () => Client;
  /** The last sequence number already seen: the feed starts past it. */
  after: number;
  /** Milliseconds between reads when no notification comes. */
  pollIntervalMs: number;
  /** Milliseconds before a lost listening connection is made again. */
  reconnectMs: number;
  /** True for a row this process stored itself (its relay fanned it out when it admitted it). */
  isOwn: (seq: number, id: string) => boolean;
}

/** Reads, in commit order, the rows past the last one seen and hands on the others' events. */
export class _PostgresFeed {
  readonly #options: _FeedOptions;
  #last: number;
  #deliver: ((event: RelayEvent, expiresAt: number) => void) | undefined;
  #reading: Promise<void> | undefined;
  #again = false;
  #listener: Client | undefined;
  #timers: ReturnType<typeof setTimeout>[] = [];
  #closed = false;

  constructor(options: _FeedOptions) {
    this.#options = options;
    this.#last = options.after;
  }

  /** The last sequence number read. */
  get last(): number {
    return this.#last;
  }

  /** Starts listening and polling; `deliver` gets each event another process stored. */
  start(deliver: (event: RelayEvent, expiresAt: number) => void): void {
    this.#deliver = deliver;
    const poll = setInterval(() => this.read(), this.#options.pollIntervalMs);
    poll.unref();
    this.#timers.push(poll);
    void this.#listen();
  }

  /** Reads what was committed past the last row seen (once more after a running read ends). */
  read(): void {
    if (this.#closed || this.#deliver === undefined) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#catchUp().finally(() => {
      this.#reading = undefined;
      if (this.#again) {
        this.#again = false;
        this.read();
      }
    });
  }

  /** Stops listening and polling, after the read under way. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    await this.#reading;
    await this.#listener?.end().catch(() => {});
  }

  async #catchUp(): Promise<void> {
    const deliver = this.#deliver!;
    try {
      for (;;) {
        const { rows } = await this.#options.pool.query<{ seq: string; json: string; expires_at: string }>(
          `SELECT seq, json, expires_at FROM ${_EVENTS_TABLE} WHERE seq > $1 ORDER BY seq LIMIT ${PAGE}`,
          [this.#last],
        );
        for (const row of rows) {
          const seq = Number(row.seq);
          this.#last = seq;
          const event = JSON.parse(row.json) as RelayEvent;
          if (this.#options.isOwn(seq, event.id)) continue;
          try {
            deliver(event, Number(row.expires_at));
          } catch {
            // A subscriber's failure is not the feed's: the next event still goes out.
          }
        }
        if (rows.length < PAGE || this.#closed) return;
      }
    } catch {
      // The database did not answer: the next notification or poll reads from the same place.
    }
  }

  /** Listens on the events channel; a lost connection is made again, then read past. */
  async #listen(): Promise<void> {
    if (this.#closed) return;
    const client = this.#options.listener();
    this.#listener = client;
    let lost = false;
    const again = () => {
      if (lost || this.#closed) return;
      lost = true;
      void client.end().catch(() => {});
      const timer = setTimeout(() => void this.#listen(), this.#options.reconnectMs);
      timer.unref();
      this.#timers.push(timer);
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (message) => {
      if (message.channel !== _EVENTS_CHANNEL) return;
      // The payload is the commit's highest sequence number: nothing to read when already past it.
      if (message.payload !== undefined && Number(message.payload) <= this.#last) return;
      this.read();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${_EVENTS_CHANNEL}`);
      // Anything committed while no connection listened.
      this.read();
    } catch {
      again();
    }
  }
}
