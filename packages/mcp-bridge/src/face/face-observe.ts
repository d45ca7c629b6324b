/**
 * What the face tells its {@link CallObserver} about a `tools/call` (docs/operating.md): the
 * verdict read from how the call ended — a result, a result with `isError` (a schema refusal is
 * a refusal), or a thrown JSON-RPC error whose data names the refusal (rate limit, grant, scope,
 * size, schema, unknown tool) — and the time it took. Only the tool and source a catalog knows
 * are named, so the labels stay bounded.
 * @module
 */
import type { CallObserver, CallRecord } from '../observe/call-observer.js';

/** What is known of a call before it runs. */
export interface _CallFacts {
  caller: string | undefined;
  arguments: unknown;
  traceId: string | undefined;
  /** The tool and its source once the call ended (a tool may be learnt during the call). */
  target: () => { source: string | undefined; tool: string | undefined };
}

/** Runs `run`, then tells `observer` how it ended; the result or error goes on unchanged. */
export async function _observedCall<T>(
  observer: CallObserver,
  facts: _CallFacts,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  let verdict: Pick<CallRecord, 'verdict' | 'reason' | 'errorCode'>;
  try {
    const result = await run();
    verdict = _resultVerdict(result);
    return result;
  } catch (error) {
    verdict = _errorVerdict(error);
    throw error;
  } finally {
    observer.callEnded({
      path: 'face',
      ...facts.target(),
      caller: facts.caller,
      arguments: facts.arguments,
      traceId: facts.traceId,
      latencyMs: performance.now() - started,
      ...verdict!,
    });
  }
}

/** The W3C `traceparent` a client put in the request's `_meta`, when it is a short string. */
export function _traceIdOf(params: { _meta?: unknown }): string | undefined {
  const meta = params._meta as { traceparent?: unknown } | undefined;
  const trace = meta?.traceparent;
  return typeof trace === 'string' && trace.length <= 128 ? trace : undefined;
}

function _resultVerdict(result: unknown): Pick<CallRecord, 'verdict' | 'reason' | 'errorCode'> {
  const r = result as { isError?: unknown; structuredContent?: { xp_code?: unknown } } | undefined;
  if (r?.isError !== true) return { verdict: 'ok' };
  const code = r.structuredContent?.xp_code;
  if (code === 'SCHEMA_VIOLATION') return { verdict: 'refused', reason: 'schema', errorCode: code };
  return { verdict: 'error', ...(typeof code === 'string' && { errorCode: code }) };
}

/** The verdict of a thrown error: a refusal when its data says which, else an error. */
export function _errorVerdict(error: unknown): Pick<CallRecord, 'verdict' | 'reason' | 'errorCode'> {
  const e = error as { code?: unknown; message?: unknown; data?: Record<string, unknown> } | undefined;
  const data = e?.data ?? {};
  const xpCode = typeof data.xp_code === 'string' ? data.xp_code : undefined;
  const errorCode = xpCode ?? (typeof e?.code === 'number' ? e.code : undefined);
  const refused = (reason: string) => ({ verdict: 'refused' as const, reason, errorCode });
  if (typeof data.approval === 'string') return refused('approval');
  if (data.idempotency === 'conflict') return refused('idempotency');
  if (xpCode === 'RATE_LIMITED') return refused('rate_limit');
  if (xpCode === 'AUTHORIZATION_INSUFFICIENT') return refused('grant');
  if (data.error === 'insufficient_scope') return refused('scope');
  if (xpCode === 'SCHEMA_VIOLATION') return refused(data.limit !== undefined ? 'size' : 'schema');
  if (e?.code === -32602 && typeof e.message === 'string' && e.message.includes('Unknown tool'))
    return refused('unknown_tool');
  return { verdict: 'error', errorCode };
}
