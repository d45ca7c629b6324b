/**
 * How the endpoint answers (docs/protocol.md §4): a result or an `xp.error` sealed to the
 * requester with an `e` tag, a catalog page signed in the clear, or nothing at all — a refusal
 * that could serve as an oracle or an amplifier is dropped and logged. Every answer is stored
 * before it reaches the outbox, so a call runs at most once (see `StateDatabase`); answers
 * live as long as the request, else for the answer TTL.
 * @module
 */
import {
  CryptoError,
  createEventTemplate,
  getExpiration,
  getTag,
  isKeyString,
  MAX_PLAINTEXT_BYTES,
  sealEvent,
  signEvent,
  type X25519KeyString,
  type XpEvent,
} from '@xprotocol/crypto';
import { ERROR_KIND, type XpErrorCode, type XpErrorPayload, xpError } from '@xprotocol/wire';
import type { BridgeLogger } from '../logger.js';
import type { _ResolvedOptions, InboundOutcome } from './endpoint-options.js';

/** The answers of one endpoint. */
export class _EndpointAnswers {
  readonly #o: _ResolvedOptions;
  readonly #logger: BridgeLogger;
  readonly #now: () => number;

  constructor(options: _ResolvedOptions, logger: BridgeLogger, now: () => number) {
    this.#o = options;
    this.#logger = logger;
    this.#now = now;
  }

  /**
   * Drops an event with no answer (logged with the event's id and sender when it is given). Nothing
   * is stored: a copy of it is dropped again by the same check.
   */
  drop(reason: string, event?: XpEvent): InboundOutcome {
    this.#logger.debug(
      event ? { id: event.id, kind: event.kind, sender: event.pubkey, reason } : { reason },
      'inbound event dropped',
    );
    return { action: 'dropped', reason };
  }

  /** Answers `request` with the `xp.error` `error`. */
  async error(request: XpEvent, error: XpErrorPayload): Promise<InboundOutcome> {
    this.#logger.info(
      { id: request.id, kind: request.kind, sender: request.pubkey, code: error.code },
      error.message,
    );
    const outcome = await this.answer(request, ERROR_KIND, error, error.code);
    return outcome.action === 'answered' ? { ...outcome, message: error.message } : outcome;
  }

  /** Answers `request` with `result` under `kind`, or `TOO_LARGE` when it does not fit in one event. */
  async result(request: XpEvent, kind: string, result: unknown): Promise<InboundOutcome> {
    try {
      return await this.answer(request, kind, result, undefined);
    } catch (error) {
      if (error instanceof CryptoError && error.code === 'INVALID_PAYLOAD') {
        return this.error(
          request,
          xpError(
            'TOO_LARGE',
            `the result does not fit in one event (at most ${MAX_PLAINTEXT_BYTES} bytes of JSON)`,
          ),
        );
      }
      throw error;
    }
  }

  /** Seals `payload` to the requester, stores it, then hands it to the outbox. */
  async answer(
    request: XpEvent,
    kind: string,
    payload: unknown,
    code: XpErrorCode | undefined,
  ): Promise<InboundOutcome> {
    const senderX25519 = getTag(request, 'x25519');
    if (!senderX25519 || !isKeyString(senderX25519, 'x25519')) {
      // Nowhere to seal an answer to: the request was not a sealed event.
      return this.drop('the request has no x25519 tag to answer to');
    }
    const nowSeconds = Math.floor(this.#now() / 1000);
    const answer = sealEvent(
      {
        kind,
        payload,
        replyTo: request.id,
        created_at: nowSeconds,
        expiration: this.#expiration(request, nowSeconds),
      },
      this.#o.identity,
      { ed25519: request.pubkey, x25519: senderX25519 as X25519KeyString },
      { signatures: this.#o.signatures, cipher: this.#o.cipher },
    );
    await this.#deliver(request, answer);
    return { action: 'answered', kind, code, answer };
  }

  /** Answers `request` in the clear with `content` under `kind`: signed, not encrypted (a public answer). */
  signed(request: XpEvent, kind: string, content: string): Promise<InboundOutcome> {
    const nowSeconds = Math.floor(this.#now() / 1000);
    const answer = signEvent(
      createEventTemplate({
        kind,
        content,
        tags: [
          ['p', request.pubkey],
          ['e', request.id],
        ],
        created_at: nowSeconds,
        expiration: this.#expiration(request, nowSeconds),
      }),
      this.#o.identity.ed25519.secretKey,
      this.#o.signatures,
    );
    return this.#deliver(request, answer).then(() => ({
      action: 'answered',
      kind: answer.kind,
      code: undefined,
      answer,
    }));
  }

  /** Answers live as long as the request (the caller gave up then), else for the answer TTL. */
  #expiration(request: XpEvent, nowSeconds: number): number {
    const requested = getExpiration(request);
    return requested !== undefined && requested > nowSeconds
      ? requested
      : nowSeconds + this.#o.answerTtlSeconds;
  }

  /**
   * Stores the answer (with its outbox entry, in one transaction, when the pool's outbox is the
   * state database's), hands it to the pool, then marks the call done if that was a second step.
   */
  async #deliver(request: XpEvent, answer: XpEvent): Promise<void> {
    const { state, pool } = this.#o;
    const stored = await state.recordAnswer(request, answer, Math.floor(this.#now() / 1000));
    await pool.enqueue(answer);
    if (!stored.inOutbox) await state.markDone(request.id);
  }
}
