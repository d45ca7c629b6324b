/**
 * The request ids a client of the HTTP MCP face has in flight, per session (docs/security.md,
 * "The HTTP face"). A request whose id is still in flight is refused before the transport sees it:
 * the transport routes answers by id, so a second request with the same id would take the first
 * one's stream, run twice, and leave the first without an answer.
 *
 * An id is *reserved* when its POST is accepted, *delivered* when the transport hands it to the
 * session, and freed when the session answers it, when the client cancels it, or — if it was never
 * delivered (the transport refused the POST) — when the POST ends.
 * @module
 */
import { _idKey, type _JsonRpcId } from './json-rpc-body.js';

interface _Entry {
  delivered: boolean;
}

/** The in-flight request ids of one session. */
export class _InFlightIds {
  readonly #entries = new Map<string, _Entry>();

  /**
   * Reserves `ids` for one POST; returns the first id already in flight instead (nothing is
   * reserved then). `release()` frees the reservations the transport never delivered.
   */
  reserve(ids: readonly _JsonRpcId[]): { ok: true; release: () => void } | { ok: false; id: _JsonRpcId } {
    const taken = ids.find((id) => this.#entries.has(_idKey(id)));
    if (taken !== undefined) return { ok: false, id: taken };
    const mine = ids.map((id) => {
      const entry: _Entry = { delivered: false };
      this.#entries.set(_idKey(id), entry);
      return [_idKey(id), entry] as const;
    });
    return {
      ok: true,
      release: () => {
        for (const [key, entry] of mine) {
          if (!entry.delivered && this.#entries.get(key) === entry) this.#entries.delete(key);
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
    this.#entries.delete(_idKey(id));
  }

  /** How many ids are in flight. */
  get size(): number {
    return this.#entries.size;
  }
}
