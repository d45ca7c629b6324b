/**
 * `mcp_sources[].rate_limit` on the MCP face (gateway mode, docs/security.md, "Rate limits"): the
 * same token bucket the XProtocol endpoint keeps per (caller key, source), kept here per
 * (principal, source). Over HTTP the principal is the OAuth `<issuer> <subject>`, or the face's one
 * principal without OAuth (no auth, or the static token every client shares); its bucket is the
 * same whichever session or revision its calls come on, so a new session brings no new budget.
 * Over stdio it is the one client. A refusal is the XProtocol `RATE_LIMITED` error in its MCP face
 * (`-32600` with `data: {xp_code: "RATE_LIMITED", retry_after}`); the HTTP face also answers `429`
 * with `Retry-After`.
 * @module
 */
import { type JsonRpcErrorObject, xpErrorToMcp } from '@xprotocol/translate';
import { TokenBuckets, xpError } from '@xprotocol/wire';

/** A refused call: when to try again, and the JSON-RPC error to answer. */
export interface FaceRateLimited {
  retryAfterSeconds: number;
  error: JsonRpcErrorObject;
}

/** Token buckets per (principal, source) for the sources that have a rate limit. */
export class _FaceRateLimits {
  readonly #perMinute: ReadonlyMap<string, number>;
  readonly #buckets = new Map<string, TokenBuckets>();
  readonly #now: () => number;

  /** @param perMinute - `requests_per_minute` by source name; sources not listed are not limited. */
  constructor(perMinute: ReadonlyMap<string, number>, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Takes one token of `source` for `principal`; the refusal when none is left. */
  take(principal: string, source: string): FaceRateLimited | undefined {
    const perMinute = this.#perMinute.get(source);
    if (perMinute === undefined) return undefined;
    let buckets = this.#buckets.get(source);
    if (!buckets) {
      // Principals are few (OAuth subjects); the bound here only keeps a runaway in check.
      buckets = new TokenBuckets(perMinute, 10_000);
      this.#buckets.set(source, buckets);
    }
    const taken = buckets.take(principal, this.#now());
    if (taken.ok) return undefined;
    const face = xpErrorToMcp(
      xpError(
        'RATE_LIMITED',
        `rate limit of source ${source} exceeded (${perMinute} requests per minute per principal); retry in ${taken.retryAfterSeconds} s`,
        { retry_after: taken.retryAfterSeconds },
      ),
    );
    if (face.channel !== 'jsonrpc_error') throw new Error('RATE_LIMITED must map to a JSON-RPC error');
    return { retryAfterSeconds: taken.retryAfterSeconds, error: face.error };
  }
}
