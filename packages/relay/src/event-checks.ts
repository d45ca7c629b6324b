/**
 * What the relay checks before it stores an event, in the order of docs/protocol.md §9: shape and
 * size, id, signature (via `@xprotocol/crypto` on the node:crypto backend), then freshness and
 * expiry. Dedupe, which the relay's order puts before freshness, the rate limit and the quota
 * follow in the server (event-admission.ts).
 *
 * The Ed25519 equation, about 0.1 ms of CPU per event and the relay's largest cost, runs on libuv's
 * thread pool (`verifyEventAsync`): the relay thread goes on reading, answering and fanning out
 * while the signatures of many events are checked on the other cores.
 * @module
 */
import {
  checkFreshness,
  eventByteLength,
  getExpiration,
  isExpired,
  MAX_EVENT_BYTES,
  verifyEventAsync,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import type { ReasonPrefix } from '@xprotocol/wire';
import type { RelayEvent } from './store.js';

/** Limits of {@link checkIncomingEvent}. */
export interface EventCheckOptions {
  /** Largest event in bytes of its JSON (at most the protocol's 4 MiB). */
  maxEventBytes: number;
  /** How far `created_at` may be in the future, in seconds. */
  maxFutureSeconds: number;
  /** How far `created_at` may be in the past: the relay's retention, in seconds. */
  maxAgeSeconds: number;
}

/**
 * The verdict: an event to store (with its `expiration`, if any), or a refusal reason. A refusal
 * for freshness or expiry carries the verified `event`: the relay answers a copy of an event it
 * holds `duplicate:` before it judges freshness (docs/protocol.md §9), so it looks the id up first.
 */
export type EventCheck =
  | { ok: true; event: RelayEvent; expiration: number | undefined }
  | { ok: false; id: string; prefix: ReasonPrefix; message: string; event?: RelayEvent };

/** Checks an unverified EVENT payload. Never rejects. */
export async function checkIncomingEvent(
  raw: unknown,
  nowSeconds: number,
  options: EventCheckOptions,
): Promise<EventCheck> {
  // The OK answer needs an id even for a malformed event: echo a string id when there is one.
  const claimedId =
    raw !== null && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
      ? ((raw as { id: string }).id.slice(0, 64) as string)
      : '';
  const verdict = await verifyEventAsync(raw, nodeSignatures);
  if (!verdict.ok) {
    const prefix: ReasonPrefix = verdict.code === 'size' ? 'too-large' : 'invalid';
    return { ok: false, id: claimedId, prefix, message: verdict.message };
  }
  const { event } = verdict;
  // verifyEventAsync refused everything over the protocol's limit; a lower one is measured here.
  const size = options.maxEventBytes < MAX_EVENT_BYTES ? eventByteLength(event) : 0;
  if (size > options.maxEventBytes) {
    return {
      ok: false,
      id: event.id,
      prefix: 'too-large',
      message: `event is ${size} bytes; this relay accepts at most ${options.maxEventBytes}`,
    };
  }
  const freshness = checkFreshness(event, nowSeconds, {
    maxFutureSeconds: options.maxFutureSeconds,
    maxAgeSeconds: options.maxAgeSeconds,
  });
  if (freshness === 'future') {
    return {
      ok: false,
      id: event.id,
      prefix: 'invalid',
      message: `created_at ${event.created_at} is more than ${options.maxFutureSeconds} s ahead of the relay's clock (${nowSeconds})`,
      event,
    };
  }
  if (freshness === 'stale') {
    return {
      ok: false,
      id: event.id,
      prefix: 'invalid',
      message: `created_at ${event.created_at} is older than this relay's retention of ${options.maxAgeSeconds} s (now ${nowSeconds})`,
      event,
    };
  }
  if (isExpired(event, nowSeconds)) {
    return {
      ok: false,
      id: event.id,
      prefix: 'invalid',
      message: `event expired at ${getExpiration(event)} (now ${nowSeconds})`,
      event,
    };
  }
  return { ok: true, event, expiration: getExpiration(event) };
}
