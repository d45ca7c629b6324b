/**
 * Publishing the announce (docs/protocol.md §10.3): on start, whenever the catalog changes, and
 * every 10 minutes, with an expiration a little beyond the next re-publication so relays always
 * hold a fresh one. The payload, its canonical form, the signing and the reading are
 * `@xprotocol/registry`'s announce module; this is only the schedule.
 * @module
 */
import type { Identity, SignatureBackend, XpEvent } from '@xprotocol/crypto';
import { type AnnouncePayload, signAnnounce } from '@xprotocol/registry';
import type { RelayPool } from '@xprotocol/relay-client';
import { type BridgeLogger, silentLogger } from '../logger.js';

/** Re-publication interval: 10 minutes. */
export const ANNOUNCE_INTERVAL_MS = 10 * 60 * 1000;

/** Publishes the announce now, on demand and on a timer. */
export class Announcer {
  readonly #pool: RelayPool;
  readonly #identity: Identity;
  readonly #payload: () => AnnouncePayload;
  readonly #signatures: SignatureBackend;
  readonly #logger: BridgeLogger;
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastCreatedAt = 0;

  constructor(options: {
    pool: RelayPool;
    identity: Identity;
    /** The current payload; its `x25519` must be `identity`'s. */
    payload: () => AnnouncePayload;
    signatures: SignatureBackend;
    logger?: BridgeLogger;
  }) {
    this.#pool = options.pool;
    this.#identity = options.identity;
    this.#payload = options.payload;
    this.#signatures = options.signatures;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Publishes once and every {@link ANNOUNCE_INTERVAL_MS} after. */
  async start(): Promise<XpEvent> {
    const event = await this.publish();
    this.#timer = setInterval(() => {
      this.publish().catch((error: unknown) =>
        this.#logger.warn({ error: (error as Error).message }, 'announce re-publication failed'),
      );
    }, ANNOUNCE_INTERVAL_MS);
    this.#timer.unref();
    return event;
  }

  /**
   * Signs the current payload and hands it to the outbox (resolves once durable there). It logs
   * `announce queued` now and `announce accepted` when the first relay answers `OK`; until then
   * the pool keeps delivering it, so an adapter whose relays are down never claims a published
   * announce.
   */
  async publish(): Promise<XpEvent> {
    // A newer announce must have a later created_at than the last one, or readers may keep the old.
    const nowSeconds = Math.max(Math.floor(Date.now() / 1000), this.#lastCreatedAt + 1);
    this.#lastCreatedAt = nowSeconds;
    const event = signAnnounce(this.#payload(), this.#identity, {
      nowSeconds,
      ttlSeconds: Math.ceil((ANNOUNCE_INTERVAL_MS * 1.5) / 1000),
      signatures: this.#signatures,
    });
    await this.#pool.enqueue(event);
    this.#logger.info({ id: event.id }, 'announce queued: waiting for a relay to accept it');
    this.#pool.publish(event).then(
      (result) =>
        this.#logger.info({ id: event.id, relay: result.relay }, `announce accepted by ${result.relay}`),
      (error: unknown) => {
        // CLOSED: the adapter stopped; a newer announce replaces this one anyway.
        if ((error as { code?: unknown }).code !== 'CLOSED')
          this.#logger.warn(
            { id: event.id, error: (error as Error).message },
            'announce not accepted by any relay',
          );
      },
    );
    return event;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
