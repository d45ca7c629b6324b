/**
 * Spans of the calls the bridge serves (docs/operating.md, "Traces"): a tracer that makes spans
 * in W3C trace context and hands each ended, sampled span to a {@link SpanExporter}. There is no
 * global tracer and no context manager: each path that traces holds its parent span and passes
 * it on, so a path given no tracer does no work at all.
 * @module
 */
import { _randomId, formatTraceparent, type SpanContext } from './trace-context.js';

/** OTLP's span kinds (`SPAN_KIND_*`). */
export type SpanKind = 'internal' | 'server' | 'client';

/** An attribute value: OTLP's string, boolean and integer or double values. */
export type SpanAttribute = string | number | boolean;

/** A span once it ended: what an exporter sends. */
export interface EndedSpan {
  readonly context: SpanContext;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: SpanKind;
  /** Unix time in nanoseconds, as a decimal string (past 2^53). */
  readonly startUnixNano: string;
  readonly endUnixNano: string;
  readonly attributes: Readonly<Record<string, SpanAttribute>>;
  /** `error` with its message when the work failed or was refused; else `unset`. */
  readonly status: { code: 'unset' } | { code: 'error'; message: string };
}

/** Takes ended spans; must not throw or wait (it runs on the call's path). */
export interface SpanExporter {
  export(span: EndedSpan): void;
  /** Sends what is queued; resolves when done (or given up). */
  flush(): Promise<void>;
}

/** One unit of work in a trace. */
export interface Span {
  readonly context: SpanContext;
  /** The `traceparent` that makes a callee's spans children of this one. */
  readonly traceparent: string;
  setAttribute(key: string, value: SpanAttribute): void;
  /** Ends the span (once; later calls do nothing); `error` marks it failed with that message. */
  end(error?: string): void;
}

/** Options of {@link Tracer.startSpan}. */
export interface StartSpanOptions {
  /** The parent: a span of this process, or a context read from a `traceparent`. */
  parent?: SpanContext | undefined;
  kind?: SpanKind;
  attributes?: Record<string, SpanAttribute>;
}

/** Makes spans; every sampled one goes to the exporter when it ends. */
export class Tracer {
  readonly #exporter: SpanExporter;
  readonly #nowNs: () => bigint;

  /** `nowNs` is the clock in Unix nanoseconds (default: `Date.now` with `performance.now`'s fraction). */
  constructor(exporter: SpanExporter, nowNs: () => bigint = _nowNs) {
    this.#exporter = exporter;
    this.#nowNs = nowNs;
  }

  /**
   * A new span: a child of `parent` in its trace (sampled as the parent is), or the root of a new
   * sampled trace.
   */
  startSpan(name: string, options: StartSpanOptions = {}): Span {
    const parent = options.parent;
    const context: SpanContext = {
      traceId: parent?.traceId ?? _randomId(16),
      spanId: _randomId(8),
      sampled: parent?.sampled ?? true,
    };
    const attributes: Record<string, SpanAttribute> = { ...options.attributes };
    const start = this.#nowNs();
    let ended = false;
    return {
      context,
      traceparent: formatTraceparent(context),
      setAttribute(key, value) {
        attributes[key] = value;
      },
      end: (error) => {
        if (ended) return;
        ended = true;
        if (!context.sampled) return;
        this.#exporter.export({
          context,
          parentSpanId: parent?.spanId,
          name,
          kind: options.kind ?? 'internal',
          startUnixNano: start.toString(),
          endUnixNano: this.#nowNs().toString(),
          attributes,
          status: error === undefined ? { code: 'unset' } : { code: 'error', message: error },
        });
      },
    };
  }

  /** Sends every ended span still queued. */
  flush(): Promise<void> {
    return this.#exporter.flush();
  }
}

const ORIGIN_NS = BigInt(Date.now()) * 1_000_000n - BigInt(Math.round(performance.now() * 1e6));

/** Unix time in ns: a wall-clock origin plus the monotonic clock, so spans never run backwards. */
function _nowNs(): bigint {
  return ORIGIN_NS + BigInt(Math.round(performance.now() * 1e6));
}
