/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/, §3.2 `traceparent`): the one header
 * that carries a trace across processes. Version `00` is written; a later version is read by its
 * first four fields, as §4.3 asks. An invalid value is never an error: the reader starts a new
 * trace instead (§4.3 again).
 * @module
 */
import { randomBytes } from 'node:crypto';

/** Where a span sits in its trace: what crosses a process boundary. */
export interface SpanContext {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  readonly spanId: string;
  /** The `sampled` flag (bit 0 of `trace-flags`): the caller records this trace. */
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The span context a `traceparent` value names, or `undefined` when it is not one: a version
 * `ff`, an all-zero trace or span id, or version `00` with anything after the flags (§3.2.2).
 */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  if (typeof value !== 'string' || value.length > 256) return undefined;
  const m = TRACEPARENT.exec(value.trim());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` value (version `00`) of `context`. */
export function formatTraceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

/** A random id of `bytes` bytes in lowercase hex, never all zero. */
export function _randomId(bytes: 8 | 16): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(id)) return id;
  }
}
