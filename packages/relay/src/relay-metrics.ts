/**
 * The relay's metrics (docs/operating.md, "The relay"): the series an operator scrapes from the
 * admin listener of `@xprotocol/wire/admin`, read at each scrape from the counts the relay keeps
 * anyway (relay-context.ts) — connections and subscriptions open, events accepted, duplicate,
 * refused by reason and delivered, bytes stored, store failures — and the one histogram, the time
 * from an EVENT frame to its `OK true`, recorded only while metrics are served.
 * @module
 */
import { type AdminListener, MetricRegistry, serveAdmin } from '@xprotocol/wire/admin';
import type { _RelayContext } from './relay-context.js';
import type { RelayAdminOptions } from './relay-options.js';

const PREFIX = 'xprotocol_relay';

/** Admission latency buckets, in seconds: 1 ms (an in-memory store) to 5 s (a stalled disk). */
const ADMISSION_BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Declares the relay's series over `context` and starts the admin listener that serves them. */
export async function _serveRelayMetrics(
  context: _RelayContext,
  admin: RelayAdminOptions,
): Promise<AdminListener> {
  const registry = new MetricRegistry();
  _declareCounters(registry, context);
  _declareGauges(registry, context);
  const admission = `${PREFIX}_admission_seconds`;
  registry.histogram(
    admission,
    'Time from an EVENT frame to its OK true, the store commit included, in seconds.',
    [],
    ADMISSION_BOUNDS,
  );
  context.counts.admission = (milliseconds) => registry.observe(admission, {}, milliseconds / 1000);
  return serveAdmin({
    host: admin.host ?? '127.0.0.1',
    port: admin.port,
    token: admin.token,
    realm: 'xprotocol-relay admin',
    tokenSetting: '--admin-token-env',
    metrics: async () => registry.render(),
  });
}

function _declareCounters(registry: MetricRegistry, context: _RelayContext): void {
  const { stats, counts } = context;
  const one = (value: number) => [[{}, value] as const];
  registry.counter(`${PREFIX}_events_accepted_total`, 'Events stored and answered OK true.', [], () =>
    one(stats.accepted),
  );
  registry.counter(
    `${PREFIX}_events_duplicate_total`,
    'Copies of events the relay already held, answered OK true duplicate:.',
    [],
    () => one(stats.duplicates),
  );
  registry.counter(
    `${PREFIX}_events_refused_total`,
    'Events answered OK false, by reason (invalid, too_large, rate_limit, storage_quota, store_error, error).',
    ['reason'],
    () => Object.entries(counts.refusals).map(([reason, value]) => [{ reason }, value] as const),
  );
  registry.counter(
    `${PREFIX}_connections_refused_total`,
    'Connections turned away before the WebSocket handshake, by reason (origin, per_address, total, sockets, handshake_timeout).',
    ['reason'],
    () => Object.entries(counts.connectionRefusals).map(([reason, value]) => [{ reason }, value] as const),
  );
  registry.counter(
    `${PREFIX}_events_delivered_total`,
    'Events sent to subscriptions (stored ones for a REQ and live ones).',
    [],
    () => one(stats.delivered),
  );
  registry.counter(
    `${PREFIX}_store_errors_total`,
    'Store operations that failed, by operation (put, query, expire).',
    ['operation'],
    () => Object.entries(counts.storeErrors).map(([operation, value]) => [{ operation }, value] as const),
  );
}

function _declareGauges(registry: MetricRegistry, context: _RelayContext): void {
  registry.gauge(`${PREFIX}_connections`, 'Open WebSocket connections.', [], () => [
    [{}, context.connections.size],
  ]);
  registry.gauge(`${PREFIX}_subscriptions`, 'Open subscriptions over every connection.', [], () => {
    let open = 0;
    for (const connection of context.connections) open += connection.subscriptions.size;
    return [[{}, open]];
  });
  registry.gauge(
    `${PREFIX}_stored_bytes`,
    'Bytes of stored events (their JSON), as counted against --max-stored-bytes.',
    [],
    () => [[{}, context.quota.totalBytes]],
  );
}
