/**
 * The adapter's operating surfaces (docs/operating.md), made once at start from `admin`,
 * `audit` and `tracing`: the tracer of its face and endpoint; the observer its face and endpoint tell about each call (the call series and the audit
 * log, either, both or none), the count of requests the HTTP face refused before serving them, and
 * the series read at each scrape from the parts that run — relay connections, the outbox, face
 * sessions, each wrapped server's connection, restarts and crash breaker. With neither key there
 * is no observer at all, and the call paths do nothing for one.
 * @module
 */
import {
  AuditLog,
  CallMetrics,
  type CallObserver,
  fanOutObserver,
  type McpFace,
  type McpFaceHttpRefusal,
  OtlpHttpExporter,
  Tracer,
} from '@xprotocol/mcp-bridge';
import type { RelayPool } from '@xprotocol/relay-client';
import { type AdminListener, MetricRegistry, serveAdmin } from '@xprotocol/wire/admin';
import type { AdapterConfig } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import type { AdapterLogger } from './logger.js';
import type { McpSources } from './mcp-sources.js';

const PREFIX = 'xprotocol_adapter';

/** What the gauges read, once the parts exist. */
export interface _GaugeParts {
  pool: RelayPool | undefined;
  sources: McpSources;
  face: McpFace | undefined;
}

/** The adapter's metrics, audit log and admin listener. */
export class _AdapterOperate {
  /** Told about every call; `undefined` when neither metrics nor the audit log is on. */
  readonly observer: CallObserver | undefined;
  /** Told of each `401`/`403` of the HTTP face before a request is served; `undefined` without metrics. */
  readonly httpRefused: ((refusal: McpFaceHttpRefusal) => void) | undefined;
  /** Makes the spans of every tool call (docs/operating.md, "Traces"); `undefined` without `tracing`. */
  readonly tracer: Tracer | undefined;
  readonly #config: AdapterConfig;
  readonly #logger: AdapterLogger;
  readonly #registry: MetricRegistry | undefined;
  readonly #audit: AuditLog | undefined;
  #parts: _GaugeParts | undefined;
  #outboxDepth = 0;
  #listener: AdminListener | undefined;

  constructor(config: AdapterConfig, logger: AdapterLogger) {
    this.#config = config;
    this.#logger = logger;
    this.#registry = config.admin ? new MetricRegistry() : undefined;
    const metrics = this.#registry && new CallMetrics(this.#registry, PREFIX);
    if (this.#registry) this.#declareGauges(this.#registry);
    this.#audit =
      config.audit &&
      new AuditLog({
        path: config.audit.path,
        maxBytes: config.audit.maxBytes,
        keep: config.audit.keep,
        includeArguments: config.audit.includeArguments,
        onError: (error) =>
          logger.error({ path: config.audit?.path }, `audit log write failed: ${error.message}`),
      });
    this.observer = fanOutObserver([metrics, this.#audit]);
    this.httpRefused = this.#registry && this.#countHttpRefusals(this.#registry);
    this.tracer = config.tracing && _tracer(config.tracing, logger);
  }

  /** Starts the admin listener (when `admin` is configured) over the running `parts`. */
  async serve(parts: _GaugeParts): Promise<void> {
    this.#parts = parts;
    const admin = this.#config.admin;
    if (!admin || !this.#registry) return;
    const registry = this.#registry;
    this.#listener = await serveAdmin({
      host: admin.host,
      port: admin.port,
      token: admin.token,
      realm: 'xprotocol-adapter admin',
      tokenSetting: 'admin.token_env',
      metrics: async () => {
        this.#outboxDepth = (await parts.pool?.outboxSize()) ?? 0;
        return registry.render();
      },
    });
    this.#logger.info({ url: this.#listener.url }, 'admin listener serving metrics');
  }

  /** Stops the listener, sends the spans still queued and closes the audit log. */
  async close(): Promise<void> {
    await this.#listener?.close();
    await this.tracer?.flush();
    this.#audit?.close();
  }

  #countHttpRefusals(registry: MetricRegistry): (refusal: McpFaceHttpRefusal) => void {
    const name = `${PREFIX}_http_refusals_total`;
    registry.counter(
      name,
      'HTTP requests the MCP face refused with 401 or 403 before serving them, by status and reason (host, origin, authentication, scope).',
      ['status', 'reason'],
    );
    return (refusal) => registry.inc(name, { status: String(refusal.status), reason: refusal.reason });
  }

  #declareGauges(registry: MetricRegistry): void {
    registry.gauge(
      `${PREFIX}_relay_connected`,
      'Whether each relay connection is open (1) or not (0).',
      ['relay'],
      () =>
        (this.#parts?.pool?.relays() ?? []).map(
          (r) => [{ relay: r.url }, r.state === 'open' ? 1 : 0] as const,
        ),
    );
    registry.gauge(`${PREFIX}_outbox_depth`, 'Answers and events waiting in the relay outbox.', [], () =>
      this.#parts?.pool ? [[{}, this.#outboxDepth]] : [],
    );
    registry.gauge(
      `${PREFIX}_face_sessions`,
      'MCP sessions (and 2026-07-28 requests) the face serves now.',
      [],
      () => (this.#parts?.face ? [[{}, this.#parts.face.liveSessions()]] : []),
    );
    registry.gauge(
      `${PREFIX}_upstream_connected`,
      'Whether each wrapped MCP server is connected (1) or not (0).',
      ['source'],
      // The session itself, not the last refresh's status: a crash shows at once.
      () =>
        [...(this.#parts?.sources.upstreams ?? [])].map(
          ([source, upstream]) => [{ source }, upstream.connected ? 1 : 0] as const,
        ),
    );
    registry.gauge(
      `${PREFIX}_upstream_given_up`,
      'Whether the adapter stopped retrying a wrapped MCP server (1: its command cannot start; fix and restart).',
      ['source'],
      () =>
        (this.#parts?.sources.status() ?? []).map((s) => [{ source: s.name }, s.retrying ? 0 : 1] as const),
    );
    const supervised = () =>
      [...(this.#parts?.sources.upstreams ?? [])].flatMap(([source, upstream]) => {
        const supervision = upstream.supervision;
        return supervision ? [{ source, ...supervision }] : [];
      });
    registry.counter(
      `${PREFIX}_upstream_restarts_total`,
      'Restarts that brought a crashed stdio MCP server back, by source.',
      ['source'],
      () => supervised().map((s) => [{ source: s.source }, s.restarts] as const),
    );
    registry.gauge(
      `${PREFIX}_upstream_breaker_open`,
      'Whether the crash breaker of a stdio MCP server is open (1: crash loop, not restarted until the cool-down ends).',
      ['source'],
      () => supervised().map((s) => [{ source: s.source }, s.breakerOpen ? 1 : 0] as const),
    );
  }
}

/** The tracer of `tracing`: spans go to its collector; a failed send is logged, at most once a minute. */
function _tracer(tracing: NonNullable<AdapterConfig['tracing']>, logger: AdapterLogger): Tracer {
  let warnedAt = Number.NEGATIVE_INFINITY;
  return new Tracer(
    new OtlpHttpExporter({
      url: tracing.url,
      serviceName: tracing.serviceName,
      resource: { 'service.version': ADAPTER_VERSION },
      onError: (error) => {
        if (Date.now() - warnedAt < 60_000) return;
        warnedAt = Date.now();
        logger.warn({ url: tracing.url }, error.message);
      },
    }),
  );
}
