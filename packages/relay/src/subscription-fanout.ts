/**
 * Fan-out: a checked event goes to every live subscription it matches, as soon as it joins the
 * store's batch (its publisher's `OK` still waits for the commit). A subscription still loading
 * its stored events queues it instead, up to a bound past which the subscription is closed. On a
 * store shared with other relay processes, the events they stored come here too, once each.
 * @module
 */
import { matchesAny, reason, relayMessage } from '@xprotocol/wire';
import { _eventJson } from './event-json.js';
import type { _RelayContext } from './relay-context.js';
import type { EventStore, RelayEvent } from './store.js';

/** Delivers `event` to every subscription that matches it, on every connection. */
export function _fanOut(context: _RelayContext, event: RelayEvent): void {
  const { settings, stats } = context;
  // Serialized once for every subscriber, and only when one is live.
  let json: string | undefined;
  for (const connection of context.connections) {
    for (const [subscriptionId, subscription] of connection.subscriptions) {
      if (!matchesAny(event, subscription.filters)) continue;
      if (subscription.pending) {
        if (subscription.pending.length >= settings.maxPending) {
          connection.subscriptions.delete(subscriptionId);
          connection.send(
            relayMessage.closed(subscriptionId, reason('error', 'too many live events while loading')),
          );
          continue;
        }
        subscription.pending.push(event);
      } else {
        json ??= _eventJson(event);
        if (connection.send(relayMessage.eventJson(subscriptionId, json))) stats.delivered++;
      }
    }
  }
}

/**
 * Fans out an event another relay process stored in a shared store ({@link EventStore.watch}),
 * unless this process has it in flight or has answered it already — its own admission fanned it
 * out then — so each subscriber gets it once. The store holds it now: its bytes count against
 * this relay's storage quota, and a copy published here is answered as a duplicate.
 */
export function _fanOutStoredElsewhere(context: _RelayContext, event: RelayEvent, expiresAt: number): void {
  if (context.inFlight.has(event.id) || context.recent.has(event.id)) return;
  context.recent.add(event.id);
  context.quota.add(event.pubkey, expiresAt, Buffer.byteLength(_eventJson(event)));
  _fanOut(context, event);
}
