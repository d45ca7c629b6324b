/**
 * A span exporter that speaks OTLP/HTTP with JSON bodies (OpenTelemetry Protocol 1.x,
 * `ExportTraceServiceRequest` POSTed to `<collector>/v1/traces`, `Content-Type: application/json`;
 * ids as hex strings, times as decimal strings, as the OTLP/JSON mapping says). Spans wait in a
 * bounded queue and leave in batches, at most every `intervalMs` or as soon as a batch is full;
 * past the queue's bound new spans are dropped and counted (a collector that is down must not
 * grow the adapter's memory). A failed POST is reported, never retried, and the call it traced
 * has long gone on. Why this and not the OpenTelemetry SDK: docs/operating.md, "Traces".
 * @module
 */
import type { EndedSpan, SpanAttribute, SpanExporter, SpanKind } from './tracer.js';

/** Options of {@link OtlpHttpExporter}. */
export interface OtlpHttpExporterOptions {
  /** The collector's traces URL, e.g. `http://127.0.0.1:4318/v1/traces`. */
  url: string;
  /** `service.name` of the resource. */
  serviceName: string;
  /** Other resource attributes (`service.version`, `service.instance.id` …). */
  resource?: Record<string, SpanAttribute>;
  /** Longest wait before queued spans are sent (default 1000 ms). */
  intervalMs?: number;
  /** Spans per POST (default 256). */
  maxBatch?: number;
  /** Spans kept waiting at most; more are dropped (default 4096). */
  maxQueue?: number;
  /** Time a POST may take (default 5000 ms). */
  timeoutMs?: number;
  /** The fetch to send with (default the global one). */
  fetch?: typeof fetch;
  /** Told when a batch could not be sent, or spans were dropped because the queue was full. */
  onError?: (error: Error) => void;
}

const KINDS: Record<SpanKind, number> = { internal: 1, server: 2, client: 3 };
const SCOPE = { name: '@xprotocol/mcp-bridge' };

/** Sends ended spans to an OTLP/HTTP collector as JSON. */
export class OtlpHttpExporter implements SpanExporter {
  readonly #o: Required<Omit<OtlpHttpExporterOptions, 'onError' | 'resource'>> & {
    onError: ((error: Error) => void) | undefined;
  };
  readonly #resource: { attributes: unknown[] };
  #queue: EndedSpan[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #sending = new Set<Promise<void>>();
  #dropped = 0;

  constructor(options: OtlpHttpExporterOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`OTLP exporter url: expected http: or https:, got ${url.protocol}`);
    this.#o = {
      url: url.href,
      serviceName: options.serviceName,
      intervalMs: options.intervalMs ?? 1000,
      maxBatch: options.maxBatch ?? 256,
      maxQueue: options.maxQueue ?? 4096,
      timeoutMs: options.timeoutMs ?? 5000,
      fetch: options.fetch ?? fetch,
      onError: options.onError,
    };
    this.#resource = {
      attributes: _attributes({ 'service.name': options.serviceName, ...options.resource }),
    };
  }

  export(span: EndedSpan): void {
    if (this.#queue.length >= this.#o.maxQueue) {
      this.#dropped++;
      return;
    }
    this.#queue.push(span);
    if (this.#queue.length >= this.#o.maxBatch) this.#sendNow();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#sendNow(), this.#o.intervalMs);
      this.#timer.unref?.();
    }
  }

  async flush(): Promise<void> {
    while (this.#queue.length > 0) this.#sendNow();
    await Promise.allSettled([...this.#sending]);
  }

  /** Takes one batch off the queue and POSTs it. */
  #sendNow(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue.splice(0, this.#o.maxBatch);
    if (this.#queue.length > 0) {
      this.#timer = setTimeout(() => this.#sendNow(), 0);
      this.#timer.unref?.();
    }
    if (this.#dropped > 0) {
      this.#o.onError?.(new Error(`OTLP exporter: ${this.#dropped} spans dropped, the queue was full`));
      this.#dropped = 0;
    }
    if (batch.length === 0) return;
    const sending = this.#post(batch).finally(() => this.#sending.delete(sending));
    this.#sending.add(sending);
  }

  async #post(batch: EndedSpan[]): Promise<void> {
    try {
      const response = await this.#o.fetch(this.#o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(_otlpTraceRequest(batch, this.#resource)),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#o.timeoutMs),
      });
      // The answer's body (an ExportTraceServiceResponse) is not read: nothing in it is acted on.
      await response.body?.cancel();
      if (!response.ok) throw new Error(`the collector answered ${response.status} to ${batch.length} spans`);
    } catch (error) {
      this.#o.onError?.(
        new Error(
          `OTLP exporter: could not send ${batch.length} spans to ${this.#o.url}: ${(error as Error).message}`,
        ),
      );
    }
  }
}

/** The OTLP/JSON `ExportTraceServiceRequest` of `spans` under one resource. */
function _otlpTraceRequest(
  spans: readonly EndedSpan[],
  resource: { attributes: unknown[] },
): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource,
        scopeSpans: [
          {
            scope: SCOPE,
            spans: spans.map((span) => ({
              traceId: span.context.traceId,
              spanId: span.context.spanId,
              ...(span.parentSpanId !== undefined && { parentSpanId: span.parentSpanId }),
              name: span.name,
              kind: KINDS[span.kind],
              startTimeUnixNano: span.startUnixNano,
              endTimeUnixNano: span.endUnixNano,
              attributes: _attributes(span.attributes),
              status: span.status.code === 'error' ? { code: 2, message: span.status.message } : { code: 0 },
            })),
          },
        ],
      },
    ],
  };
}

/** OTLP's `KeyValue` list of `attributes`. */
function _attributes(attributes: Readonly<Record<string, SpanAttribute>>): unknown[] {
  return Object.entries(attributes).map(([key, value]) => ({
    key,
    value:
      typeof value === 'string'
        ? { stringValue: value }
        : typeof value === 'boolean'
          ? { boolValue: value }
          : Number.isInteger(value)
            ? { intValue: String(value) }
            : { doubleValue: value },
  }));
}
