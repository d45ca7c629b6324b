/**
 * The HTTP face's limits between principals (docs/security.md, "Fair shares between principals"),
 * resolved once when it starts serving: sessions and requests in flight, each with a cap per
 * principal under a ceiling for all, and who counts as a principal. With OAuth each `<issuer>
 * <subject>` is one; without authentication, or with the static token every client shares, the
 * face has one principal, held to the ceilings only. The client's address does not subdivide it:
 * on loopback every local client has the same address, and its port changes with each connection.
 * @module
 */
import type { FacePrincipal } from '../auth/face-auth.js';
import { type _CapLimits, _fairShare, _PrincipalCaps } from '../gateway/principal-caps.js';
import type { McpFaceServeOptions } from './serve-options.js';

const DEFAULT_MAX_SESSIONS = 64;
const DEFAULT_MAX_IN_FLIGHT = 32;
const DEFAULT_MAX_IN_FLIGHT_TOTAL = 256;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** The HTTP face's limits, resolved. */
export interface _HttpLimits {
  /** MCP sessions per principal and in all. */
  sessions: _CapLimits;
  /** How long a session with nothing running and no open stream lives unused, in ms. */
  sessionIdleMs: number;
  /** Requests in flight per session, and per principal's 2026-07-28 requests together. */
  maxInFlight: number;
  /** Requests in flight per principal and in all, both revisions together. */
  inFlight: _PrincipalCaps;
  /** A principal's 2026-07-28 requests in flight, held to `maxInFlight` like one session. */
  modernInFlight: _PrincipalCaps;
}

/** The limits `settings` give, with their defaults; a setting out of range is refused by name. */
export function _httpLimits(settings: McpFaceServeOptions): _HttpLimits {
  const maxSessions = _positive(settings.maxSessions, 'maxSessions') ?? DEFAULT_MAX_SESSIONS;
  const maxInFlight = _positive(settings.maxRequestsInFlight, 'maxRequestsInFlight') ?? DEFAULT_MAX_IN_FLIGHT;
  const inFlightTotal =
    _positive(settings.maxRequestsInFlightTotal, 'maxRequestsInFlightTotal') ?? DEFAULT_MAX_IN_FLIGHT_TOTAL;
  return {
    sessions: {
      total: maxSessions,
      perPrincipal:
        _positive(settings.maxSessionsPerPrincipal, 'maxSessionsPerPrincipal') ?? _fairShare(maxSessions),
    },
    sessionIdleMs: _positive(settings.sessionIdleMs, 'sessionIdleMs') ?? DEFAULT_SESSION_IDLE_MS,
    maxInFlight,
    inFlight: new _PrincipalCaps({
      total: inFlightTotal,
      perPrincipal:
        _positive(settings.maxRequestsInFlightPerPrincipal, 'maxRequestsInFlightPerPrincipal') ??
        _fairShare(inFlightTotal),
    }),
    modernInFlight: new _PrincipalCaps({ perPrincipal: maxInFlight, total: Number.POSITIVE_INFINITY }),
  };
}

/**
 * The key `principal` is counted under in the caps per principal: its id, or `undefined` for
 * the face's one principal (no authentication, or the static token), which the ceilings alone hold.
 */
export function _capsKey(principal: FacePrincipal | undefined): string | undefined {
  return principal === undefined || principal.shared === true ? undefined : principal.id;
}

/**
 * The key of `principal`'s rate-limit buckets and of its 2026-07-28 requests in flight: one per
 * principal, whichever leg or session its requests come on (`''` without authentication).
 */
export function _principalKey(principal: FacePrincipal | undefined): string {
  return principal?.id ?? '';
}

function _positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`mcp_server ${name}: expected an integer of at least 1, got ${value}`);
  return value;
}
