/**
 * `xp.endpoint.announce` (seed §6.3, DESIGN.md §4 "announce"): a signed, public event that says who
 * the endpoint is, where to seal requests (its X25519 key) and what it wraps. It is published on
 * start, whenever the catalog changes, and every 10 minutes, with an expiration a little beyond the
 * next re-publication so relays always hold a fresh one.
 * @module
 */
import {
  createEventTemplate,
  type Identity,
  type SignatureBackend,
  signEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import type { RelayPool } from '@xprotocol/relay-client';
import { type BridgeLogger, silentLogger } from './logger.js';

/** The announce kind. */
export const ANNOUNCE_KIND = 'xp.endpoint.announce';

/** Re-publication interval: 10 minutes. */
export const ANNOUNCE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Signs an announce. `x25519` (the encryption key) and `relays` are always set from the identity
 * and the arguments, whatever `payload` holds.
 */
export function buildAnnounce(
  identity: Identity,
  payload: Record<string, unknown>,
  options: {
    relays: readonly string[];
    nowSeconds: number;
    ttlSeconds: number;
    signatures: SignatureBackend;
  },
): XpEvent {
  const content = { ...payload, x25519: identity.keys.x25519, relays: [...options.relays] };
  return signEvent(
    createEventTemplate({
      kind: ANNOUNCE_KIND,
      content: JSON.stringify(content),
      tags: [['x25519', identity.keys.x25519]],
      created_at: options.nowSeconds,
      expiration: options.nowSeconds + options.ttlSeconds,
    }),
    identity.ed25519.secretKey,
    options.signatures,
  );
}

/** Publishes the announce now, on demand and on a timer. */
export class Announcer {
  readonly #pool: RelayPool;
  readonly #identity: Identity;
  readonly #payload: () => Record<string, unknown>;
  readonly #relays: readonly string[];
  readonly #signatures: SignatureBackend;
  readonly #logger: BridgeLogger;
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastCreatedAt = 0;

  constructor(options: {
    pool: RelayPool;
    identity: Identity;
    relays: readonly string[];
    payload: () => Record<string, unknown>;
    signatures: SignatureBackend;
    logger?: BridgeLogger;
  }) {
    this.#pool = options.pool;
    this.#identity = options.identity;
    this.#payload = options.payload;
    this.#relays = options.relays;
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

  /** Signs the current payload and hands it to the outbox (resolves once durable there). */
  async publish(): Promise<XpEvent> {
    // A newer announce must have a later created_at than the last one, or readers may keep the old.
    const nowSeconds = Math.max(Math.floor(Date.now() / 1000), this.#lastCreatedAt + 1);
    this.#lastCreatedAt = nowSeconds;
    const event = buildAnnounce(this.#identity, this.#payload(), {
      relays: this.#relays,
      nowSeconds,
      ttlSeconds: Math.ceil((ANNOUNCE_INTERVAL_MS * 1.5) / 1000),
      signatures: this.#signatures,
    });
    await this.#pool.enqueue(event);
    this.#logger.info({ id: event.id }, 'announce published');
    return event;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
