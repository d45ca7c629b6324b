/**
 * The request ids a client of the HTTP MCP face has in flight, per session (docs/security.md,
 * "The HTTP face"). A request whose id is still in flight is refused before the transport sees it:
 * the transport routes answers by id, so a second request with the same id would take the first
 * one's stream, run twice, and leave the first without an answer.
 *
 * An id is *reserved* when its POST is accepted, *delivered* when the transport hands it to the
 * session, and freed when the session answers it, when the client cancels it, or — if it was never
 * delivered (the transport refused the POST) — when the POST ends, or when the session ends. Each
 * id in flight also counts against its principal's share of the face's requests in flight
 * (gateway/principal-caps.ts), taken when reserved and given back when freed.
 * @module
 */
import type { _CapRefusal, _PrincipalCaps } from '../gateway/principal-caps.js';
import { _idKey, type _JsonRpcId } from './json-rpc-body.js';

interface _Entry {
  delivered: boolean;
}

/** The in-flight request ids of one session. */
export class _InFlightIds {
  readonly #entries = new Map<string, _Entry>();
  readonly #share: { caps: _PrincipalCaps; principal: string | undefined } | undefined;

  /** @param share - the face's requests in flight, and the session's principal there. */
  constructor(share?: { caps: _PrincipalCaps; principal: string | undefined }) {
    this.#share = share;
  }

  /**
   * Reserves `ids` for one POST; returns the first id already in flight instead, or why the
   * principal's share of the face's requests in flight does not hold them (nothing is reserved
   * then). `release()` frees the reservations the transport never delivered.
   */
  reserve(
    ids: readonly _JsonRpcId[],
  ):
    | { ok: true; release: () => void }
    | { ok: false; id: _JsonRpcId }
    | { ok: false; id: _JsonRpcId; refusal: _CapRefusal } {
    const taken = ids.find((id) => this.#entries.has(_idKey(id)));
    if (taken !== undefined) return { ok: false, id: taken };
    const refusal = ids.length > 0 ? this.#share?.caps.take(this.#share.principal, ids.length) : undefined;
    if (refusal) return { ok: false, id: ids[0]!, refusal };
    const mine = ids.map((id) => {
      const entry: _Entry = { delivered: false };
      this.#entries.set(_idKey(id), entry);
      return [_idKey(id), entry] as const;
    });
    return {
      ok: true,
      release: () => {
        for (const [key, entry] of mine) {
          if (!entry.delivered && this.#entries.get(key) === entry) this.#free(key);
        }
      },
    };
  }

  /** The transport handed the request with `id` to the session. */
  delivered(id: _JsonRpcId): void {
    const entry = this.#entries.get(_idKey(id));
    if (entry) entry.delivered = true;
  }

  /** The session answered `id`, or the client cancelled it: the id may be used again. */
  done(id: _JsonRpcId): void {
    const key = _idKey(id);
    if (this.#entries.has(key)) this.#free(key);
  }

  /** The session ended: every id is freed (answered or not, none can be any more). */
  clear(): void {
    for (const key of [...this.#entries.keys()]) this.#free(key);
  }

  #free(key: string): void {
    this.#entries.delete(key);
    this.#share?.caps.give(this.#share.principal);
  }

  /** How many ids are in flight. */
  get size(): number {
    return this.#entries.size;
  }
}
