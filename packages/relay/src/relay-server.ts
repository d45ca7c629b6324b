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
 *
 * This file composes a relay from its steps: settings (relay-options.ts), shared state
 * (relay-context.ts), the storage quota counted from the store (storage-quota.ts), the HTTP and
 * WebSocket servers (relay-listener.ts) with the count of TCP sockets and the handshake timeout
 * (socket-limits.ts) and the upgrade gate — the `Origin` check
 * (origin-check.ts), then the connection limits (connection-limits.ts) — each connection
 * (connection-handler.ts, with EVENT in event-admission.ts, REQ in subscription-request.ts and
 * fan-out in subscription-fanout.ts), the sweep and keep-alive timers, the admin listener of
 * its metrics when asked for (relay-metrics.ts), and the close sequence.
 * @module
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdminListener } from '@xprotocol/wire/admin';
import type { WebSocketServer } from 'ws';
import { _acceptConnection } from './connection-handler.js';
import { _ConnectionLimits } from './connection-limits.js';
import { _checkOrigin } from './origin-check.js';
import { type _RelayContext, _relayContext, type RelayStats } from './relay-context.js';
import { _listen, _relayListener, _relayUrl } from './relay-listener.js';
import { _serveRelayMetrics } from './relay-metrics.js';
import { _relaySettings, type RelayOptions } from './relay-options.js';
import { _SocketLimits } from './socket-limits.js';
import { _countStored } from './storage-quota.js';
import { _openEventStore } from './store-open.js';
import { _fanOutStoredElsewhere } from './subscription-fanout.js';

/** A running relay. */
export interface Relay {
  /** `ws://host:port`, ready to connect to. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** `http://host:port/metrics` of the admin listener, when `admin` was given. */
  readonly adminUrl: string | undefined;
  /** Current counters. */
  stats(): RelayStats;
  /** Stops accepting, closes every connection, flushes and closes the store. */
  close(): Promise<void>;
}

/** The relay's periodic work and its admin listener, stopped on close. */
interface Upkeep {
  sweep: ReturnType<typeof setInterval>;
  ping: ReturnType<typeof setInterval>;
  admin: AdminListener | undefined;
}

/** Starts a relay and resolves once it listens. */
export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const settings = _relaySettings(options);
  const store = options.db === undefined ? options.store : await _openEventStore(options.db, 'db');
  const context = _relayContext(settings, store);
  await _countStored(context.quota, context.store, Math.floor(settings.now() / 1000));
  // A store shared with other relay processes: what they store reaches this one's subscribers.
  context.store.watch?.((event, expiresAt) => _fanOutStoredElsewhere(context, event, expiresAt));
  const limits = new _ConnectionLimits(settings.maxConnectionsPerIp, settings.maxConnections);
  // The Origin first: a page that may not connect learns nothing about the relay's load.
  const sockets = new _SocketLimits(settings.maxConnectionsPerIp, settings.maxConnections);
  const refused = context.counts.connectionRefusals;
  const { httpServer, wss } = _relayListener(
    {
      maxEventBytes: settings.maxEventBytes,
      handshakeTimeoutMs: settings.handshakeTimeoutMs,
      admitSocket: (socket) => {
        if (sockets.admit(socket)) return true;
        refused.sockets++;
        return false;
      },
      onHandshakeTimeout: () => refused.handshake_timeout++,
    },
    (request) => {
      const origin = _checkOrigin(request, settings.allowedOrigins);
      if (origin !== undefined) {
        refused.origin++;
        return origin;
      }
      const limit = limits.admit(request);
      if (limit !== undefined) refused[limit.status === 429 ? 'per_address' : 'total']++;
      return limit;
    },
  );
  wss.on('connection', (socket) => _acceptConnection(context, socket));
  await _listen(httpServer, settings.host, settings.port);
  let admin: AdminListener | undefined;
  try {
    admin = settings.admin && (await _serveRelayMetrics(context, settings.admin));
  } catch (error) {
    // The relay listens already: a metrics port that cannot be bound must not leave it running.
    httpServer.close();
    await context.store.close();
    throw error;
  }
  const upkeep: Upkeep = { sweep: startExpirySweep(context), ping: startKeepAlive(context), admin };
  const address = httpServer.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: _relayUrl(address),
    host: address.address,
    port: address.port,
    adminUrl: admin?.url,
    stats: () => ({ ...context.stats }),
    close: () => {
      closing ??= closeRelay(context, upkeep, wss, httpServer);
      return closing;
    },
  };
}

/**
 * Deletes expired events from the store every `sweepIntervalMs`, and gives their bytes back to the
 * storage quota once the deletion has committed.
 */
function startExpirySweep(context: _RelayContext): ReturnType<typeof setInterval> {
  const { store, settings, quota } = context;
  const sweep = setInterval(() => {
    const nowSeconds = Math.floor(settings.now() / 1000);
    store.expire(nowSeconds).then(
      () => quota.expired(nowSeconds),
      () => {
        // A failed sweep is retried on the next tick; queries already hide expired events, and
        // their bytes stay counted until a sweep has deleted them.
        context.counts.storeErrors.expire++;
      },
    );
  }, settings.sweepIntervalMs);
  sweep.unref();
  return sweep;
}

/** Pings every connection each `pingIntervalMs` and drops one that did not answer the last ping. */
function startKeepAlive(context: _RelayContext): ReturnType<typeof setInterval> {
  const ping = setInterval(() => {
    for (const connection of context.connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, context.settings.pingIntervalMs);
  ping.unref();
  return ping;
}

/** Stops the timers, drops every connection, stops listening, then flushes and closes the store. */
async function closeRelay(
  context: _RelayContext,
  upkeep: Upkeep,
  wss: WebSocketServer,
  httpServer: Server,
): Promise<void> {
  clearInterval(upkeep.sweep);
  clearInterval(upkeep.ping);
  await upkeep.admin?.close();
  for (const connection of context.connections) connection.socket.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  // Sockets still in their handshake are HTTP connections: closing them now, rather than waiting
  // for their deadline, lets the relay stop at once.
  const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
  httpServer.closeAllConnections();
  await closed;
  await context.store.close();
}
