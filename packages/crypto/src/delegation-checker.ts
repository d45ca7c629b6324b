/**
 * A chain checker that remembers (docs/protocol.md §11.4, "Memoizing"): a verifier sees the same
 * chain on every event of the same key, and the costly part of the check — a signature per link —
 * does not depend on the time or the revocations. So the form and link phases are kept per chain
 * (its id, its signatures and whether its root is trusted), and the revocation and time phases run
 * on every call: a remembered chain is never accepted outside its window or after a revocation.
 * @module
 */
import {
  _checkChain,
  type _WalkMemo,
  type _WalkResult,
  type ChainCheckInput,
  type ChainVerdict,
} from './delegation-chain.js';
import { nobleSignatures } from './ed25519-noble.js';
import type { SignatureBackend } from './signature-backend.js';

/** Options of {@link DelegationChainChecker}. */
export interface DelegationChainCheckerOptions {
  /** The signature backend; noble by default (`nodeSignatures` from `/node` is faster). */
  readonly backend?: SignatureBackend;
  /** How many chains to remember, least recently used first out; 1,024 by default. */
  readonly maxChains?: number;
}

/**
 * `checkDelegationChain` with memory. Its verdicts are exactly those of `checkDelegationChain`
 * for the same input, whatever it remembers; only the time they take differs.
 * @example
 * const checker = new DelegationChainChecker({ backend: nodeSignatures });
 * const verdict = checker.check({ chain, trustedRoots, at: nowSeconds, revocations });
 */
export class DelegationChainChecker {
  readonly #backend: SignatureBackend;
  readonly #maxChains: number;
  readonly #walks = new Map<string, _WalkResult>();
  readonly #memo: _WalkMemo;

  constructor(options: DelegationChainCheckerOptions = {}) {
    this.#backend = options.backend ?? nobleSignatures;
    this.#maxChains = Math.max(1, Math.floor(options.maxChains ?? 1024));
    this.#memo = {
      get: (key) => {
        const result = this.#walks.get(key);
        if (result !== undefined) {
          // Least recently used order: a hit moves to the end.
          this.#walks.delete(key);
          this.#walks.set(key, result);
        }
        return result;
      },
      set: (key, result) => {
        this.#walks.set(key, result);
        if (this.#walks.size > this.#maxChains) this.#walks.delete(this.#walks.keys().next().value as string);
      },
    };
  }

  /** The verdict for `input`; see `checkDelegationChain`. */
  check(input: ChainCheckInput): ChainVerdict {
    return _checkChain(input, this.#backend, this.#memo);
  }

  /** How many chains it remembers now. */
  get size(): number {
    return this.#walks.size;
  }
}
