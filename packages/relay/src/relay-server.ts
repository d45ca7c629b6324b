/**
 * The relay server: accepts WebSocket connections, verifies and stores events, answers filter
 * queries and fans new events out to live subscriptions (docs/protocol.md §9).
 *
 * Two ordering guarantees matter to clients:
 * - `OK true` is sent only after the store made the event durable.
 * - A REQ registers its live subscription *before* it reads the store, buffers what arrives
 *   meanwhile, and flushes that buffer after `EOSE` (skipping ids already sent). An event accepted
 *   while a REQ is loading is therefore delivered exactly once, so a client that resubscribes with
 *   `since` misses nothing.
 *
 * Fan-out does not wait for the disk: a checked event goes to live subscriptions as soon as it
 * joins the store's batch, while its publisher's `OK` still waits for the commit (an fsync costs
 * milliseconds, twice per request/answer round trip). Events in that window are "in flight": a
 * REQ registered meanwhile gets the matching ones too (its store read cannot see them yet), and a
 * second copy of an in-flight event is answered after the commit and never delivered twice. If
 * the commit fails, the publisher gets `OK false "error: …"` and publishes again; subscribers
 * may then see the id twice, which they drop as a duplicate (docs/protocol.md §9).
 * @module
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_EVENT_BYTES } from '@xprotocol/crypto';
import {
  type Filter,
  matchesAny,
  parseClientMessage,
  parseFilter,
  reason,
  relayMessage,
  TokenBuckets,
} from '@xprotocol/wire';
import { type WebSocket, WebSocketServer } from 'ws';
import { RelayError } from './errors.js';
import { checkIncomingEvent, type EventCheck, type EventCheckOptions } from './event-checks.js';
import { _eventJson } from './event-json.js';
import { MemoryEventStore } from './memory-store.js';
import { RecentIds } from './recent-ids.js';
import type { EventStore, RelayEvent } from './store.js';

/** Options of {@link startRelay}. Every limit has a default suited to a local relay. */
export interface RelayOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Where events live. Default: a new {@link MemoryEventStore}. The relay closes it on `close()`. */
  store?: EventStore;
  /** How long an event without `expiration` is kept, in seconds. Default 3600. */
  retentionSeconds?: number;
  /** Upper bound on how long any event is kept, whatever its `expiration`. Default 7 days. */
  maxRetentionSeconds?: number;
  /** Largest event accepted, in bytes of its JSON. Default {@link MAX_EVENT_BYTES} (4 MiB). */
  maxEventBytes?: number;
  /** How far in the future `created_at` may be, in seconds. Default 300. */
  maxFutureSeconds?: number;
  /** Events per minute per signing key (token bucket). Default 6000. */
  eventsPerMinutePerKey?: number;
  /** Open subscriptions per connection. Default 64. */
  maxSubscriptionsPerConnection?: number;
  /** Filters in one REQ. Default 16. */
  maxFiltersPerRequest?: number;
  /** Values in one filter array. Default 1000. */
  maxFilterValues?: number;
  /** Largest `limit` honoured (and the default). Default 500. */
  maxLimit?: number;
  /** A connection whose unsent output exceeds this is closed as a slow consumer. Default 32 MiB. */
  maxBufferedBytes?: number;
  /** Live events buffered per subscription while its stored events load. Default 10000. */
  maxPendingPerSubscription?: number;
  /** How often expired events are swept, in ms. Default 30000. */
  sweepIntervalMs?: number;
  /** Keep-alive ping interval in ms; a peer that misses one is dropped. Default 30000. */
  pingIntervalMs?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /**
   * Called for each event refused with `OK false`, with the reason its sender was given (for
   * operators and dev tools; the sender's `OK` carries the same reason). Never throws into the relay.
   */
  onRefused?: (refusal: RelayRefusal) => void;
}

/** An event the relay refused, as {@link RelayOptions.onRefused} reports it. */
export interface RelayRefusal {
  /** The event's id, as far as it could be read ("" when none). */
  id: string;
  /** The reason, with its prefix (`invalid: …`, `rate-limited: …`, `error: …`). */
  reason: string;
  /** The claimed signing key and kind, when the event had them as strings (unverified). */
  pubkey?: string;
  kind?: string;
}

/** Counters a running relay exposes (for tests, logs and benchmarks). */
export interface RelayStats {
  connections: number;
  accepted: number;
  duplicates: number;
  refused: number;
  delivered: number;
}

/** A running relay. */
export interface Relay {
  /** `ws://host:port`, ready to connect to. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Current counters. */
  stats(): RelayStats;
  /** Stops accepting, closes every connection, flushes and closes the store. */
  close(): Promise<void>;
}

interface Subscription {
  filters: Filter[];
  /** While stored events load, live matches wait here. */
  pending: RelayEvent[] | undefined;
  /** Ids sent while loading, to skip their duplicates in `pending`. */
  sentIds: Set<string> | undefined;
}

interface Connection {
  socket: WebSocket;
  subscriptions: Map<string, Subscription>;
  alive: boolean;
  /** Events received and not yet admitted (their checks run off the relay thread). */
  checking: number;
  /** Settles when the last received event has been admitted or refused. */
  admitted: Promise<void>;
}

/** Events of one connection checked at once; past it the relay stops reading that socket. */
const MAX_CHECKING_PER_CONNECTION = 1024;

/** Starts a relay and resolves once it listens. */
export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  const maxEventBytes = options.maxEventBytes ?? MAX_EVENT_BYTES;
  const retentionSeconds = options.retentionSeconds ?? 3600;
  const maxRetentionSeconds = options.maxRetentionSeconds ?? 7 * 86_400;
  const maxSubscriptions = options.maxSubscriptionsPerConnection ?? 64;
  const maxFilters = options.maxFiltersPerRequest ?? 16;
  const filterLimits = { maxValues: options.maxFilterValues ?? 1000, maxLimit: options.maxLimit ?? 500 };
  const maxBuffered = options.maxBufferedBytes ?? 32 * 1024 * 1024;
  const maxPending = options.maxPendingPerSubscription ?? 10_000;
  for (const [name, value] of Object.entries({ retentionSeconds, maxRetentionSeconds, maxEventBytes })) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RelayError('INVALID_OPTIONS', `${name} must be a positive integer, got ${value}`);
    }
  }
  const checkOptions: EventCheckOptions = {
    maxEventBytes,
    maxFutureSeconds: options.maxFutureSeconds ?? 300,
    maxAgeSeconds: retentionSeconds,
  };
  const store = options.store ?? new MemoryEventStore();
  const buckets = new TokenBuckets(options.eventsPerMinutePerKey ?? 6000);
  // Ids known to be committed: duplicates are answered without touching the store or a bucket.
  const recent = new RecentIds(100_000);
  // Checked events delivered to live subscriptions whose commit is still pending, by id.
  const inFlight = new Map<string, { event: RelayEvent; put: Promise<unknown> }>();
  const connections = new Set<Connection>();
  const stats: RelayStats = { connections: 0, accepted: 0, duplicates: 0, refused: 0, delivered: 0 };

  const httpServer: Server = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    response.end('This is an XProtocol relay: connect with a WebSocket client.\n');
  });
  // The frame carries ["EVENT", event]: allow the event limit plus room for the envelope, so an
  // oversized event gets a `too-large:` answer rather than a closed socket.
  const wss = new WebSocketServer({ server: httpServer, maxPayload: maxEventBytes + 64 * 1024 });
  // ws re-emits the HTTP server's errors (EADDRINUSE…); the listen promise below reports them.
  wss.on('error', () => {});

  const send = (connection: Connection, frame: string): boolean => {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > maxBuffered) {
      socket.close(1013, 'slow consumer: too much unsent data; reconnect and resubscribe with since');
      return false;
    }
    socket.send(frame);
    return true;
  };

  const broadcast = (event: RelayEvent): void => {
    let json: string | undefined;
    for (const connection of connections) {
      for (const [subscriptionId, subscription] of connection.subscriptions) {
        if (!matchesAny(event, subscription.filters)) continue;
        if (subscription.pending) {
          if (subscription.pending.length >= maxPending) {
            connection.subscriptions.delete(subscriptionId);
            send(
              connection,
              relayMessage.closed(subscriptionId, reason('error', 'too many live events while loading')),
            );
            continue;
          }
          subscription.pending.push(event);
        } else {
          json ??= _eventJson(event);
          if (send(connection, relayMessage.eventJson(subscriptionId, json))) stats.delivered++;
        }
      }
    }
  };

  const refuse = (connection: Connection, id: string, message: string, raw: unknown): void => {
    stats.refused++;
    send(connection, relayMessage.ok(id, false, message));
    if (options.onRefused) {
      const claimed = (raw ?? {}) as { pubkey?: unknown; kind?: unknown };
      try {
        options.onRefused({
          id,
          reason: message,
          ...(typeof claimed.pubkey === 'string' && { pubkey: claimed.pubkey.slice(0, 80) }),
          ...(typeof claimed.kind === 'string' && { kind: claimed.kind.slice(0, 200) }),
        });
      } catch {
        // An observer's failure is not the relay's.
      }
    }
  };

  // This relay sends no AUTH challenge, so an AUTH event answers nothing: refuse it like NIP-42
  // refuses an unexpected one, by OK false when it names an id, else by NOTICE.
  const onAuth = (connection: Connection, raw: unknown): void => {
    const id = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
    const why = reason(
      'restricted',
      'this relay sends no AUTH challenge; publish and subscribe without AUTH',
    );
    send(
      connection,
      typeof id === 'string' ? relayMessage.ok(id.slice(0, 64), false, why) : relayMessage.notice(why),
    );
  };

  // Admits a checked event: dedupe, rate limit, the store's batch and fan-out happen here, on the
  // relay thread, in the order the connection sent its events.
  const admit = (connection: Connection, raw: unknown, check: EventCheck, nowMs: number): void => {
    if (!check.ok) {
      refuse(connection, check.id, reason(check.prefix, check.message), raw);
      return;
    }
    const { event } = check;
    const first = inFlight.get(event.id);
    if (first) {
      // A copy of an event whose batch has not committed yet: answered once it has.
      void answerCopy(connection, event, first.put);
      return;
    }
    if (recent.has(event.id)) {
      stats.duplicates++;
      send(connection, relayMessage.ok(event.id, true, reason('duplicate', 'already have this event')));
      return;
    }
    const token = buckets.take(event.pubkey, nowMs);
    if (!token.ok) {
      refuse(
        connection,
        event.id,
        reason('rate-limited', `slow down: retry after ${token.retryAfterSeconds} s`),
        event,
      );
      return;
    }
    const nowSeconds = Math.floor(nowMs / 1000);
    const expiresAt = Math.min(
      check.expiration ?? nowSeconds + retentionSeconds,
      nowSeconds + maxRetentionSeconds,
    );
    const put = store.put(event, expiresAt);
    inFlight.set(event.id, { event, put });
    broadcast(event);
    void answerPut(connection, event, put);
  };

  const answerCopy = async (connection: Connection, event: RelayEvent, put: Promise<unknown>) => {
    try {
      await put;
    } catch (error) {
      refuse(
        connection,
        event.id,
        reason('error', `could not store the event: ${(error as Error).message}`),
        event,
      );
      return;
    }
    stats.duplicates++;
    send(connection, relayMessage.ok(event.id, true, reason('duplicate', 'already have this event')));
  };

  const answerPut = async (
    connection: Connection,
    event: RelayEvent,
    put: ReturnType<EventStore['put']>,
  ): Promise<void> => {
    let outcome: Awaited<ReturnType<EventStore['put']>>;
    try {
      outcome = await put;
    } catch (error) {
      refuse(
        connection,
        event.id,
        reason('error', `could not store the event: ${(error as Error).message}`),
        event,
      );
      return;
    } finally {
      inFlight.delete(event.id);
    }
    recent.add(event.id);
    if (outcome === 'duplicate') {
      stats.duplicates++;
      send(connection, relayMessage.ok(event.id, true, reason('duplicate', 'already have this event')));
      return;
    }
    stats.accepted++;
    send(connection, relayMessage.ok(event.id, true, ''));
  };

  // Verification runs off the relay thread (event-checks.ts), several events at once; admission
  // keeps each connection's order, so a subscriber sees one publisher's events as they were sent.
  // A connection with too many events being checked stops being read until the checks catch up.
  const onEvent = (connection: Connection, raw: unknown): void => {
    const nowMs = now();
    const check = checkIncomingEvent(raw, Math.floor(nowMs / 1000), checkOptions);
    if (++connection.checking === MAX_CHECKING_PER_CONNECTION) connection.socket.pause();
    connection.admitted = connection.admitted
      .then(() => check)
      .then((verdict) => admit(connection, raw, verdict, nowMs))
      .catch((error: unknown) => {
        // admit does not throw; should it ever, the event is refused rather than left unanswered.
        refuse(connection, '', reason('error', `event not handled: ${(error as Error).message}`), raw);
      })
      .finally(() => {
        if (connection.checking-- === MAX_CHECKING_PER_CONNECTION) connection.socket.resume();
      });
  };

  // Every other frame is handled after the events sent before it have been admitted or refused:
  // a client's frames are answered in the order it sent them (an EVENT's refusal before the EOSE
  // of a REQ sent after it), as when verification ran inline. Without events in flight, at once.
  const inOrder = (connection: Connection, step: () => void): void => {
    if (connection.checking === 0) {
      step();
      return;
    }
    connection.admitted = connection.admitted.then(step).catch(() => {
      // The steps answer their own failures; the chain must go on for the next frame.
    });
  };

  const onRequest = async (
    connection: Connection,
    subscriptionId: string,
    rawFilters: unknown[],
  ): Promise<void> => {
    if (!connection.subscriptions.has(subscriptionId) && connection.subscriptions.size >= maxSubscriptions) {
      send(
        connection,
        relayMessage.closed(
          subscriptionId,
          reason('restricted', `at most ${maxSubscriptions} open subscriptions`),
        ),
      );
      return;
    }
    if (rawFilters.length > maxFilters) {
      send(
        connection,
        relayMessage.closed(subscriptionId, reason('invalid', `at most ${maxFilters} filters per REQ`)),
      );
      return;
    }
    const filters: Filter[] = [];
    for (const [index, raw] of rawFilters.entries()) {
      const parsed = parseFilter(raw, filterLimits);
      if (!parsed.ok) {
        connection.subscriptions.delete(subscriptionId);
        send(
          connection,
          relayMessage.closed(subscriptionId, reason('invalid', `filter ${index}: ${parsed.reason}`)),
        );
        return;
      }
      filters.push(parsed.filter);
    }
    // Register first so nothing accepted while the store is read slips between query and live.
    // Events delivered live but not committed yet are not in the store's answer: queue them too.
    const subscription: Subscription = {
      filters,
      pending: [...inFlight.values()].flatMap(({ event }) => (matchesAny(event, filters) ? [event] : [])),
      sentIds: new Set(),
    };
    connection.subscriptions.set(subscriptionId, subscription);
    const nowSeconds = Math.floor(now() / 1000);
    let stored: RelayEvent[][];
    try {
      stored = await Promise.all(filters.map((filter) => store.query(filter, nowSeconds)));
    } catch (error) {
      if (connection.subscriptions.get(subscriptionId) === subscription)
        connection.subscriptions.delete(subscriptionId);
      send(
        connection,
        relayMessage.closed(subscriptionId, reason('error', `query failed: ${(error as Error).message}`)),
      );
      return;
    }
    // Replaced by a newer REQ with the same id, or closed, while loading: its results are void.
    if (connection.subscriptions.get(subscriptionId) !== subscription) return;
    const sentIds = subscription.sentIds!;
    for (const events of stored) {
      for (const event of events) {
        if (sentIds.has(event.id)) continue;
        sentIds.add(event.id);
        if (send(connection, relayMessage.event(subscriptionId, event))) stats.delivered++;
      }
    }
    send(connection, relayMessage.eose(subscriptionId));
    const pending = subscription.pending!;
    subscription.pending = undefined;
    subscription.sentIds = undefined;
    for (const event of pending) {
      if (sentIds.has(event.id)) continue;
      if (send(connection, relayMessage.event(subscriptionId, event))) stats.delivered++;
    }
  };

  wss.on('connection', (socket: WebSocket, _request: IncomingMessage) => {
    const connection: Connection = {
      socket,
      subscriptions: new Map(),
      alive: true,
      checking: 0,
      admitted: Promise.resolve(),
    };
    connections.add(connection);
    stats.connections = connections.size;
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        const why = reason('invalid', 'binary frames are not supported; send JSON text');
        inOrder(connection, () => send(connection, relayMessage.notice(why)));
        return;
      }
      const parsed = parseClientMessage(data.toString('utf8'));
      if (!parsed.ok) {
        const why = parsed.reason;
        inOrder(connection, () => send(connection, relayMessage.notice(why)));
        return;
      }
      const { message } = parsed;
      if (message.type === 'EVENT') onEvent(connection, message.event);
      else if (message.type === 'REQ')
        inOrder(connection, () => void onRequest(connection, message.subscriptionId, message.filters));
      else if (message.type === 'CLOSE')
        inOrder(connection, () => connection.subscriptions.delete(message.subscriptionId));
      else inOrder(connection, () => onAuth(connection, message.event));
    });
    socket.on('close', () => {
      connections.delete(connection);
      stats.connections = connections.size;
    });
    socket.on('error', () => {
      // A protocol error (e.g. a frame over maxPayload) closes the socket; 'close' cleans up.
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) =>
      reject(
        new RelayError('LISTEN_FAILED', `cannot listen on ${host}:${options.port ?? 0}: ${error.message}`, {
          cause: error,
        }),
      );
    httpServer.once('error', onError);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off('error', onError);
      resolve();
    });
  });

  const sweep = setInterval(() => {
    store.expire(Math.floor(now() / 1000)).catch(() => {
      // A failed sweep is retried on the next tick; queries already hide expired events.
    });
  }, options.sweepIntervalMs ?? 30_000);
  sweep.unref();
  const ping = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, options.pingIntervalMs ?? 30_000);
  ping.unref();

  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `ws://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    stats: () => ({ ...stats }),
    close: () => {
      closing ??= (async () => {
        clearInterval(sweep);
        clearInterval(ping);
        for (const connection of connections) connection.socket.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
        await store.close();
      })();
      return closing;
    },
  };
}
