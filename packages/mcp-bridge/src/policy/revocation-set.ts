/**
 * The revocations an endpoint holds (docs/protocol.md §11.2, "On relays"): each verified once when
 * it arrives and kept by the delegation it withdraws, so the chain check of every call is given
 * only the few that name one of its links. Whether a held revocation counts against a given chain
 * (its issuer is that link's issuer or a key above it) is the chain check's rule, not this set's.
 * @module
 */
import { type Revocation, type SignatureBackend, verifyRevocation } from '@xprotocol/crypto';

/** The most revocations one endpoint holds by default. */
export const DEFAULT_MAX_REVOCATIONS = 100_000;
/**
 * The most revocations held from one issuer by default: any key a trusted issuer delegated to can
 * sign revocations, and one such key must not fill the whole set and so stop every chain.
 */
export const DEFAULT_MAX_REVOCATIONS_PER_ISSUER = 1_000;

/** Options of {@link RevocationSet}. */
export interface RevocationSetOptions {
  /** Verifies each revocation's signature; noble by default. */
  signatures?: SignatureBackend;
  /** How many it holds at most (default {@link DEFAULT_MAX_REVOCATIONS}). */
  maxRevocations?: number;
  /** How many it holds from one issuer at most (default {@link DEFAULT_MAX_REVOCATIONS_PER_ISSUER}). */
  maxPerIssuer?: number;
}

/** What {@link RevocationSet.add} did. */
export type RevocationAdded =
  | { ok: true; added: boolean; revocation: Revocation }
  | { ok: false; reason: string };

/** Revocations by the id of the delegation they withdraw. */
export class RevocationSet {
  readonly #signatures: SignatureBackend | undefined;
  readonly #max: number;
  readonly #maxPerIssuer: number;
  readonly #byRevoked = new Map<string, Revocation[]>();
  readonly #ids = new Set<string>();
  readonly #perIssuer = new Map<string, number>();

  constructor(options: RevocationSetOptions = {}) {
    this.#signatures = options.signatures;
    this.#max = options.maxRevocations ?? DEFAULT_MAX_REVOCATIONS;
    this.#maxPerIssuer = options.maxPerIssuer ?? DEFAULT_MAX_REVOCATIONS_PER_ISSUER;
  }

  /**
   * Verifies and keeps a revocation that `publisher` signed an event with. It counts only when
   * `publisher` is its issuer: an endpoint asks relays for the revocations of the keys it watches,
   * and a copy published by another key would let anyone fill the set. Never throws.
   */
  add(value: unknown, publisher: string): RevocationAdded {
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && this.#ids.has(id)) {
      // Relays send what the endpoint holds again on every re-query: verified once is enough.
      const kept = this.#find(value as Revocation);
      if (kept?.issuer === publisher) return { ok: true, added: false, revocation: kept };
    }
    const verdict = verifyRevocation(value, this.#signatures);
    if (!verdict.ok) return { ok: false, reason: verdict.message };
    const { revocation } = verdict;
    if (revocation.issuer !== publisher) {
      return {
        ok: false,
        reason: `the revocation is issued by ${revocation.issuer} but published by ${publisher}`,
      };
    }
    if (this.#ids.size >= this.#max) {
      return {
        ok: false,
        reason: `this endpoint holds ${this.#max} revocations already, its limit`,
      };
    }
    const fromIssuer = this.#perIssuer.get(revocation.issuer) ?? 0;
    if (fromIssuer >= this.#maxPerIssuer) {
      return {
        ok: false,
        reason: `this endpoint holds ${this.#maxPerIssuer} revocations by ${revocation.issuer} already, its limit for one key`,
      };
    }
    this.#perIssuer.set(revocation.issuer, fromIssuer + 1);
    this.#ids.add(revocation.id);
    const list = this.#byRevoked.get(revocation.revoked) ?? [];
    list.push(revocation);
    this.#byRevoked.set(revocation.revoked, list);
    return { ok: true, added: true, revocation };
  }

  /** The revocations that withdraw one of `linkIds` (a chain's links, as it states them). */
  about(linkIds: readonly unknown[]): Revocation[] {
    const found: Revocation[] = [];
    for (const id of linkIds) {
      if (typeof id === 'string') found.push(...(this.#byRevoked.get(id) ?? []));
    }
    return found;
  }

  /** Whether the set is at its limit: a new revocation would not be kept. */
  get full(): boolean {
    return this.#ids.size >= this.#max;
  }

  /**
   * The first of `issuers` whose revocations are at the limit for one key: a new one by it would
   * not be kept, so a chain through it cannot be judged safely.
   */
  saturatedIssuer(issuers: readonly string[]): string | undefined {
    return issuers.find((issuer) => (this.#perIssuer.get(issuer) ?? 0) >= this.#maxPerIssuer);
  }

  /** How many revocations it holds. */
  get size(): number {
    return this.#ids.size;
  }

  #find(value: Revocation): Revocation | undefined {
    return this.#byRevoked.get(value.revoked)?.find((r) => r.id === value.id && r.sig === value.sig);
  }
}
