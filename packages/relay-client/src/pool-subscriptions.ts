/**
 * Subscriptions through the pool: each is sent to every relay, now and after each reconnect.
 * Every received event is verified (id and signature) and deduplicated across relays before it is
 * delivered. After a reconnect a subscription is re-sent with
 * `since = disconnectedAt − retentionSeconds`: a relay accepts no event whose `created_at` is older
 * than its retention, so every event it accepted while we were away has a `created_at` at or after
 * that bound — the resubscription misses nothing, and deduplication hides what we already had.
 * When a resubscription fills its page, older pages are fetched until one comes back short.
 * @module
 */
import { type SignatureBackend, verifyEvent, type XpEvent } from '@xprotocol/crypto';
import { clientMessage, type Filter, isRetryableReason, type RelayMessage } from '@xprotocol/wire';
import type { _PoolConnections } from './pool-connections.js';
import type { RelayConnection } from './relay-connection.js';
import { SeenIds } from './seen-ids.js';

/** Callbacks of a subscription. */
export interface SubscriptionHandlers {
  /** A verified event, delivered once per subscription whatever relay sent it. */
  onEvent(event: XpEvent, relay: string): void;
  /** A relay finished sending stored events for this subscription. */
  onEose?(relay: string): void;
  /** A relay refused or ended the subscription for good (bad filter, restricted). */
  onClosed?(relay: string, reason: string): void;
}

/** A live subscription. */
export interface Subscription {
  readonly id: string;
  close(): void;
}

/** What the subscriptions need from their pool. */
export interface _SubscriptionsOptions {
  connections: _PoolConnections;
  /** The relays' retention: the resubscription window, and how long ids are remembered. */
  retentionSeconds: number;
  /** Most ids each subscription remembers for deduplication. */
  maxSeenPerSubscription: number;
  /** Page size for resubscription queries. */
  resubscribePageSize: number;
  /** Verifies what arrives. */
  signatures: SignatureBackend;
  now: () => number;
  /** Told about each event that fails verification (it is dropped). */
  onInvalidEvent: ((url: string, reason: string) => void) | undefined;
}

/** One page of a resubscription: a REQ whose answer is counted to know whether another follows. */
interface Page {
  /** Events received for it. */
  count: number;
  /** The oldest `created_at` among them: the next page ends there. */
  oldest: number;
  /** The window's start, for every page of the resubscription. */
  since: number;
}

interface RelaySubscriptionState {
  /** When the connection carrying this subscription was lost (unix s), until it is re-sent. */
  disconnectedAt: number | undefined;
  /** Page REQs in flight for a resubscription: page sub id → events counted. */
  pages: Map<string, Page>;
}

interface SubscriptionState {
  id: string;
  filters: Filter[];
  handlers: SubscriptionHandlers;
  seen: SeenIds;
  relays: Map<string, RelaySubscriptionState>;
}

/** The subscriptions of one pool, and what the relays send for them. */
export class _PoolSubscriptions {
  readonly #subscriptions = new Map<string, SubscriptionState>();
  readonly #o: _SubscriptionsOptions;
  #nextSubscription = 0;

  constructor(options: _SubscriptionsOptions) {
    this.#o = options;
  }

  /** See `RelayPool.subscribe` (the pool has checked it is open and the filters are not empty). */
  subscribe(filters: readonly Filter[], handlers: SubscriptionHandlers): Subscription {
    const { connections } = this.#o;
    const id = `s${++this.#nextSubscription}`;
    const state: SubscriptionState = {
      id,
      filters: filters.map((f) => ({ ...f })),
      handlers,
      seen: new SeenIds(this.#o.maxSeenPerSubscription),
      relays: new Map(),
    };
    this.#subscriptions.set(id, state);
    for (const connection of connections.byUrl.values()) {
      state.relays.set(connection.url, { disconnectedAt: undefined, pages: new Map() });
      connection.send(clientMessage.req(id, state.filters));
    }
    return {
      id,
      close: () => {
        if (!this.#subscriptions.delete(id)) return;
        connections.sendToAll(clientMessage.close(id));
      },
    };
  }

  /**
   * Sends every subscription to a relay that (re)opened: as it was given the first time; after a
   * loss, from the window of the lost connection, paged.
   */
  resubscribe(url: string, connection: RelayConnection): void {
    const nowSeconds = this.#nowSeconds();
    for (const subscription of this.#subscriptions.values()) {
      let relayState = subscription.relays.get(url);
      if (!relayState) {
        relayState = { disconnectedAt: undefined, pages: new Map() };
        subscription.relays.set(url, relayState);
      }
      subscription.seen.forgetBefore(nowSeconds - 2 * this.#o.retentionSeconds);
      const filters =
        relayState.disconnectedAt === undefined
          ? subscription.filters
          : this.#resubscribeFilters(subscription, relayState, relayState.disconnectedAt);
      relayState.disconnectedAt = undefined;
      connection.send(clientMessage.req(subscription.id, filters));
    }
  }

  /** Notes when the relay at `url` was lost: the window its resubscriptions start from. */
  onDisconnect(url: string): void {
    const lostAt = this.#nowSeconds();
    for (const subscription of this.#subscriptions.values()) {
      const relayState = subscription.relays.get(url);
      if (relayState) {
        relayState.disconnectedAt = lostAt;
        relayState.pages.clear();
      }
    }
  }

  /** A relay's `EVENT`: verified, counted for its page, and delivered unless already seen. */
  onEvent(url: string, message: Extract<RelayMessage, { type: 'EVENT' }>): void {
    const found = this.#subscriptionOf(message.subscriptionId);
    if (!found) return;
    const verdict = verifyEvent(message.event, this.#o.signatures);
    if (!verdict.ok) {
      this.#o.onInvalidEvent?.(url, verdict.message);
      return;
    }
    const { event } = verdict;
    const page = found.state.relays.get(url)?.pages.get(found.pageId);
    if (page) {
      page.count++;
      page.oldest = Math.min(page.oldest, event.created_at);
    }
    if (found.state.seen.add(event.id, event.created_at)) found.state.handlers.onEvent(event, url);
  }

  /** A relay's `EOSE`: a resubscription page ends (a full one asks for the next), then `onEose`. */
  onEose(url: string, message: Extract<RelayMessage, { type: 'EOSE' }>): void {
    const found = this.#subscriptionOf(message.subscriptionId);
    if (!found) return;
    const relayState = found.state.relays.get(url);
    const page = relayState?.pages.get(found.pageId);
    if (relayState && page) this.#endPage(url, found.state, relayState, found.pageId, page);
    if (found.pageId === found.state.id) found.state.handlers.onEose?.(url);
  }

  /** A relay's `CLOSED`: asked again after a transient refusal, else reported through `onClosed`. */
  onClosed(url: string, message: Extract<RelayMessage, { type: 'CLOSED' }>): void {
    const found = this.#subscriptionOf(message.subscriptionId);
    if (!found) return;
    const { reason } = message;
    if (isRetryableReason(reason)) {
      // A transient refusal: ask again after a pause, from where we are.
      const timer = setTimeout(() => {
        if (this.#subscriptions.get(found.state.id) !== found.state) return;
        this.#o.connections.byUrl.get(url)?.send(clientMessage.req(found.state.id, found.state.filters));
      }, 1000);
      timer.unref?.();
      return;
    }
    found.state.handlers.onClosed?.(url, reason);
  }

  #nowSeconds(): number {
    return Math.floor(this.#o.now() / 1000);
  }

  /** Filters for re-sending a subscription after a loss; registers paging for full pages. */
  #resubscribeFilters(
    subscription: SubscriptionState,
    relayState: RelaySubscriptionState,
    lostAt: number,
  ): Filter[] {
    const windowStart = Math.max(0, lostAt - this.#o.retentionSeconds);
    relayState.pages.set(subscription.id, { count: 0, oldest: Number.POSITIVE_INFINITY, since: windowStart });
    return subscription.filters.map((filter) => {
      const { limit: _limit, ...rest } = filter;
      return {
        ...rest,
        since: Math.max(filter.since ?? 0, windowStart),
        limit: this.#o.resubscribePageSize,
      };
    });
  }

  /** Closes a finished page's REQ; a full page means older events may remain: fetch the next page back. */
  #endPage(
    url: string,
    state: SubscriptionState,
    relayState: RelaySubscriptionState,
    pageId: string,
    page: Page,
  ): void {
    relayState.pages.delete(pageId);
    const connection = this.#o.connections.byUrl.get(url)!;
    if (pageId !== state.id) connection.send(clientMessage.close(pageId));
    if (page.count < this.#o.resubscribePageSize) return;
    const nextId = `${state.id}~${Number(pageId.split('~')[1] ?? 0) + 1}`;
    relayState.pages.set(nextId, { count: 0, oldest: Number.POSITIVE_INFINITY, since: page.since });
    const filters = state.filters.map((filter) => {
      const { limit: _limit, ...rest } = filter;
      return {
        ...rest,
        since: Math.max(filter.since ?? 0, page.since),
        until: Math.min(filter.until ?? Number.MAX_SAFE_INTEGER, page.oldest),
        limit: this.#o.resubscribePageSize,
      };
    });
    connection.send(clientMessage.req(nextId, filters));
  }

  /** Resolves a frame's subscription id, including page ids `<sub>~<n>`. */
  #subscriptionOf(subscriptionId: string): { state: SubscriptionState; pageId: string } | undefined {
    const base = subscriptionId.split('~')[0]!;
    const state = this.#subscriptions.get(base);
    return state ? { state, pageId: subscriptionId } : undefined;
  }
}
