/**
 * A `REQ`: its limits and filters checked, its subscription registered live *before* the store is
 * read (what arrives meanwhile waits in the subscription), the stored events sent, `EOSE`, then
 * what waited — skipping ids already sent, so an event accepted while the REQ loads is delivered
 * exactly once.
 * @module
 */
import { type Filter, matchesAny, parseFilter, reason, relayMessage } from '@xprotocol/wire';
import type { _ClientConnection, _Subscription } from './client-connection.js';
import type { _RelayContext } from './relay-context.js';
import type { RelayEvent } from './store.js';

/** Answers a `REQ`: stored events, `EOSE`, then live ones; or `CLOSED` with the reason. */
export async function _openSubscription(
  context: _RelayContext,
  connection: _ClientConnection,
  subscriptionId: string,
  rawFilters: unknown[],
): Promise<void> {
  const filters = acceptedFilters(context, connection, subscriptionId, rawFilters);
  if (!filters) return;
  const subscription = registerLive(context, connection, subscriptionId, filters);
  const nowSeconds = Math.floor(context.settings.now() / 1000);
  let stored: RelayEvent[][];
  try {
    stored = await Promise.all(filters.map((filter) => context.store.query(filter, nowSeconds)));
  } catch (error) {
    context.counts.storeErrors.query++;
    if (connection.subscriptions.get(subscriptionId) === subscription)
      connection.subscriptions.delete(subscriptionId);
    const why = reason('error', `query failed: ${(error as Error).message}`);
    connection.send(relayMessage.closed(subscriptionId, why));
    return;
  }
  // Replaced by a newer REQ with the same id, or closed, while loading: its results are void.
  if (connection.subscriptions.get(subscriptionId) !== subscription) return;
  const sentIds = subscription.sentIds!;
  sendStored(context, connection, subscriptionId, stored, sentIds);
  connection.send(relayMessage.eose(subscriptionId));
  sendWaiting(context, connection, subscriptionId, subscription, sentIds);
}

/**
 * The REQ's filters, parsed; undefined once it was answered `CLOSED` for a limit (subscriptions
 * per connection, filters per REQ) or a filter it could not parse.
 */
function acceptedFilters(
  context: _RelayContext,
  connection: _ClientConnection,
  subscriptionId: string,
  rawFilters: unknown[],
): Filter[] | undefined {
  const { maxSubscriptions, maxFilters, filterLimits } = context.settings;
  if (!connection.subscriptions.has(subscriptionId) && connection.subscriptions.size >= maxSubscriptions) {
    const why = reason('restricted', `at most ${maxSubscriptions} open subscriptions`);
    connection.send(relayMessage.closed(subscriptionId, why));
    return undefined;
  }
  if (rawFilters.length > maxFilters) {
    // Like a filter it cannot parse, the refused REQ ends the subscription it would have replaced.
    connection.subscriptions.delete(subscriptionId);
    const why = reason('invalid', `at most ${maxFilters} filters per REQ`);
    connection.send(relayMessage.closed(subscriptionId, why));
    return undefined;
  }
  const filters: Filter[] = [];
  for (const [index, raw] of rawFilters.entries()) {
    const parsed = parseFilter(raw, filterLimits);
    if (!parsed.ok) {
      connection.subscriptions.delete(subscriptionId);
      const why = reason('invalid', `filter ${index}: ${parsed.reason}`);
      connection.send(relayMessage.closed(subscriptionId, why));
      return undefined;
    }
    filters.push(parsed.filter);
  }
  return filters;
}

/**
 * Registers the subscription before the store is read, so nothing accepted meanwhile slips
 * between query and live. Events delivered live but not committed yet are not in the store's
 * answer: they wait in it too.
 */
function registerLive(
  context: _RelayContext,
  connection: _ClientConnection,
  subscriptionId: string,
  filters: Filter[],
): _Subscription {
  const subscription: _Subscription = {
    filters,
    pending: [...context.inFlight.values()].flatMap(({ event }) =>
      matchesAny(event, filters) ? [event] : [],
    ),
    sentIds: new Set(),
  };
  connection.subscriptions.set(subscriptionId, subscription);
  return subscription;
}

/** Sends each filter's stored events, once each when filters overlap; `sentIds` records them. */
function sendStored(
  context: _RelayContext,
  connection: _ClientConnection,
  subscriptionId: string,
  stored: RelayEvent[][],
  sentIds: Set<string>,
): void {
  for (const events of stored) {
    for (const event of events) {
      if (sentIds.has(event.id)) continue;
      sentIds.add(event.id);
      if (connection.send(relayMessage.event(subscriptionId, event))) context.stats.delivered++;
    }
  }
}

/** Turns the subscription live and sends what waited while it loaded, skipping what was sent. */
function sendWaiting(
  context: _RelayContext,
  connection: _ClientConnection,
  subscriptionId: string,
  subscription: _Subscription,
  sentIds: Set<string>,
): void {
  const pending = subscription.pending!;
  subscription.pending = undefined;
  subscription.sentIds = undefined;
  for (const event of pending) {
    if (sentIds.has(event.id)) continue;
    if (connection.send(relayMessage.event(subscriptionId, event))) context.stats.delivered++;
  }
}
