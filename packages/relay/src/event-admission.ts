/**
 * The path of an `EVENT` from its frame to its `OK`: checked off the relay thread, then admitted
 * in the order its connection sent it — deduplicated, rate limited, counted against the storage
 * quota, handed to the store's batch and fanned out — and answered `OK true` only once the store
 * has committed it.
 * @module
 */
import { reason, relayMessage } from '@xprotocol/wire';
import { type _ClientConnection, _MAX_CHECKING_PER_CONNECTION } from './client-connection.js';
import { checkIncomingEvent, type EventCheck } from './event-checks.js';
import { _eventJson } from './event-json.js';
import type { _RefusalReason, _RelayContext } from './relay-context.js';
import type { PutOutcome, RelayEvent } from './store.js';
import { _fanOut } from './subscription-fanout.js';

/**
 * Takes an `EVENT` received on `connection`. Verification runs off the relay thread
 * (event-checks.ts), several events at once; admission keeps each connection's order, so a
 * subscriber sees one publisher's events as they were sent. A connection with too many events
 * being checked stops being read until the checks catch up.
 */
export function _receiveEvent(context: _RelayContext, connection: _ClientConnection, raw: unknown): void {
  const nowMs = context.settings.now();
  const check = checkIncomingEvent(raw, Math.floor(nowMs / 1000), context.settings.check);
  if (++connection.checking === _MAX_CHECKING_PER_CONNECTION) connection.socket.pause();
  connection.admitted = connection.admitted
    .then(() => check)
    .then((verdict) => admit(context, connection, raw, verdict, nowMs))
    .catch((error: unknown) => {
      // admit does not throw; should it ever, the event is refused rather than left unanswered.
      const why = reason('error', `event not handled: ${(error as Error).message}`);
      refuse(context, connection, '', why, 'error', raw);
    })
    .finally(() => {
      if (connection.checking-- === _MAX_CHECKING_PER_CONNECTION) connection.socket.resume();
    });
}

// Admits a checked event: dedupe, rate limit, storage quota, the store's batch and fan-out happen
// here, on the relay thread, in the order the connection sent its events. The quota comes last: its
// key is verified by now, a duplicate costs no bytes, and an event it counts goes to the store at
// once (the count is given back when the put stores nothing). Only an event over the quota makes
// the connection wait, for one lookup in the store.
function admit(
  context: _RelayContext,
  connection: _ClientConnection,
  raw: unknown,
  check: EventCheck,
  nowMs: number,
): void | Promise<void> {
  if (!check.ok) {
    const why = reason(check.prefix, check.message);
    const label = check.prefix === 'too-large' ? 'too_large' : 'invalid';
    // Stale, future or expired: refused only when the relay does not hold it (dedupe comes first).
    if (check.event) return refuseUnlessHeld(context, connection, check.event, why, label);
    refuse(context, connection, check.id, why, label, raw);
    return;
  }
  const { event } = check;
  if (answeredAsCopy(context, connection, event)) return;
  const token = context.buckets.take(event.pubkey, nowMs);
  if (!token.ok) {
    const why = reason('rate-limited', `slow down: retry after ${token.retryAfterSeconds} s`);
    return refuseUnlessHeld(context, connection, event, why, 'rate_limit');
  }
  const until = expiresAt(context, check.expiration, event.created_at, nowMs);
  // The text the store keeps and fan-out sends (computed once per event): its UTF-8 bytes are what
  // the event costs.
  const bytes = Buffer.byteLength(_eventJson(event));
  const quota = context.quota.reserve(event.pubkey, until, bytes, Math.floor(nowMs / 1000));
  if (!quota.ok)
    return refuseUnlessHeld(context, connection, event, reason(quota.prefix, quota.message), 'storage_quota');
  const put = context.store.put(event, until);
  context.inFlight.set(event.id, { event, put });
  _fanOut(context, event);
  void answerPut(context, connection, event, put, nowMs, () =>
    context.quota.release(event.pubkey, until, bytes),
  );
}

/**
 * Answers a copy of an event the relay is storing (once its batch has committed) or saw lately as
 * the duplicate it is; false when the event is new to the relay's memory.
 */
function answeredAsCopy(context: _RelayContext, connection: _ClientConnection, event: RelayEvent): boolean {
  const first = context.inFlight.get(event.id);
  if (first) {
    void answerCopy(context, connection, event, first.put);
    return true;
  }
  if (!context.recent.has(event.id)) return false;
  answerDuplicate(context, connection, event.id);
  return true;
}

/**
 * Refuses a verified event for freshness, expiry, its rate or the storage quota — unless the relay
 * holds it: dedupe comes before those checks (docs/protocol.md §9), so a copy of an event still
 * stored is answered `duplicate:` however old it is, and a publisher that re-sends after a lost
 * `OK` is not told to give up or retry. Only events about to be refused pay for the store lookup.
 */
async function refuseUnlessHeld(
  context: _RelayContext,
  connection: _ClientConnection,
  event: RelayEvent,
  why: string,
  label: _RefusalReason,
): Promise<void> {
  if (answeredAsCopy(context, connection, event)) return;
  let stored = false;
  try {
    const nowSeconds = Math.floor(context.settings.now() / 1000);
    stored = (await context.store.query({ ids: [event.id], limit: 1 }, nowSeconds)).length > 0;
  } catch {
    // The store cannot say: the event is refused, and its publisher decides by the reason.
    context.counts.storeErrors.query++;
  }
  if (!stored) {
    refuse(context, connection, event.id, why, label, event);
    return;
  }
  context.recent.add(event.id);
  answerDuplicate(context, connection, event.id);
}

/**
 * When a stored event goes (the first second it is no longer kept): its own `expiration`, else
 * once its `created_at` (or its arrival, when that is later) is older than the retention; never
 * past the maximum. Kept that long, an event created ahead of the relay's clock is remembered for
 * as long as freshness would accept it again, so a copy is answered `duplicate:` and never stored
 * and fanned out a second time.
 */
function expiresAt(
  context: _RelayContext,
  expiration: number | undefined,
  createdAt: number,
  nowMs: number,
): number {
  const { retentionSeconds, maxRetentionSeconds } = context.settings;
  const nowSeconds = Math.floor(nowMs / 1000);
  // An event is valid during its expiration second, and fresh while created_at = now − retention:
  // either way it goes the second after.
  const until = expiration === undefined ? Math.max(nowSeconds, createdAt) + retentionSeconds : expiration;
  return Math.min(until + 1, nowSeconds + maxRetentionSeconds);
}

/** Answers a second copy of an in-flight event once the first one's batch has committed. */
async function answerCopy(
  context: _RelayContext,
  connection: _ClientConnection,
  event: RelayEvent,
  put: Promise<PutOutcome>,
): Promise<void> {
  try {
    await put;
  } catch (error) {
    refuseUnstored(context, connection, event, error);
    return;
  }
  answerDuplicate(context, connection, event.id);
}

/**
 * Answers the publisher of an admitted event once the store's batch holding it has committed;
 * `unstored` gives its bytes back to the quota when the put stored nothing. `receivedMs` is when
 * its frame arrived, for the admission latency (told only when metrics are served).
 */
async function answerPut(
  context: _RelayContext,
  connection: _ClientConnection,
  event: RelayEvent,
  put: Promise<PutOutcome>,
  receivedMs: number,
  unstored: () => void,
): Promise<void> {
  let outcome: PutOutcome;
  try {
    outcome = await put;
  } catch (error) {
    context.counts.storeErrors.put++;
    unstored();
    refuseUnstored(context, connection, event, error);
    return;
  } finally {
    context.inFlight.delete(event.id);
  }
  context.recent.add(event.id);
  if (outcome === 'duplicate') {
    unstored();
    answerDuplicate(context, connection, event.id);
    return;
  }
  context.stats.accepted++;
  connection.send(relayMessage.ok(event.id, true, ''));
  context.counts.admission?.(context.settings.now() - receivedMs);
}

function answerDuplicate(context: _RelayContext, connection: _ClientConnection, id: string): void {
  context.stats.duplicates++;
  connection.send(relayMessage.ok(id, true, reason('duplicate', 'already have this event')));
}

/** The publisher learns the commit failed, and publishes again. */
function refuseUnstored(
  context: _RelayContext,
  connection: _ClientConnection,
  event: RelayEvent,
  error: unknown,
): void {
  const why = reason('error', `could not store the event: ${(error as Error).message}`);
  refuse(context, connection, event.id, why, 'store_error', event);
}

/**
 * `OK false` to the sender, counted under `label`, and the refusal reported to the operator's
 * `onRefused`.
 */
function refuse(
  context: _RelayContext,
  connection: _ClientConnection,
  id: string,
  message: string,
  label: _RefusalReason,
  raw: unknown,
): void {
  context.stats.refused++;
  context.counts.refusals[label]++;
  connection.send(relayMessage.ok(id, false, message));
  const { onRefused } = context.settings;
  if (!onRefused) return;
  const claimed = (raw ?? {}) as { pubkey?: unknown; kind?: unknown };
  try {
    onRefused({
      id,
      reason: message,
      ...(typeof claimed.pubkey === 'string' && { pubkey: claimed.pubkey.slice(0, 80) }),
      ...(typeof claimed.kind === 'string' && { kind: claimed.kind.slice(0, 200) }),
    });
  } catch {
    // An observer's failure is not the relay's.
  }
}
