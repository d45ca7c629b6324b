/**
 * Authority from a caller's delegation chain (docs/protocol.md §11.7), on top of the direct
 * grants of {@link AccessPolicy}: a key without a grant of its own that presents a chain from a
 * trusted issuer (`access.trusted_issuers`), whose last link delegates to that very key, holds
 * what both the chain and the issuer's own grant here cover — a chain can narrow what an endpoint
 * gave its issuer, never widen it. Chains are checked by a memoizing `DelegationChainChecker`
 * against the revocations the endpoint holds; each refusal maps to one wire code.
 * @module
 */
import {
  anyCapabilityMatches,
  type ChainVerdict,
  DelegationChainChecker,
  type Ed25519KeyString,
  type SignatureBackend,
} from '@xprotocol/crypto';
import type { AccessPolicy } from './access.js';
import type { RevocationSet } from './revocation-set.js';

/**
 * What a request presented: the chain check's verdict on its chain, or why its delegation tag
 * could not be read (`tag`) or its issuers not watched for revocations (`unwatched`).
 */
export type PresentedChain =
  | { verdict: ChainVerdict }
  | { problem: string; code: 'tag' | 'unwatched'; link?: number };

/** Whose authority a served call ran under. */
export interface ChainAttribution {
  /** The chain id (docs/protocol.md §11.3). */
  id: string;
  /** The trusted issuer the chain starts at. */
  root: Ed25519KeyString;
  /** The user the chain acts for, when it names one. */
  onBehalfOf?: Ed25519KeyString;
}

/** The verdict of {@link DelegatedAccess.authorize}. */
export type AuthorityVerdict =
  | {
      ok: true;
      /** Who the call is attributed to: the signer, or the chain's `on_behalf_of`, else its root. */
      principal: string;
      /** Present when the authority came from a chain. */
      chain?: ChainAttribution;
    }
  | {
      ok: false;
      /** `REVOKED` for a revoked link, else `AUTHORIZATION_INSUFFICIENT`. */
      code: 'AUTHORIZATION_INSUFFICIENT' | 'REVOKED';
      /** Why, to follow "<capability> is required: ". */
      reason: string;
      /** The chain's refusal code (docs/protocol.md §11.4, or `tag`, `unwatched`, `not_the_signer`). */
      chainCode?: string;
      /** The index of the link at fault, when there is one. */
      chainLink?: number;
    };

/** Options of {@link DelegatedAccess}. */
export interface DelegatedAccessOptions {
  /** The direct grants, the default and the trusted issuers. */
  access: AccessPolicy;
  /** The revocations the endpoint holds. */
  revocations: RevocationSet;
  /** Verifies link signatures; noble by default. */
  signatures?: SignatureBackend;
  /** How many chains the checker remembers (default 1,024). */
  maxChains?: number;
}

/** Direct grants first, then a presented chain. */
export class DelegatedAccess {
  readonly #access: AccessPolicy;
  readonly #revocations: RevocationSet;
  readonly #checker: DelegationChainChecker;

  constructor(options: DelegatedAccessOptions) {
    this.#access = options.access;
    this.#revocations = options.revocations;
    this.#checker = new DelegationChainChecker({
      ...(options.signatures && { backend: options.signatures }),
      ...(options.maxChains !== undefined && { maxChains: options.maxChains }),
    });
  }

  /** The keys trusted as chain roots (`access.trusted_issuers`). */
  get trustedIssuers(): readonly string[] {
    return this.#access.trustedIssuers;
  }

  /**
   * The chain check (docs/protocol.md §11.4) of `chain` at `atSeconds` (the endpoint's clock),
   * with the trusted issuers as roots and the held revocations of its links. Memoized: the
   * signatures of a chain seen before are not checked again; time and revocations always are.
   */
  checkChain(chain: unknown, atSeconds: number): ChainVerdict {
    const linkIds = Array.isArray(chain) ? chain.map((link) => (link as { id?: unknown } | null)?.id) : [];
    return this.#checker.check({
      chain,
      trustedRoots: this.#access.trustedIssuers,
      at: atSeconds,
      revocations: this.#revocations.about(linkIds),
    });
  }

  /**
   * The first of `issuers` (a chain's) whose revocations fill what this endpoint keeps for one key:
   * a chain through it is refused `unwatched`, since its next revocation could be missed.
   */
  saturatedIssuer(issuers: readonly string[]): string | undefined {
    return this.#revocations.saturatedIssuer(issuers);
  }

  /**
   * Whether `sender` may use `required`: by its own grant (or `default: allow`), else by the chain
   * it `presented`. The chain is read only when the sender's own grants fall short.
   */
  authorize(sender: string, required: string, presented?: PresentedChain): AuthorityVerdict {
    const direct = this.#access.check(sender, required);
    if (direct.ok) return { ok: true, principal: sender };
    if (presented === undefined)
      return { ok: false, code: 'AUTHORIZATION_INSUFFICIENT', reason: direct.reason };
    const own = direct.reason;
    if ('problem' in presented) return _refused(own, presented.code, presented.link, presented.problem);
    const { verdict } = presented;
    if (!verdict.ok) return _refused(own, verdict.code, verdict.link?.index, verdict.message);
    if (verdict.delegatedKey !== sender) {
      return _refused(
        own,
        'not_the_signer',
        verdict.linkIds.length - 1,
        `the chain vouches for ${verdict.delegatedKey}, but the request is signed by ${sender}`,
      );
    }
    if (this.#revocations.full) {
      return _refused(
        own,
        'unwatched',
        undefined,
        'this endpoint holds as many revocations as it can and could miss a new one',
      );
    }
    if (!anyCapabilityMatches(verdict.capabilities, required)) {
      return {
        ok: false,
        code: 'AUTHORIZATION_INSUFFICIENT',
        reason: `${own}, and its delegation chain gives ${verdict.capabilities.join(', ')}, which do not include it`,
      };
    }
    const rootGrants = this.#access.grantsOf(verdict.root);
    if (!anyCapabilityMatches(rootGrants, required)) {
      return {
        ok: false,
        code: 'AUTHORIZATION_INSUFFICIENT',
        reason: `${own}, and the grants of its chain's root ${verdict.root} here (${rootGrants.join(', ') || 'none'}) do not include it`,
      };
    }
    return {
      ok: true,
      principal: verdict.onBehalfOf ?? verdict.root,
      chain: {
        id: verdict.chainId,
        root: verdict.root,
        ...(verdict.onBehalfOf !== undefined && { onBehalfOf: verdict.onBehalfOf }),
      },
    };
  }
}

/** A refused chain: `revoked` is `REVOKED` on the wire, every other code `AUTHORIZATION_INSUFFICIENT`. */
function _refused(
  own: string,
  chainCode: string,
  link: number | undefined,
  message: string,
): AuthorityVerdict {
  const where = link === undefined ? chainCode : `${chainCode} at link ${link}`;
  return {
    ok: false,
    code: chainCode === 'revoked' ? 'REVOKED' : 'AUTHORIZATION_INSUFFICIENT',
    reason: `${own}, and its delegation chain was refused (${where}): ${message}`,
    chainCode,
    ...(link !== undefined && { chainLink: link }),
  };
}
