/**
 * The face's span of a `tools/call` (docs/operating.md, "Traces"): a server span, the child of
 * the W3C `traceparent` the client put in the request's `_meta` (the MCP convention) or in the
 * HTTP request's `traceparent` header, or the root of a new trace, ended with how the call ended. A call sent on to an XProtocol endpoint gets a
 * client span of its own under it (tool-calls.ts).
 * @module
 */
import { parseTraceparent } from '../observe/trace-context.js';
import type { Span, Tracer } from '../observe/tracer.js';

/**
 * The span of a `tools/call` of `name` whose params are `params`: the child of `_meta.traceparent`,
 * else of the HTTP request's `traceparent` header (Streamable HTTP), else a new trace's root.
 */
export function _faceCallSpan(
  tracer: Tracer,
  name: string,
  params: { _meta?: unknown },
  ctx?: { http?: { req?: { headers: { get(name: string): string | null } } | undefined } | undefined },
): Span {
  const meta = params._meta as { traceparent?: unknown } | undefined;
  return tracer.startSpan(`tools/call ${name}`, {
    parent:
      parseTraceparent(meta?.traceparent) ?? parseTraceparent(ctx?.http?.req?.headers.get('traceparent')),
    kind: 'server',
    attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': name, 'xprotocol.path': 'face' },
  });
}

/** Runs `run` in `span` and ends it: failed when `run` throws or answers a result with `isError`. */
export async function _traced<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    const r = result as { isError?: unknown; structuredContent?: { xp_code?: unknown } } | undefined;
    span.end(r?.isError === true ? `tool error${_code(r.structuredContent?.xp_code)}` : undefined);
    return result;
  } catch (error) {
    span.end((error as Error).message ?? String(error));
    throw error;
  }
}

function _code(code: unknown): string {
  return typeof code === 'string' ? ` (${code})` : '';
}
