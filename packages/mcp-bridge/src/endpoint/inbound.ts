/**
 * What every handler of an inbound request shares: the endpoint's options, clock, answers, limits,
 * MCP router, the callers' MCP sessions and their authority; opening a sealed request (step 9 of docs/protocol.md
 * §4: what cannot be opened is dropped, no oracle); and how long an upstream request may run.
 * @module
 */
import { decryptVerifiedEvent, getExpiration, type XpEvent } from '@xprotocol/crypto';
import { xpError } from '@xprotocol/wire';
import type { BridgeLogger } from '../logger.js';
import type { _CallerChains } from './caller-authority.js';
import type { _EndpointAnswers } from './endpoint-answers.js';
import type { _CallSlots, _SourceRateLimits } from './endpoint-limits.js';
import type { _EndpointObserver } from './endpoint-observe.js';
import type { _ResolvedOptions, InboundOutcome } from './endpoint-options.js';
import type { _EndpointTracing } from './endpoint-trace.js';
import type { _XpMcpRouter } from './xp-mcp-router.js';
import type { _XpMcpSessions } from './xp-mcp-sessions.js';

/** The endpoint as its inbound handlers see it. */
export interface _Inbound {
  o: _ResolvedOptions;
  logger: BridgeLogger;
  /** The clock, in ms. */
  now: () => number;
  answers: _EndpointAnswers;
  /** Calls running at once. */
  slots: _CallSlots;
  /** Calls per minute of each caller on each source. */
  rateLimits: _SourceRateLimits;
  /** `xp.mcp.request` among the wrapped servers (docs/protocol.md §10.4). */
  mcp: _XpMcpRouter;
  /** The callers' MCP sessions: what lets a server talk back to a client across XProtocol. */
  sessions: _XpMcpSessions;
  /** What each caller may do: its grants, or the delegation chain it presents (docs/protocol.md §11.7). */
  chains: _CallerChains;
  /** Notes for the observer, when the endpoint has one (endpoint-observe.ts). */
  observed?: _EndpointObserver | undefined;
  /** The spans of tool calls, when the endpoint traces (endpoint-trace.ts). */
  traced?: _EndpointTracing | undefined;
}

/**
 * Opens a sealed request and parses its JSON. An event that cannot be opened is dropped (no
 * oracle); a payload that is not JSON is answered `SCHEMA_VIOLATION`.
 */
export async function _openJson(
  inbound: _Inbound,
  event: XpEvent,
): Promise<{ value: unknown } | { outcome: InboundOutcome }> {
  let plaintext: string;
  try {
    // handleEvent verified the signature already.
    plaintext = decryptVerifiedEvent(event, inbound.o.identity, { cipher: inbound.o.cipher }).plaintext;
  } catch (error) {
    return { outcome: inbound.answers.drop(`cannot decrypt: ${(error as Error).message}`) };
  }
  try {
    return { value: JSON.parse(plaintext) };
  } catch {
    return {
      outcome: await inbound.answers.error(event, xpError('SCHEMA_VIOLATION', 'the payload is not JSON')),
    };
  }
}

/**
 * How long an upstream request for `event` may run: `configured` (a tool's own timeout) or the
 * call timeout, cut at the request's expiration.
 */
export function _timeoutMs(inbound: _Inbound, event: XpEvent, configured?: number): number {
  const expiration = getExpiration(event);
  const untilExpiry =
    expiration === undefined ? Number.POSITIVE_INFINITY : (expiration + 1) * 1000 - inbound.now();
  return Math.max(1, Math.min(configured ?? inbound.o.callTimeoutMs, untilExpiry));
}
