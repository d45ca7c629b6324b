/**
 * A tool call that passed every check, run upstream at most once: it waits for a slot, is
 * recorded as started in the state database before the upstream `tools/call` (from then on it is
 * never run again, whatever happens to the process), runs in the caller's own MCP session with
 * the server when it has one, and is answered with the server's result or an `xp.error`. A prompt
 * or resource-template contract (docs/protocol.md §10.11) runs the same way, its upstream request
 * `prompts/get` or `resources/read` instead.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import { expandUriTemplate } from '@xprotocol/translate';
import { type XpErrorPayload, xpError } from '@xprotocol/wire';
import { BridgeError } from '../errors.js';
import type { Span } from '../observe/tracer.js';
import type { AuthorityVerdict } from '../policy/delegated-access.js';
import { _LostClaim } from '../state/shared-journal.js';
import { _attribution } from './caller-authority.js';
import { _confirmAcross } from './endpoint-approvals.js';
import type { EndpointEntry } from './endpoint-catalog.js';
import type { InboundOutcome } from './endpoint-options.js';
import { type _Inbound, _timeoutMs } from './inbound.js';
import type { _SessionOf } from './request-session.js';
import { _upstreamError } from './xp-mcp-router.js';

/** A tool call that passed its checks: which tool, its arguments, and the authority it runs under. */
export interface _CheckedCall {
  source: string;
  /** The tool's name at the server. */
  name: string;
  args: Record<string, unknown>;
  grant: AuthorityVerdict & { ok: true };
  /** Absent for a tool. */
  entry?: EndpointEntry | undefined;
}

/** The upstream request a checked call makes (docs/protocol.md §10.11). */
export function _upstreamRequest(call: _CheckedCall): { method: string; params: Record<string, unknown> } {
  if (call.entry?.type === 'prompt')
    return { method: 'prompts/get', params: { name: call.name, arguments: call.args } };
  if (call.entry?.type === 'resource_template') {
    // The payload was validated against the template's variables: every value is a string.
    const uri = expandUriTemplate(call.entry.uriTemplate, call.args as Record<string, string>);
    return { method: 'resources/read', params: { uri } };
  }
  return { method: 'tools/call', params: { name: call.name, arguments: call.args } };
}

/** Calls the tool for `event`, and answers it. */
export async function _runToolCall(
  inbound: _Inbound,
  event: XpEvent,
  call: _CheckedCall,
  session: _SessionOf,
): Promise<InboundOutcome> {
  const { source, name: upstreamName, args } = call;
  const { o, answers, slots } = inbound;
  const upstream = o.upstreams.get(source);
  if (!upstream) return answers.error(event, xpError('NOT_FOUND', `source ${source} is not running`));
  if (o.approvalOf?.(source, upstreamName) === 'confirm') {
    // Asked before a slot is taken: a person may take minutes to answer.
    const refused = await _confirmAcross(event, event.kind, args, session, _timeoutMs(inbound, event));
    if (refused) return answers.error(event, refused);
  }
  await slots.acquire();
  let result: Record<string, unknown>;
  let span: Span | undefined;
  try {
    const timeoutMs = _timeoutMs(inbound, event, o.callTimeoutFor?.(source, upstreamName));
    // From here on the call is never run again, whatever happens to this process.
    await o.state.recordStarted(event, Math.floor(inbound.now() / 1000));
    const { method, params } = _upstreamRequest(call);
    span = inbound.traced?.upstream(event, method, source);
    // The server joins the trace through the MCP convention: `_meta.traceparent`.
    const meta = span && { traceparent: span.traceparent };
    if (meta) params._meta = meta;
    inbound.logger.info(
      { id: event.id, kind: event.kind, sender: event.pubkey, ..._attribution(call.grant), source, method },
      method === 'tools/call' ? 'calling upstream tool' : `calling upstream ${method}`,
    );
    result = session.session
      ? // The caller's own session with the server: what the server sends back reaches its client.
        await session.session.request(source, method, params, {
          event,
          timeoutMs,
          progress: session.progress,
          shared: upstream,
        })
      : method === 'tools/call'
        ? await upstream.callTool(upstreamName, args, { timeoutMs, ...(meta && { meta }) })
        : await upstream.request(method, params, { timeoutMs });
  } catch (error) {
    span?.end((error as Error).message);
    // Another replica took the call over before it started here: that one answers it, so this
    // one must not, not even with an error (xp-endpoint.ts drops the request).
    if (error instanceof _LostClaim) throw error;
    return answers.error(event, _callError(error));
  } finally {
    slots.release();
  }
  span?.end(result.isError === true ? 'tool error' : undefined);
  return answers.result(event, `${event.kind}.result`, result);
}

/**
 * The `xp.error` for a failed tool call: a timeout is `TIMEOUT`; the server's JSON-RPC error
 * (on a caller's own session) is kept whole in `details.mcp_error`; the rest `UPSTREAM_ERROR`.
 */
function _callError(error: unknown): XpErrorPayload {
  if (error instanceof BridgeError)
    return xpError(error.code === 'UPSTREAM_TIMEOUT' ? 'TIMEOUT' : 'UPSTREAM_ERROR', error.message);
  return _upstreamError(error);
}
