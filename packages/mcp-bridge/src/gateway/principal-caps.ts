/**
 * Fair shares of one face resource (sessions, requests in flight, leases, upstream processes)
 * between the principals that use it (docs/security.md, "Fair shares between principals"): each
 * principal may hold up to its own cap, and all of them together up to one ceiling. Holding is
 * counted, never queued: a take over either cap is refused at once, naming which cap and how much
 * is held, so the caller can answer the client. The face's one principal (no authentication, or
 * the static token every client shares) is held to the ceiling alone: it is every client there is.
 * @module
 */

/** The two caps of one resource. */
export interface _CapLimits {
  /** Most one principal may hold at once. */
  perPrincipal: number;
  /** Most every principal together may hold at once. */
  total: number;
}

/** Why a take was refused: the cap it would have passed, what is held there now, and the cap. */
export interface _CapRefusal {
  /** `principal`: the principal's own cap; `total`: the ceiling of every principal together. */
  scope: 'principal' | 'total';
  held: number;
  limit: number;
}

/** The default cap of one principal: a quarter of the ceiling (at least one), so that at least four principals get their whole share. */
export function _fairShare(total: number): number {
  return Math.max(1, Math.ceil(total / 4));
}

/** What one resource of the face is held, by principal and in all. */
export class _PrincipalCaps {
  readonly limits: _CapLimits;
  readonly #held = new Map<string, number>();
  #total = 0;

  constructor(limits: _CapLimits) {
    this.limits = limits;
  }

  /** What every principal together holds. */
  get total(): number {
    return this.#total;
  }

  /** What `principal` holds (the face's one principal, `undefined`, holds the total). */
  held(principal: string | undefined): number {
    return principal === undefined ? this.#total : (this.#held.get(principal) ?? 0);
  }

  /**
   * Takes `count` for `principal` (`undefined`: the face's one principal, held to the ceiling
   * only); the refusal instead, and nothing taken, when either cap would be passed.
   */
  take(principal: string | undefined, count = 1): _CapRefusal | undefined {
    const mine = this.held(principal);
    if (principal !== undefined && mine + count > this.limits.perPrincipal)
      return { scope: 'principal', held: mine, limit: this.limits.perPrincipal };
    if (this.#total + count > this.limits.total)
      return { scope: 'total', held: this.#total, limit: this.limits.total };
    this.#total += count;
    if (principal !== undefined) this.#held.set(principal, mine + count);
    return undefined;
  }

  /** Gives back `count` that `principal` took. */
  give(principal: string | undefined, count = 1): void {
    this.#total = Math.max(0, this.#total - count);
    if (principal === undefined) return;
    const left = (this.#held.get(principal) ?? 0) - count;
    // Forgotten at zero: the map holds only principals holding something.
    if (left > 0) this.#held.set(principal, left);
    else this.#held.delete(principal);
  }
}

/**
 * The message of a refusal of `what` (`MCP sessions`, `requests in flight` …): the cap passed,
 * what is held, the setting that sets it (`knobs`), and what the client can do (`advice`).
 */
export function _capMessage(
  refusal: _CapRefusal,
  what: string,
  knobs: { perPrincipal: string; total: string },
  advice: string,
): string {
  return refusal.scope === 'principal'
    ? `too many ${what} for this principal: it holds ${refusal.held}, at most ${refusal.limit} (${knobs.perPrincipal}); ${advice}`
    : `too many ${what} on this MCP face: all principals together hold ${refusal.held}, at most ${refusal.limit} (${knobs.total}); ${advice}`;
}
