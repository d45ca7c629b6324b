/**
 * The path of an `EVENT` from its frame to its `OK`: checked off the relay thread, then admitted
 * in the order its connection sent it — deduplicated, rate limited, handed to the store's batch
 * and fanned out — and answered `OK true` only once the store has committed it.
 * @module
 */
import { reason, relayMessage } from '@xprotocol/wire';
import { type _ClientConnection, _MAX_CHECKING_PER_CONNECTION } from './client-connection.js';
import { checkIncomingEvent, type EventCheck } from './event-checks.js';
import type { _RelayContext } from './relay-context.js';
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
      refuse(context, connection, '', reason('error', `event not handled: ${(error as Error).message}`), raw);
    })
    .finally(() => {
      if (connection.checking-- === _MAX_CHECKING_PER_CONNECTION) connection.socket.resume();
    });
}

// Admits a checked event: dedupe, rate limit, the store's batch and fan-out happen here, on the
// relay thread, in the order the connection sent its events.
function admit(
  context: _RelayContext,
  connection: _ClientConnection,
  raw: unknown,
  check: EventCheck,
  nowMs: number,
): void {
  if (!check.ok) {
    refuse(context, connection, check.id, reason(check.prefix, check.message), raw);
    return;
  }
  const { event } = check;
  const first = context.inFlight.get(event.id);
  if (first) {
    // A copy of an event whose batch has not committed yet: answered once it has.
    void answerCopy(context, connection, event, first.put);
    return;
  }
  if (context.recent.has(event.id)) {
    answerDuplicate(context, connection, event.id);
    return;
  }
  const token = context.buckets.take(event.pubkey, nowMs);
  if (!token.ok) {
    const why = reason('rate-limited', `slow down: retry after ${token.retryAfterSeconds} s`);
    refuse(context, connection, event.id, why, event);
    return;
  }
  const put = context.store.put(event, expiresAt(context, check.expiration, nowMs));
  context.inFlight.set(event.id, { event, put });
  _fanOut(context, event);
  void answerPut(context, connection, event, put);
}

/** When a stored event goes: its own `expiration`, else after the retention; never past the maximum. */
function expiresAt(context: _RelayContext, expiration: number | undefined, nowMs: number): number {
  const { retentionSeconds, maxRetentionSeconds } = context.settings;
  const nowSeconds = Math.floor(nowMs / 1000);
  return Math.min(expiration ?? nowSeconds + retentionSeconds, nowSeconds + maxRetentionSeconds);
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

/** Answers the publisher of an admitted event once the store's batch holding it has committed. */
async function answerPut(
  context: _RelayContext,
  connection: _ClientConnection,
  event: RelayEvent,
  put: Promise<PutOutcome>,
): Promise<void> {
  let outcome: PutOutcome;
  try {
    outcome = await put;
  } catch (error) {
    refuseUnstored(context, connection, event, error);
    return;
  } finally {
    context.inFlight.delete(event.id);
  }
  context.recent.add(event.id);
  if (outcome === 'duplicate') {
    answerDuplicate(context, connection, event.id);
    return;
  }
  context.stats.accepted++;
  connection.send(relayMessage.ok(event.id, true, ''));
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
  refuse(context, connection, event.id, why, event);
}

/** `OK false` to the sender, and the refusal reported to the operator's `onRefused`. */
function refuse(
  context: _RelayContext,
  connection: _ClientConnection,
  id: string,
  message: string,
  raw: unknown,
): void {
  context.stats.refused++;
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
