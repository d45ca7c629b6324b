/**
 * What the endpoint tells its {@link CallObserver} about an XProtocol tool call (docs/operating.md):
 * one record per answered request of a tool kind (not the catalog, discovery or `xp.mcp.*` kinds,
 * not a dropped or duplicate event), its verdict read from the `xp.error` code it was answered
 * with. The pipeline notes what it learnt on the way (the arguments once opened, the user a
 * delegation chain speaks for), keyed by the request, for the record made when it settles.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import { isReservedKind, type XpErrorCode } from '@xprotocol/wire';
import type { CallObserver, CallRecord } from '../observe/call-observer.js';
import type { EndpointCatalog } from './endpoint-catalog.js';
import type { InboundOutcome } from './endpoint-options.js';

/** What the pipeline learnt of a call before it was answered. */
export interface _NotedCall {
  arguments?: unknown;
  delegatedBy?: string | undefined;
}

/** Refusals by `xp.error` code: the reason each is counted under. */
const REFUSALS: Partial<Record<XpErrorCode, string>> = {
  NOT_FOUND: 'unknown_tool',
  AUTHORIZATION_INSUFFICIENT: 'grant',
  REVOKED: 'revoked',
  RATE_LIMITED: 'rate_limit',
  SCHEMA_VIOLATION: 'schema',
  EXPIRED: 'expired',
};

/** The notes and observer of one endpoint. */
export class _EndpointObserver {
  readonly #observer: CallObserver;
  readonly #catalog: EndpointCatalog;
  readonly #noted = new WeakMap<XpEvent, _NotedCall>();

  constructor(observer: CallObserver, catalog: EndpointCatalog) {
    this.#observer = observer;
    this.#catalog = catalog;
  }

  /** Notes what the pipeline learnt of `request` (merged with what it noted before). */
  note(request: XpEvent, facts: _NotedCall): void {
    this.#noted.set(request, { ...this.#noted.get(request), ...facts });
  }

  /**
   * Tells the observer about `request` once it settled as `outcome`, `latencyMs` after it came in;
   * `traceId` is the `traceparent` of the endpoint's span of it, when it traces.
   */
  settled(
    outcome: InboundOutcome,
    request: XpEvent | undefined,
    latencyMs: number,
    traceId?: string | undefined,
  ): void {
    if (!request || outcome.action !== 'answered' || isReservedKind(request.kind)) return;
    const source = this.#catalog.tool(request.kind)?.source;
    const noted = this.#noted.get(request);
    const reason = outcome.code === undefined ? undefined : REFUSALS[outcome.code];
    const verdict: Pick<CallRecord, 'verdict' | 'reason' | 'errorCode'> =
      outcome.code === undefined
        ? { verdict: 'ok' }
        : reason !== undefined
          ? { verdict: 'refused', reason, errorCode: outcome.code }
          : { verdict: 'error', errorCode: outcome.code };
    this.#observer.callEnded({
      path: 'xprotocol',
      source,
      tool: source === undefined ? undefined : request.kind,
      caller: request.pubkey,
      delegatedBy: noted?.delegatedBy,
      arguments: noted?.arguments,
      latencyMs,
      ...(traceId !== undefined && { traceId }),
      ...verdict,
    });
  }
}
