/**
 * The endpoint's `xp.mcp.*` events (docs/protocol.md §10.4–§10.5): `xp.mcp.request` (resources,
 * prompts, completion and the session methods, routed among the wrapped servers), and a caller's
 * `xp.mcp.notification` and `xp.mcp.session.end`, which are never answered.
 * @module
 */
import { decryptVerifiedEvent, type XpEvent } from '@xprotocol/crypto';
import {
  MCP_REQUEST_KIND,
  MCP_REQUEST_RESULT_KIND,
  MCP_SESSION_END_KIND,
  MCP_SESSION_METHODS,
  parseMcpRequestPayload,
  parseMcpSessionEnd,
  parseMcpSessionMessage,
  xpError,
} from '@xprotocol/wire';
import { _LostClaim } from '../state/shared-journal.js';
import { type _Authority, _attribution } from './caller-authority.js';
import type { InboundOutcome } from './endpoint-options.js';
import { type _Inbound, _openJson, _timeoutMs } from './inbound.js';
import { _openTag, _sessionTag } from './request-session.js';
import type { _XpMcpRouter } from './xp-mcp-router.js';

/**
 * `xp.mcp.request` (docs/protocol.md §10.4): decrypt → shape → route → authority (the signer's
 * grants or its delegation chain) → rate limit →
 * upstream. The capability depends on the source the request is routed to, so the payload is
 * opened first; nothing reaches a server before the caller's grant and rate limit were checked.
 * Recorded as started before the first upstream request, like a tool call (at most once).
 */
export async function _answerMcpRequest(inbound: _Inbound, event: XpEvent): Promise<InboundOutcome> {
  const { answers } = inbound;
  // Step 9 opens the content and the mcp tag: either failing is dropped, whatever else is wrong.
  const tag = _openTag(inbound, event);
  if ('outcome' in tag) return tag.outcome;
  const opened = await _openJson(inbound, event);
  if ('outcome' in opened) return opened.outcome;
  const payload: unknown = opened.value;
  const parsed = parseMcpRequestPayload(payload);
  if (!parsed.ok) {
    return answers.error(event, xpError('SCHEMA_VIOLATION', `${MCP_REQUEST_KIND}: ${parsed.reason}`));
  }
  const session = _sessionTag(inbound, event, tag);
  if ('outcome' in session) return session.outcome;
  if (!session.open && MCP_SESSION_METHODS.has(parsed.payload.method)) {
    return answers.error(
      event,
      xpError(
        'SCHEMA_VIOLATION',
        `${parsed.payload.method} acts on the caller's MCP session: the request needs the mcp tag (docs/protocol.md §10.5)`,
      ),
    );
  }
  const authorityOf = await inbound.chains.authorityOf(event);
  // The attribution of the served request: a chain's, when one of its capabilities needed it.
  let attribution: Record<string, string> = {};
  const authority: _Authority = (required) => {
    const verdict = authorityOf(required);
    if (verdict.ok && verdict.chain) attribution = _attribution(verdict);
    return verdict;
  };
  await inbound.slots.acquire();
  let outcome: Awaited<ReturnType<_XpMcpRouter['handle']>>;
  const claim: { lost?: _LostClaim } = {};
  try {
    outcome = await inbound.mcp.handle(parsed.payload, {
      authority,
      timeoutMs: _timeoutMs(inbound, event),
      ...(session.open && { session: session.open, event, progress: session.progress }),
      limit: (source) => inbound.rateLimits.take(source, event.pubkey, inbound.now()),
      started: () =>
        _recordStarted(inbound, event, parsed.payload.method, attribution).catch((error: unknown) => {
          if (error instanceof _LostClaim) claim.lost = error;
          throw error;
        }),
    });
  } finally {
    inbound.slots.release();
  }
  // Another replica took the request over before it started here: that one answers it, so this
  // one must not, not even with an error (xp-endpoint.ts drops the request).
  if (claim.lost) throw claim.lost;
  if (!outcome.ok) return answers.error(event, outcome.error);
  return answers.result(event, MCP_REQUEST_RESULT_KIND, outcome.result);
}

/** Records the request as started, before its first upstream request. */
async function _recordStarted(
  inbound: _Inbound,
  event: XpEvent,
  method: string,
  attribution: Record<string, string>,
): Promise<void> {
  // From here on the request is never run again, whatever happens to this process.
  await inbound.o.state.recordStarted(event, Math.floor(inbound.now() / 1000));
  inbound.logger.info(
    { id: event.id, kind: event.kind, sender: event.pubkey, ...attribution, method },
    'forwarding an MCP request upstream',
  );
}

/** `xp.mcp.notification` and `xp.mcp.session.end` from a caller: never answered. */
export async function _sessionMessage(inbound: _Inbound, event: XpEvent): Promise<InboundOutcome> {
  const { answers, sessions } = inbound;
  let payload: unknown;
  try {
    payload = JSON.parse(
      decryptVerifiedEvent(event, inbound.o.identity, { cipher: inbound.o.cipher }).plaintext,
    );
  } catch (error) {
    return answers.drop(`cannot open ${event.kind}: ${(error as Error).message}`);
  }
  if (event.kind === MCP_SESSION_END_KIND) {
    const parsed = parseMcpSessionEnd(payload);
    if (!parsed.ok) return answers.drop(`${event.kind}: ${parsed.reason}`);
    const ended = await sessions.end(event.pubkey, parsed.value.session);
    return { action: 'ignored', reason: ended ? 'the MCP session ended' : 'no such MCP session' };
  }
  const parsed = parseMcpSessionMessage(payload);
  if (!parsed.ok) return answers.drop(`${event.kind}: ${parsed.reason}`);
  const known = sessions.receive(event.pubkey, parsed.value);
  return { action: 'ignored', reason: known ? `${parsed.value.method} delivered` : 'no such MCP session' };
}
