/**
 * The seam between the adapter's two call paths (the MCP face and the XProtocol endpoint) and
 * whatever watches them (metrics, the audit log; docs/operating.md). A path that has no observer
 * does no work for one: the hooks are a check for `undefined` on the hot path.
 * @module
 */

/** How a call ended: answered, failed, or refused before it ran. */
export type CallVerdict = 'ok' | 'error' | 'refused';

/** Where a call came in. */
export type CallPath = 'face' | 'xprotocol';

/** One call, once it has ended. */
export interface CallRecord {
  readonly path: CallPath;
  /** The source the tool belongs to; absent for a tool no catalog knows. */
  readonly source?: string | undefined;
  /** The tool (face name, or XProtocol kind) when a catalog knows it; absent otherwise. */
  readonly tool?: string | undefined;
  /** The face principal, or the XProtocol caller's key. */
  readonly caller?: string | undefined;
  /** The user a delegation chain speaks for, when the caller presented one. */
  readonly delegatedBy?: string | undefined;
  /** The call's arguments, for a hash (never written out as they are unless configured). */
  readonly arguments?: unknown;
  readonly verdict: CallVerdict;
  /** Why it was refused (`auth`, `grant`, `scope`, `rate_limit`, `schema`, `size`, `unknown_tool`, …). */
  readonly reason?: string | undefined;
  /** The JSON-RPC code or XProtocol error code of a failure or refusal. */
  readonly errorCode?: string | number | undefined;
  readonly latencyMs: number;
  readonly traceId?: string | undefined;
}

/** Hears every call that ended. Must not throw, and must not wait: it runs on the call's path. */
export interface CallObserver {
  callEnded(record: CallRecord): void;
}

/** One observer that tells each of `observers` (those given), or nothing when none is given. */
export function fanOutObserver(observers: readonly (CallObserver | undefined)[]): CallObserver | undefined {
  const present = observers.filter((o): o is CallObserver => o !== undefined);
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  return {
    callEnded(record) {
      for (const observer of present) observer.callEnded(record);
    },
  };
}
