/**
 * Whether a trusted root vouches for an endpoint (docs/protocol.md §10.3 and §11.4;
 * docs/security.md, "Trust roots"): the one check a caller with trust roots makes of an announce,
 * used by `xprotocol-adapter call --trust-root` and by the MCP face's `xprotocol_sources` with
 * `trust_root`. The announce must carry a `delegation_chain`; the chain check must accept it with
 * the caller's roots at the caller's own time; and the key it vouches for must be the key that
 * signed the announce, so a chain copied into someone else's announce vouches for nobody.
 * @module
 */
import {
  type AcceptedChain,
  type ChainRefusal,
  checkDelegationChain,
  type DelegationChainChecker,
} from '@xprotocol/crypto';
import type { Announce } from '@xprotocol/registry';

/** Why an endpoint is not vouched for: a code of the chain check, or one of the announce's own. */
export type EndpointVouchRefusal =
  | ChainRefusal
  /** The announce carries no `delegation_chain`. */
  | 'no_chain'
  /** The chain checks, but vouches for another key than the announce's signer. */
  | 'not_the_signer';

/** The verdict of {@link vouchForEndpoint}. */
export type EndpointVouch =
  | { readonly ok: true; readonly chain: AcceptedChain }
  | {
      readonly ok: false;
      readonly refusal: EndpointVouchRefusal;
      /** The index of the link at fault, when one is (0 is the root's link). */
      readonly link?: number;
      /** Names the endpoint, the code, the link, and what was expected. */
      readonly message: string;
    };

/** Options of {@link vouchForEndpoint}. */
export interface EndpointVouchOptions {
  /** The `ed25519:` keys the caller trusts as roots (at least one). */
  readonly trustRoots: readonly string[];
  /** The time of the check, unix seconds: the caller's own clock. */
  readonly at: number;
  /** How the roots were given, for messages (`--trust-root`); default `the trust roots`. */
  readonly rootsLabel?: string;
  /** A remembering checker (the same verdicts, faster for a chain seen before). */
  readonly checker?: DelegationChainChecker;
  /**
   * Revocations to check the chain against, as relays hold them (`XpCaller.chainRevocations`):
   * the chain check verifies each and counts only those by a key allowed to revoke the link.
   */
  readonly revocations?: readonly unknown[];
}

/**
 * Checks that a trusted root vouches for the endpoint whose announce this is. Never throws on the
 * announce; throws as `checkDelegationChain` does for a trust root that is not a key string.
 * @example
 * const verdict = vouchForEndpoint(announce, { trustRoots: [orgRoot], at: nowSeconds });
 * if (!verdict.ok) throw new Error(verdict.message);
 */
export function vouchForEndpoint(announce: Announce, options: EndpointVouchOptions): EndpointVouch {
  const endpoint = announce.keys.ed25519;
  const roots = `${options.rootsLabel ?? 'the trust roots'} ${options.trustRoots.join(', ')}`;
  const notVouched = `endpoint ${endpoint} is not vouched for by a trusted root`;
  const chain = announce.payload.delegation_chain;
  if (chain === undefined) {
    return {
      ok: false,
      refusal: 'no_chain',
      message: `${notVouched}: its announce has no delegation_chain, expected a chain from one of ${roots}`,
    };
  }
  const input = {
    chain,
    trustedRoots: options.trustRoots,
    at: options.at,
    ...(options.revocations && { revocations: options.revocations }),
  };
  const verdict = options.checker ? options.checker.check(input) : checkDelegationChain(input);
  if (!verdict.ok) {
    const index = verdict.link?.index;
    const where = index === undefined ? verdict.code : `${verdict.code}, link ${index}`;
    const why =
      verdict.code === 'untrusted_root'
        ? `its chain starts at ${verdict.link?.issuer ?? 'a key that is not an ed25519: key'}, not one of ${roots}`
        : verdict.message;
    return {
      ok: false,
      refusal: verdict.code,
      ...(index !== undefined && { link: index }),
      message: `${notVouched} (${where}): ${why}`,
    };
  }
  if (verdict.delegatedKey !== endpoint) {
    const last = verdict.linkIds.length - 1;
    return {
      ok: false,
      refusal: 'not_the_signer',
      link: last,
      message: `${notVouched} (not_the_signer, link ${last}): its chain vouches for ${verdict.delegatedKey}, expected the key that signed the announce, ${endpoint}`,
    };
  }
  return { ok: true, chain: verdict };
}
